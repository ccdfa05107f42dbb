//go:build linux || darwin || freebsd || dragonfly

package testbin

import "syscall"

// freeSpace returns the bytes an unprivileged process may still write in
// the file system of dir, and false if it cannot tell.
func freeSpace(dir string) (int64, bool) {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}
