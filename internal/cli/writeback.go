package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// writeBack writes the minimized entry, verifies it through go test, and
// only then removes the original: at every moment the directory holds the
// original or a verified replacement. Its error, if any, is also in the
// result; a *mismatchError says that go test saw another failure.
func (c *command) writeBack(ctx context.Context, j *entryJob, data []byte, res result) (result, error) {
	fail := func(err error) (result, error) {
		res.Status, res.Error, res.Path = statusFailed, err.Error(), ""
		return res, err
	}
	dir := j.tj.dir
	name := corpus.Name(data)
	_, statErr := os.Stat(filepath.Join(dir, name))
	existed := !errors.Is(statErr, fs.ErrNotExist)
	path, err := corpus.WriteFile(dir, data)
	if err != nil {
		return fail(fmt.Errorf("writing the minimized entry: %s; %s is unchanged", c.relErr(err), c.rel(j.entry.Path)))
	}
	j.progress.phase("verifying with go test")
	vals, err := encoding.Unmarshal(data)
	if err != nil {
		return fail(err)
	}
	got, err := c.verify(ctx, j, name, vals)
	if bad := (*badCorpusError)(nil); errors.As(err, &bad) {
		// go test runs no entry of the target while any is malformed or
		// stale; the same test binary, given the new entry alone, does.
		res.Note = join(res.Note, fmt.Sprintf("go test refuses %s while it holds an entry it cannot read (%s); the minimized entry was verified with the package's test binary instead",
			c.rel(dir), stripLogPos(bad.msg)))
		got, err = j.runner.replayOne(ctx, data, func(msg string) string { return j.shaper.Shape(msg, vals) })
	}
	if err == nil && got != j.want {
		err = &mismatchError{got: got, want: j.want, original: c.rel(j.entry.Path)}
		if j.isFound() {
			err.(*mismatchError).original = "nothing was written"
		}
	}
	if err != nil {
		if !existed {
			os.Remove(path)
		}
		if errors.Is(err, context.Canceled) {
			return fail(err)
		}
		if _, ok := err.(*mismatchError); !ok {
			err = fmt.Errorf("verifying with go test: %w", err)
		}
		return fail(err)
	}
	res.Status = statusMinimized
	switch by := c.written[path]; {
	case j.isFound():
		res.Status = statusFound
	case existed && path != j.entry.Path && by != "":
		res.Status = statusDuplicate
		res.Note = join(res.Note, fmt.Sprintf("%s and %s minimize to the same input: kept %s/%s", by, res.Test, j.target.Name, name))
	case existed && path != j.entry.Path:
		res.Status = statusDuplicate
		res.Note = join(res.Note, fmt.Sprintf("%s minimizes to %s/%s, which the corpus already holds: kept it", res.Test, j.target.Name, name))
	}
	if c.written[path] == "" {
		c.written[path] = res.Test
	}
	if !c.opts.keep && !j.isFound() && path != j.entry.Path {
		if err := corpus.Remove(j.entry.Path); err != nil {
			res.Error = fmt.Sprintf("removing the original: %v", err)
		} else {
			res.Removed = c.rel(j.entry.Path)
		}
	}
	return res, nil
}

// stripLogPos drops the position the testing package puts before a
// message it logs.
func stripLogPos(msg string) string {
	if m := logPosRE.FindStringSubmatchIndex("    " + msg); m != nil {
		return msg[m[1]-4:]
	}
	return msg
}

// A mismatchError says that go test does not reproduce the failure with
// the minimized entry: it reports another.
type mismatchError struct {
	got, want signature
	original  string // the original's path, which is unchanged
}

func (e *mismatchError) Error() string {
	return fmt.Sprintf("go test does not reproduce the failure with the minimized entry: it reports %v, want %v; %s is unchanged", e.got, e.want, e.original)
}

// A badCorpusError says that go test refused to run a target because an
// entry in its corpus directory is malformed or stale.
type badCorpusError struct{ msg string }

func (e *badCorpusError) Error() string { return e.msg }

// verify runs one entry of the user's seed corpus through go test itself
// and returns how it fails. go test's -timeout is the per-input limit when
// the failure to reproduce is a timeout (the binary starts in well under
// it), and generous otherwise.
func (c *command) verify(ctx context.Context, j *entryJob, name string, vals []any) (signature, error) {
	timeout := 2*c.opts.execTimeout + 30*time.Second
	if j.want.Kind == kindTimeout {
		timeout = c.opts.execTimeout
	}
	run := "-run=^" + j.target.Name + "$/^" + name + "$"
	if j.want.Kind == kindExit {
		// The exit status of the test binary shows only in go test's
		// plain output ("exit status 3"); test2json swallows it.
		args := append([]string{"test", "-count=1", run, "-timeout=" + timeout.String()}, c.tagsFlag()...)
		out, _ := c.goCommand(ctx, append(args, j.pkg.Args...)...).CombinedOutput()
		if ctx.Err() != nil {
			return signature{}, ctx.Err()
		}
		m := exitStatusRE.FindAllSubmatch(out, -1)
		if m != nil && !bytes.Contains(out, []byte("--- FAIL: ")) && !bytes.Contains(out, []byte("\npanic: ")) && !bytes.HasPrefix(out, []byte("panic: ")) {
			return signature{Kind: kindExit, Text: "exit status " + string(m[len(m)-1][1])}, nil
		}
		// Not an exit: learn what it is below.
	}
	args := append([]string{"test", "-count=1", "-v=test2json", run, "-timeout=" + timeout.String()}, c.tagsFlag()...)
	cmd := c.goCommand(ctx, append(args, j.pkg.Args...)...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return signature{}, ctx.Err()
	}
	want := j.target.Name + "/" + name
	parser := newOutputParser(func(n string) (int, bool) { return 0, n == want }, c.goroot)
	parser.shape = func(_ int, msg string) string { return j.shaper.Shape(msg, vals) }
	var got []signature
	for _, l := range bytes.Split(out, []byte("\n")) {
		if i, sig := parser.line(bytes.TrimSuffix(l, []byte("\r"))); i >= 0 {
			got = append(got, sig)
		}
	}
	if i, sig := parser.end(cmd.ProcessState.ExitCode()); i >= 0 {
		got = append(got, sig)
	}
	if len(got) != 1 {
		if parser.stale != "" {
			return signature{}, &badCorpusError{parser.stale}
		}
		return signature{}, fmt.Errorf("go test did not run %s:\n%s", want, out)
	}
	return got[0], nil
}

var exitStatusRE = regexp.MustCompile(`(?m)^exit status (\d+)\r?$`)

// staleReason rewrites the toolchain's complaint about the private copy of
// an entry, as in
//
//	x_test.go:9: "testdata/fuzz/FuzzB/c000000": mismatched types in corpus entry: [int], want [string]
//
// to name the user's file and the line that does not fit:
//
//	testdata/fuzz/FuzzB/e1:2: mismatched types in corpus entry: [int], want [string]
func (c *command) staleReason(msg string, j *entryJob) string {
	msg = stripLogPos(msg)
	private := strconv.Quote(filepath.Join("testdata", "fuzz", j.target.Name, inputName(0)))
	reason, ok := strings.CutPrefix(msg, private+": ")
	if !ok {
		return strings.ReplaceAll(msg, private, c.rel(j.entry.Path))
	}
	return fmt.Sprintf("%s:%d: %s", c.rel(j.entry.Path), staleLine(reason, j.entry.Values), reason)
}

// staleLine returns the line of a corpus file holding vals at which the
// toolchain's complaint about it starts to apply: the first value whose type
// differs from the target's, the first value too many, or the last value of
// a file that has too few.
func staleLine(reason string, vals []any) int {
	if _, want, ok := strings.Cut(reason, "], want ["); ok {
		types := strings.Fields(strings.TrimSuffix(want, "]"))
		for i, v := range vals {
			if i >= len(types) || reflect.TypeOf(v).String() != types[i] {
				return i + 2
			}
		}
	}
	var got, want int
	if _, err := fmt.Sscanf(reason, "wrong number of values in corpus entry: %d, want %d", &got, &want); err == nil && got > want {
		return want + 2
	}
	return len(vals) + 1
}
