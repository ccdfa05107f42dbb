package testbin

import (
	"context"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// What the black-box tests (package testbin_test) see of the inside.

const (
	HangFloor  = hangFloor
	HangFactor = hangFactor
)

// CheckProtocol checks the worker protocol of the toolchain source in src.
var CheckProtocol = checkProtocol

// Framed reports whether the toolchain marks error lines (Go 1.27).
func Framed(t *Toolchain) bool { return t.framed }

// Slowest is the longest a passing input of r has run.
func Slowest(r *Runner) time.Duration { return r.slowest }

// HasWorker reports whether r has a fuzz worker running.
func HasWorker(r *Runner) bool { return r.worker != nil }

// JudgeInWorker runs one input in r's fuzz worker.
func JudgeInWorker(r *Runner, ctx context.Context, in []byte, limit time.Duration) (failure.Signature, string, error) {
	return r.judgeInWorker(ctx, in, limit)
}

// SplitVersion reads a binary's Go version as release and experiments.
var SplitVersion = splitVersion

// PingWorker makes the call that runs nothing in r's fuzz worker, which
// must be running.
func PingWorker(r *Runner) error {
	_, err := r.worker.call(context.Background(), pingCall, time.Second)
	return err
}
