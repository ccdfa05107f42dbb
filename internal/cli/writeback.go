package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// writeBack writes the minimized entry and checks it with the package's
// test binary, run in the package's directory as go test runs it. The
// original stays until go test itself has checked the new entry, when the
// package is done (finalCheck): at every moment the directory holds the
// original or a verified replacement. Its error, if any, is also in the
// result; a *mismatchError says that the check saw another failure.
func (c *command) writeBack(ctx context.Context, j *entryJob, data []byte, res result) (result, error) {
	fail := func(err error) (result, error) {
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
	path, err := writeEntry(j.tj.root, dir, data)
	if err != nil {
		return fail(fmt.Errorf("writing the minimized entry: %s; %s is unchanged", c.relErr(err), c.rel(j.entry.Path)))
	}
	vals, err := encoding.Unmarshal(data)
	if err != nil {
		return fail(err)
	}
	shape := func(msg string) string { return j.shaper.Shape(msg, vals) }
	j.progress.phase("checking the result")
	got, err := j.runner.Check(ctx, []string{name}, c.checkTimeout(j.want), shape)
	alone := false
	if bad := (*testbin.BadCorpusError)(nil); errors.As(err, &bad) {
		alone = true
		// The test runs no entry of the target while any is malformed or
		// stale; the same test binary, given the new entry alone, does.
		res.Note = join(res.Note, fmt.Sprintf("go test refuses %s while it holds an entry it cannot read (%s); the minimized entry was checked with the package's test binary alone",
			c.rel(dir), bad.Msg))
		var sig signature
		sig, err = j.runner.ReplayOne(ctx, data, shape)
		got = map[string]signature{name: sig}
	}
	if err == nil && got[name] != j.want {
		err = &mismatchError{got: got[name], want: j.want, original: c.rel(j.entry.Path)}
		if j.isFound() {
			err.(*mismatchError).original = "nothing was written"
		}
	}
	if err != nil {
		if !existed {
			removeEntry(j.tj.root, path)
		}
		if errors.Is(err, context.Canceled) {
			return fail(err)
		}
		if _, ok := err.(*mismatchError); !ok {
			err = fmt.Errorf("checking the minimized entry: %w", err)
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
	res.pending = &pendingWrite{root: j.tj.root, path: path, created: !existed, target: j.target.Name, name: name, want: j.want, shape: shape, checked: alone}
	if !j.isFound() {
		res.pending.rerunOriginal = rerun(j, j.entry.Name)
	}
	if !c.opts.keep && !j.isFound() && path != j.entry.Path {
		res.pending.original = j.entry.Path
	}
	return res, nil
}

// A pendingWrite is a file written for an entry, which go test checks when
// the package is done; then the original goes.
type pendingWrite struct {
	root     string // what the files are inside
	path     string
	created  bool   // by this run: removed if the check fails
	original string // to remove once the check passes, if any
	target   string
	name     string
	want     signature
	shape    func(msg string) string
	checked  bool // go test cannot check it: the test binary did, alone
	// rerunOriginal runs the original, if there is one: the re-run line
	// of the result if the check fails.
	rerunOriginal string
}

// checkTimeout is the time a check of an entry that fails with want may
// run: the per-input limit when the failure is a hang, generous otherwise.
func (c *command) checkTimeout(want signature) time.Duration {
	if want.Kind == kindTimeout {
		return c.opts.execTimeout
	}
	return 2*c.opts.execTimeout + 30*time.Second
}

// finalCheck has go test check every file written for the package's
// entries, then removes the originals of those it reproduces, and the files
// written for those it does not (whose results it marks failed).
func (c *command) finalCheck(ctx context.Context, b *built, results []result) {
	var checks []testbin.Check
	var owners [][]*pendingWrite // of each check's names
	index := map[string]int{}    // target/name → check
	for i := range results {
		pw := results[i].pending
		if pw == nil || pw.checked {
			continue
		}
		key := pw.target + "/" + pw.name
		if k, ok := index[key]; ok {
			owners[k] = append(owners[k], pw)
			continue
		}
		k := -1
		if pw.want.Kind == kindFail { // the process goes on: join the target's check of such entries
			for ci, ch := range checks {
				if ch.Target == pw.target && owners[ci][0].want.Kind == kindFail {
					k = ci
				}
			}
		}
		if k < 0 {
			k = len(checks)
			checks = append(checks, testbin.Check{Target: pw.target, Timeout: c.checkTimeout(pw.want)})
			owners = append(owners, nil)
		}
		checks[k].Names = append(checks[k].Names, pw.name)
		owners[k] = append(owners[k], pw)
		index[key] = k
	}
	if !c.opts.dryRun {
		c.rep.phase("checking with go test")
	}
	outs, err := b.s.Finish(ctx, checks)
	c.rep.phase("")
	got := map[*pendingWrite]signature{}
	var checkErr error = err
	for k, ch := range checks {
		if err != nil {
			break
		}
		shapes := map[string]func(string) string{}
		for _, pw := range owners[k] {
			shapes[pw.name] = pw.shape
		}
		sigs, err := testbin.ParseCheck(outs[k], ch.Target, ch.Names, b.bin.Toolchain, shapes)
		if bad := (*testbin.BadCorpusError)(nil); errors.As(err, &bad) {
			for _, pw := range owners[k] {
				pw.checked = true // the test binary checked it alone
			}
			continue
		}
		if err != nil {
			checkErr = err
			break
		}
		for _, pw := range owners[k] {
			got[pw] = sigs[pw.name]
		}
	}
	for i := range results {
		res := &results[i]
		pw := res.pending
		if pw == nil {
			continue
		}
		switch sig, ok := got[pw]; {
		case pw.checked || ok && sig == pw.want:
			if pw.original != "" {
				if err := removeEntry(pw.root, pw.original); err != nil {
					res.Error = fmt.Sprintf("the minimized entry is written and verified, but removing the original failed: %v; both files exist: remove %s by hand", c.relErr(err), c.rel(pw.original))
				} else {
					res.Removed = c.rel(pw.original)
				}
			}
		default:
			if pw.created {
				removeEntry(pw.root, pw.path)
			}
			res.Status, res.Path, res.Rerun = statusFailed, "", pw.rerunOriginal
			switch {
			case ok && pw.original == "":
				res.Error = (&mismatchError{got: sig, want: pw.want, original: "nothing was written"}).Error()
			case ok:
				res.Error = (&mismatchError{got: sig, want: pw.want, original: c.rel(pw.original)}).Error()
			case checkErr != nil:
				res.Error = fmt.Sprintf("checking with go test: %v", checkErr)
			default:
				res.Error = "go test did not run the minimized entry"
			}
		}
	}
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

// staleReason rewrites the toolchain's complaint about the private copy of
// an entry to name the user's file and the line that does not fit (see
// testbin.Stale).
func (c *command) staleReason(msg string, j *entryJob) string {
	line, reason, ok := testbin.Stale(msg, j.entry.Values)
	if !ok {
		return msg
	}
	return fmt.Sprintf("%s:%d: %s", c.rel(j.entry.Path), line, reason)
}
