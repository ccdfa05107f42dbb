//go:build unix

package corpus

import "syscall"

// processAlive reports whether a process pid exists, as far as this
// system can tell.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
