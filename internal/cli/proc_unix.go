//go:build unix

package cli

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in a process group of its own, so that
// killing it also kills what the test started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

func interruptProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
}

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

// alive reports whether the process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
