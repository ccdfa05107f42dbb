//go:build !(darwin || freebsd || linux || openbsd)

package testbin

import (
	"errors"
	"os"
)

// WorkerSupported says whether fuzz workers run here: where the toolchain
// shares their memory by mapping a file, as fuzzmin does. (On Windows it
// maps a file too, by other calls; candidates run in processes there.)
const WorkerSupported = false

func mapShared(*os.File, int) ([]byte, error) { return nil, errors.New("not supported") }

func unmap([]byte) {}
