//go:build !unix

package pipeline

import (
	"os"
	"os/exec"
)

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

// ownGroup does nothing here: there is no terminal's process group to
// leave.
func ownGroup(cmd *exec.Cmd) {}
