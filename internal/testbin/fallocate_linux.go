package testbin

import (
	"errors"
	"os"
	"syscall"
)

// fallocate reserves the storage of the first size bytes of f.
func fallocate(f *os.File, size int64) error {
	for {
		err := syscall.Fallocate(int(f.Fd()), 0, 0, size)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EOPNOTSUPP:
			return errors.ErrUnsupported
		}
		return err
	}
}
