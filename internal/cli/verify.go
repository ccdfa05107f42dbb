package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"syscall"
	"time"
)

// check runs the entries names of target, files of the package's seed
// corpus, with the test binary in the package's directory, as go test runs
// it, and returns how each fails, shaping messages with shape.
func (r *runner) check(ctx context.Context, target string, names []string, timeout time.Duration, shape func(msg string) string) (map[string]signature, error) {
	run := "-test.run=^" + target + "$/^(" + joinNames(names) + ")$"
	cmd := exec.CommandContext(ctx, r.path, checkArgs(r.args, run, timeout)...)
	cmd.Dir, cmd.Env = r.pkgDir, r.env
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGKILL)
	cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	exit := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		exit = ee.ExitCode()
	} else if err != nil {
		return nil, fmt.Errorf("running the test binary: %w", err)
	}
	shapes := map[string]func(string) string{}
	for _, n := range names {
		shapes[n] = shape
	}
	return parseCheck(checkOutput{out, exit}, target, names, r.goroot, shapes)
}

// parseCheck reads the outcomes of the entries names of target from the
// output of a run of the test binary.
func parseCheck(co checkOutput, target string, names []string, goroot string, shapes map[string]func(string) string) (map[string]signature, error) {
	index := map[string]int{}
	for i, n := range names {
		index[target+"/"+n] = i
	}
	p := newOutputParser(func(n string) (int, bool) { i, ok := index[n]; return i, ok }, goroot)
	p.shape = func(i int, msg string) string { return shapes[names[i]](msg) }
	got := map[string]signature{}
	for _, l := range bytes.Split(co.out, []byte("\n")) {
		if i, sig := p.line(bytes.TrimSuffix(l, []byte("\r"))); i >= 0 {
			got[names[i]] = sig
		}
	}
	if i, sig := p.end(co.exit); i >= 0 {
		got[names[i]] = sig
	}
	if len(got) == 0 && p.stale != "" {
		return nil, &badCorpusError{p.stale}
	}
	for _, n := range names {
		if _, ok := got[n]; !ok {
			return nil, fmt.Errorf("the test binary did not run %s/%s:\n%s", target, n, co.out)
		}
	}
	return got, nil
}

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
