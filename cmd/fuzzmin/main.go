// Command fuzzmin minimizes the failing entries of Go native fuzz corpora.
//
// The command line is being built; see the README for its status.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "fuzzmin: not yet: the command line lands with the CLI issue; the corpus format, the corpus package and the shrink engine are usable as libraries")
	os.Exit(2)
}
