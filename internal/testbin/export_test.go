package testbin

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// What the black-box tests (package testbin_test) see of the inside.

const (
	HangFloor  = hangFloor
	HangFactor = hangFactor
)

// SetTurnGrace sets how long past its time a turn may run, until restore
// is called.
func SetTurnGrace(d time.Duration) (restore func()) {
	old := turnGrace
	turnGrace = d
	return func() { turnGrace = old }
}

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
// must be running: in a batch worker, a call of no candidates.
func PingWorker(r *Runner) error {
	w := r.worker
	if !w.batch {
		_, err := w.call(context.Background(), pingCall, time.Second)
		return err
	}
	if _, err := w.calls.Write(make([]byte, 4)); err != nil {
		return err
	}
	end := time.Now().Add(time.Second)
	kind, n, _, err := w.answer(context.Background(), func() time.Time { return end })
	if err == nil && (kind != batchPassed || n != 0) {
		err = fmt.Errorf("a call of no candidates: answer %d, %d", kind, n)
	}
	return err
}

// NoHook makes r run candidates in the toolchain's fuzz worker.
func NoHook(r *Runner) { r.Hooked = false }

// ParseFuzzStatsLine reads a line of the coordinator's progress.
func ParseFuzzStatsLine(l string) (FuzzStats, bool) {
	m := fuzzStatsRE.FindStringSubmatch(l)
	if m == nil {
		return FuzzStats{}, false
	}
	return parseFuzzStats(m, 0), true
}

// FuzzerCmd is the command of a run of the fuzzer.
func FuzzerCmd(b *Binary, s FuzzSlice) *exec.Cmd { return b.fuzzCmd(s) }
