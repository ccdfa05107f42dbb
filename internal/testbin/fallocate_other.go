//go:build !linux

package testbin

import (
	"errors"
	"os"
)

func fallocate(*os.File, int64) error { return errors.ErrUnsupported }
