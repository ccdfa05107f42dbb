//go:build unix

package pipeline

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// lockFile takes an exclusive lock on f, which it keeps until f is closed.
// Without wait, it fails at once if another process holds the lock.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// writable reports why the directory dir cannot be written into, if it
// cannot: the system's answer for this process (root writes into read-only
// modes, not into read-only file systems).
func writable(dir string) error {
	if err := syscall.Access(dir, 2 /* W_OK */); err != nil && !errors.Is(err, syscall.ENOENT) {
		return err
	}
	return nil
}

// ownGroup starts cmd in a process group of its own, out of the terminal's:
// a Ctrl-C is fuzzmin's to handle (it ends what it must through the
// context), and a helper that would only have failed on it (git, asked
// which entries are tracked) finishes its answer.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
