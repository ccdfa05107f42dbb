//go:build !unix

package cli

import (
	"os"
	"os/exec"
)

func setProcessGroup(cmd *exec.Cmd) {}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}

func interruptProcessGroup(cmd *exec.Cmd) error {
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}

// lockFile cannot lock here: a lock that cannot be taken keeps sweeps from
// removing anything, and a run's own directories are removed as it ends.
func lockFile(f *os.File, wait bool) error {
	if wait {
		return nil
	}
	return errNoLocks
}

// writable cannot tell here: writing will.
func writable(dir string) error { return nil }

// alive cannot tell here; it says yes.
func alive(pid int) bool { return true }
