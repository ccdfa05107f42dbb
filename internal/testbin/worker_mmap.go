//go:build darwin || freebsd || linux || openbsd

package testbin

import (
	"os"
	"syscall"
)

// WorkerSupported says whether fuzz workers run here: where the toolchain
// shares their memory by mapping a file, as fuzzmin does.
const WorkerSupported = true

func mapShared(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_FILE|syscall.MAP_SHARED)
}

func unmap(b []byte) { syscall.Munmap(b) }
