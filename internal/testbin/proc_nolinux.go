//go:build !linux

package testbin

import (
	"os/exec"
	"syscall"
)

// dieWithParent is not possible here: the sweep of the next run removes
// what a command left behind when fuzzmin was killed.
func dieWithParent(cmd *exec.Cmd, sig syscall.Signal) {}

// rss is not measured here: -memory-limit holds on Linux only.
func rss(pid int) int64 { return 0 }

// fuzzCoordinators cannot be told apart from their workers here.
func fuzzCoordinators(pgid int) []int { return nil }
