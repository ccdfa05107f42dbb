// Command fuzzmin minimizes the failing entries of Go native fuzz corpora.
//
// Run "fuzzmin -help" for its manual, or see the README.
package main

import (
	"os"

	"github.com/fuzzmin/fuzzmin/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
