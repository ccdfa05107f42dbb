package testbin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"syscall"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// Check runs the entries names of the runner's target, files of the
// package's seed corpus, with the test binary in the package's directory,
// as go test runs it, and returns how each fails, shaping messages with
// shape.
func (r *Runner) Check(ctx context.Context, names []string, timeout time.Duration, shape func(msg string) string) (map[string]failure.Signature, error) {
	run := "-test.run=^" + r.Target + "$/^(" + joinNames(names) + ")$"
	cmd := exec.CommandContext(ctx, r.Path, checkArgs(r.Args, run, timeout)...)
	cmd.Dir, cmd.Env = r.PkgDir, r.Env
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGKILL)
	cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
	cmd.WaitDelay = orphanGrace // a child it left may hold the output open
	out, err := cmd.CombinedOutput()
	killProcessGroup(cmd) // what the test left running
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	exit := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		exit = ee.ExitCode()
	} else if err != nil && !errors.Is(err, exec.ErrWaitDelay) { // that: it passed, and left a process
		return nil, fmt.Errorf("running the test binary: %w", err)
	}
	shapes := map[string]func(string) string{}
	for _, n := range names {
		shapes[n] = shape
	}
	return ParseCheck(CheckOutput{out, exit}, r.Target, names, r.Toolchain, shapes)
}

// ParseCheck reads the outcomes of the entries names of target from the
// output of a run of the test binary, shaping the message of each entry's
// failure with its function in shapes. A *BadCorpusError says that the
// toolchain ran none, refusing a file of the corpus.
func ParseCheck(co CheckOutput, target string, names []string, tc *Toolchain, shapes map[string]func(string) string) (map[string]failure.Signature, error) {
	index := map[string]int{}
	for i, n := range names {
		index[target+"/"+n] = i
	}
	p := newOutputParser(func(n string) (int, bool) { i, ok := index[n]; return i, ok }, tc)
	p.shape = func(i int, msg string) string { return shapes[names[i]](msg) }
	got := map[string]failure.Signature{}
	for _, l := range bytes.Split(co.Out, []byte("\n")) {
		if i, sig := p.line(bytes.TrimSuffix(l, []byte("\r"))); i >= 0 {
			got[names[i]] = sig
		}
	}
	if i, sig := p.end(co.Exit); i >= 0 {
		got[names[i]] = sig
	}
	if len(got) == 0 && p.stale != "" {
		return nil, &BadCorpusError{Msg: p.stale}
	}
	for _, n := range names {
		if _, ok := got[n]; !ok {
			return nil, fmt.Errorf("the test binary did not run %s/%s:\n%s", target, n, plain(co.Out))
		}
	}
	return got, nil
}

// A BadCorpusError says that go test refused to run a target because an
// entry in its corpus directory is malformed or stale. Msg is the
// toolchain's complaint, as in `"testdata/fuzz/FuzzX/a": mismatched types
// in corpus entry: [int], want [string]`.
type BadCorpusError struct{ Msg string }

func (e *BadCorpusError) Error() string { return e.Msg }

// joinNames joins entry names into an alternation of a -test.run pattern.
func joinNames(names []string) string {
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(regexp.QuoteMeta(n))
	}
	return b.String()
}
