//go:build !linux

package testbin

import (
	"os/exec"
	"syscall"
)

// dieWithParent is not possible here: the sweep of the next run removes
// what a command left behind when fuzzmin was killed.
func dieWithParent(cmd *exec.Cmd, sig syscall.Signal) {}
