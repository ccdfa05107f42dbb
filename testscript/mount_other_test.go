//go:build !linux

package testscript_test

import (
	"fmt"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// canMount: only Linux's file systems are mounted by the scripts.
func canMount() bool { return false }

func cmdTmpfs(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("tmpfs: not supported on this system")
}

func cmdPin(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("pin: not supported on this system")
}

func withShm(args []string) int {
	fmt.Fprintln(os.Stderr, "withshm: not supported on this system")
	return 2
}
