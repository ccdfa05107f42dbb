package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// writeBack writes the minimized entry, has go test check it (a run of
// the package's test binary by the go test run that built it, in the
// package's directory), and only then removes the original: at every
// moment the directory holds the original or a verified replacement, and
// the result is final when writeBack returns. The caller holds the lock of
// the corpus directory throughout. Its error, if any, is also in the
// result; a *mismatchError says that the check saw another failure.
func (c *Run) writeBack(ctx context.Context, j *entryJob, data []byte, res Result) (Result, error) {
	fail := func(err error) (Result, error) {
		res.Status, res.Error, res.Path, res.Rerun = statusFailed, err.Error(), "", ""
		if !j.isFound() {
			res.Rerun = rerun(j, j.entry.Name) // the original, which is still there
		}
		return res, err
	}
	dir := j.tj.dir
	name := corpus.Name(data)
	_, statErr := os.Stat(filepath.Join(dir, name))
	existed := !errors.Is(statErr, fs.ErrNotExist)
	path, err := WriteEntry(j.tj.root, dir, data)
	if err != nil {
		return fail(fmt.Errorf("writing the minimized entry: %s; %s is unchanged", c.RelErr(err), c.Rel(j.entry.Path)))
	}
	j.progress.phase("checking with go test")
	got, note, err := c.checkWritten(ctx, j, name, data)
	if err == nil && j.want.Kind == failure.Race && !got.Failed() {
		// The race detector misses a race now and then (see judgeFlaky):
		// a second check tells a miss from an input that does not race.
		got, note, err = c.checkWritten(ctx, j, name, data)
	}
	res.Note = join(res.Note, note)
	if err == nil && got != j.want {
		original := c.Rel(j.entry.Path)
		if j.isFound() {
			original = "nothing was written"
		}
		err = &mismatchError{got: got, want: j.want, original: original}
	}
	if err != nil {
		if !existed {
			removeEntry(j.tj.root, path)
		}
		if _, ok := err.(*mismatchError); !ok && !errors.Is(err, context.Canceled) {
			err = fmt.Errorf("checking the minimized entry: %w", err)
		}
		return fail(err)
	}
	res.Status = statusMinimized
	switch by := c.Written[path]; {
	case j.isFound():
		res.Status = statusFound
	case existed && path != j.entry.Path && by != "":
		res.Status = statusDuplicate
		res.Note = join(res.Note, fmt.Sprintf("%s and %s minimize to the same input: kept %s/%s", by, res.Test, j.target.Name, name))
	case existed && path != j.entry.Path:
		res.Status = statusDuplicate
		res.Note = join(res.Note, fmt.Sprintf("%s minimizes to %s/%s, which the corpus already holds: kept it", res.Test, j.target.Name, name))
	}
	if c.Written[path] == "" {
		c.Written[path] = res.Test
	}
	if j.tj.write.Keep || j.isFound() || path == j.entry.Path || !j.onDisk() {
		return res, nil
	}
	if err := removeEntry(j.tj.root, j.entry.Path); err != nil {
		res.Error = fmt.Sprintf("the minimized entry is written and verified, but removing the original failed: %v; both files exist: remove %s by hand", c.RelErr(err), c.Rel(j.entry.Path))
	} else {
		res.Removed = c.Rel(j.entry.Path)
	}
	return res, nil
}

// checkWritten has go test run the entry name of the job's target, just
// written with data, and returns how it fails. go test runs no entry of a
// target while another file of its corpus is malformed or stale; the same
// test binary, given the new entry alone, does, and the note says so.
func (c *Run) checkWritten(ctx context.Context, j *entryJob, name string, data []byte) (failure.Signature, string, error) {
	vals, err := encoding.Unmarshal(data)
	if err != nil {
		return failure.Signature{}, "", err
	}
	shape := func(sig failure.Signature, msg string) string { return j.tj.shaper.Shape(sig, msg, vals) }
	check := testbin.Check{Target: j.target.Name, Names: []string{name}, Timeout: c.checkTimeout(j), MemLimit: int64(c.MemLimit)}
	outs, err := j.tj.build.Check(ctx, []testbin.Check{check})
	if err != nil {
		return failure.Signature{}, "", err
	}
	got, err := testbin.ParseCheck(outs[0], check.Target, check.Names, j.runner.Toolchain, map[string]func(failure.Signature, string) string{name: shape})
	if bad := (*testbin.BadCorpusError)(nil); errors.As(err, &bad) {
		note := fmt.Sprintf("go test refuses %s while it holds an entry it cannot read (%s); the minimized entry was checked with the package's test binary alone",
			c.Rel(j.tj.dir), bad.Msg)
		sig, err := j.runner.ReplayOne(ctx, data, j.judgeOf(vals))
		return sig, note, err
	}
	if err != nil {
		return failure.Signature{}, "", err
	}
	return got[name], "", nil
}

// checkTimeout is the time a check of the entry may run: when its failure
// is a hang, the limit the original was judged by (the runner's, which
// follows from the passing inputs, up to -exec-timeout); generous
// otherwise.
func (c *Run) checkTimeout(j *entryJob) time.Duration {
	if j.want.Kind == failure.Timeout {
		return j.limit()
	}
	return 2*c.ExecTimeout + 30*time.Second
}

// A mismatchError says that go test does not reproduce the failure with
// the minimized entry: it reports another.
type mismatchError struct {
	got, want failure.Signature
	original  string // the original's path, which is unchanged
}

func (e *mismatchError) Error() string {
	return fmt.Sprintf("go test does not reproduce the failure with the minimized entry: it reports %v, want %v; %s is unchanged", e.got, e.want, e.original)
}

// staleReason rewrites the toolchain's complaint about the private copy of
// an entry to name the user's file and the line that does not fit (see
// testbin.Stale).
func (c *Run) staleReason(msg string, j *entryJob) string {
	line, reason, ok := testbin.Stale(msg, j.entry.Values)
	if !ok {
		return msg
	}
	return fmt.Sprintf("%s:%d: %s", c.Rel(j.entry.Path), line, reason)
}
