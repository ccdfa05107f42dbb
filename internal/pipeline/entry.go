package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// An entryJob is one entry on its way through the pipeline: replayed,
// shrunk, written back.
type entryJob struct {
	pkg     *Package
	tj      *TargetJob
	target  *Target
	entry   corpus.Entry
	runner  *testbin.Runner   // the first of runners: replays and sessions run there
	runners []*testbin.Runner // the out-of-process search runs on all (-p)
	probe   *testbin.Runner   // the zero input runs there (see replay)
	// found is the failure of an entry made of another failure met while
	// shrinking (see others.go): it has no file yet.
	found failure.Signature
	// budget is the time the search may take: -timeout for an entry,
	// what the target's entries left of theirs for another failure.
	budget time.Duration
	dryRun bool // write nothing: -n, or check -minimal's search

	want    failure.Signature // how the original fails
	flaky   string            // if it does not fail so every time: how often it does
	zero    bool              // the zero input fails the same way
	passing []byte            // the zero input, if it passes
	// floor is the least time its inputs may run before they count as
	// hanging (testbin.Judge.Floor): -exec-timeout once the original was
	// seen to be slow, or to fail as out of memory.
	floor time.Duration
	// hang is, for an original that hangs, the limit it hung under: the
	// limit of its inputs from then on (see limit).
	hang      time.Duration
	start     time.Time
	runs      atomic.Int64 // candidates run so far, for the progress line
	progress  *progressLine
	lastValue string // the last accepted candidate, for -v
}

// shrinkOutcome is what a search made of an entry.
type shrinkOutcome struct {
	data     []byte // the smallest failing input, as a corpus file
	value    string // it, as a line of Go to paste into the fuzz test
	draws    string // for a target of generators, the values it draws: "label = value" lines
	accepted bool   // data is smaller than the original
	runs     int
	stop     string // why the search stopped
	others   []met  // distinct failures met
	// Which parts of data matter, if it was explained.
	explanation *explanation
}

// minimizeEntry takes one entry through the pipeline.
func (c *Run) minimizeEntry(ctx context.Context, j *entryJob) Result {
	res := newResult(j)
	if j.entry.Err != nil {
		res.Status, res.Error = statusMalformed, c.RelErr(j.entry.Err)
		return res
	}
	j.start = time.Now()
	c.Rep.start(res.Package, res.Test)
	if st, err := c.replay(ctx, j); err != nil || st != "" {
		res.Status, res.Signature = st, j.want
		if err != nil {
			res.Error = err.Error()
		}
		if st == statusFlaky && !j.isFound() {
			// It fails, at times: what it holds, and how to run it.
			res.Value, res.Rerun = gosyntax.Call("f.Add", j.entry.Values, ""), rerun(j, j.entry.Name)
		}
		return res
	}
	res.Signature = j.want
	j.tj.seen[j.want] = true
	if j.flaky != "" {
		res.Note = "flaky: the original " + j.flaky + "; the result failed so when checked, and may not every time"
	}
	if j.tj.tracked.has(j.entry.Name) && !j.tj.search.Tracked && !j.isFound() {
		res.Status, res.Rerun, res.maybeTracked = StatusRegression, rerun(j, j.entry.Name), j.tj.tracked.all
		return res
	}
	if j.zero {
		res.Note = join(res.Note, "fails on the zero input too: the failure may not depend on this entry")
	}
	j.progress = c.Rep.progress(res.Test, len(j.entry.Data), &j.runs)
	defer j.progress.done()

	if j.zero && !j.target.Wrapped {
		// The zero input is the smallest of all inputs, and it fails the
		// same way: it is the result, with no search.
		zres := res
		zres.Note = "fails on the zero input too, which is the result: the failure may not depend on this entry"
		final, err := c.finish(ctx, j, zeroOutcome(j.entry.Values), zres)
		var mm *mismatchError
		if !errors.As(err, &mm) || ctx.Err() != nil {
			return final
		}
		res.Note = join(res.Note, fmt.Sprintf("under go test the zero input fails with %v; the entry was shrunk instead", mm.got))
	}
	// The race detector's reports reach only the command: with -race, a
	// wrapped target's values shrink as encoded bytes, from outside.
	if j.target.Wrapped && !c.Race {
		final, done := c.minimizeInProcess(ctx, j, res)
		if done {
			return final
		}
		res = final
	}
	return c.minimizeOutOfProcess(ctx, j, res)
}

// minimizeInProcess minimizes the entry of a wrapped target in its test
// binary (shrinkInProcess), and finishes its result, which it returns with
// done true; or, if the session gave no usable result, it returns res
// with a note of why, for the search from outside.
func (c *Run) minimizeInProcess(ctx context.Context, j *entryJob, res Result) (Result, bool) {
	out, err := c.shrinkInProcess(ctx, j)
	if err == nil {
		var final Result
		final, err = c.finish(ctx, j, out, res)
		var mm *mismatchError
		if !errors.As(err, &mm) {
			return final, true
		}
		// The session reads a failure from the test's log, which on Go
		// 1.26 cannot tell a t.Log after the error from it: where it kept
		// a candidate that go test tells apart, go test is right.
		err = fmt.Errorf("under go test its result fails with %v", mm.got)
	}
	if ctx.Err() != nil {
		return res, true
	}
	// Shrink the encoded arguments from outside instead, as for any
	// target.
	res.Note = join(res.Note, fmt.Sprintf("the in-process search gave no usable result (%v); the arguments were shrunk as encoded bytes instead", err))
	return res, false
}

// minimizeOutOfProcess minimizes the entry with candidates run through the
// test binary, in its fuzz worker if the worker agrees, and finishes its
// result; a result the worker found that go test does not reproduce is
// searched again in processes.
func (c *Run) minimizeOutOfProcess(ctx context.Context, j *entryJob, res Result) Result {
	inWorker, why := c.workerAgrees(ctx, j)
	if inWorker {
		how := "one per call"
		if j.runner.InBatches() {
			how = "many per call"
		}
		c.Rep.Verbosef("  candidates run in a fuzz worker, %s", how)
	} else {
		c.Rep.Verbosef("  candidates run in processes: %s", why)
	}
	for {
		out, err := c.shrinkOutOfProcess(ctx, j, inWorker)
		if err != nil {
			res.Status, res.Error = statusFailed, err.Error()
			res.Runs, res.Stop, res.Others = out.runs, out.stop, out.others
			return res
		}
		final, err := c.finish(ctx, j, out, res)
		var mm *mismatchError
		if !inWorker || !errors.As(err, &mm) || ctx.Err() != nil {
			return final
		}
		// The worker judged a candidate otherwise than a process does.
		res.Note = join(res.Note, fmt.Sprintf("the search in a fuzz worker gave a result that fails under go test with %v; it was searched again with candidates run in processes", mm.got))
		inWorker = false
		c.Rep.Verbosef("  candidates run in processes: the fuzz worker's result did not reproduce")
	}
}

// workerAgrees reports whether the candidates of the entry can run in fuzz
// workers (see testbin.Runner.WorkerAgrees): its failure is one that a
// worker survives, the toolchain's worker protocol is the one fuzzmin
// speaks, and the worker judges the original, and a passing input if
// there is one, exactly as processes of their own did. When the toolchain
// rules the worker out, it says so, once.
func (c *Run) workerAgrees(ctx context.Context, j *entryJob) (bool, string) {
	switch {
	case !c.Worker:
		return false, "-worker=false"
	case c.Race:
		return false, "-race: the race detector's reports of a fuzz worker do not reach fuzzmin"
	case j.want.Crash():
		return false, "the entry's failure ends a fuzz worker"
	}
	if ok, why := j.runner.Toolchain.Worker(); !ok {
		c.note("fuzzmin: " + why + "; candidates run in processes")
		return false, why
	}
	return j.runner.WorkerAgrees(ctx, j.entry.Data, j.want, j.judge(), j.passing)
}

func (j *entryJob) isFound() bool { return j.found.Failed() }

// onDisk reports whether the entry is a file of the seed corpus: a
// campaign's new input is held outside it until it is minimized
// (TargetJob.Pending).
func (j *entryJob) onDisk() bool { return !j.tj.Pending[j.entry.Name] }

// judge judges runs of the entry itself (judgeOf).
func (j *entryJob) judge() testbin.Judge { return j.judgeOf(j.entry.Values) }

// judgeOf judges runs of an input of j's, of values vals: as the target's
// inputs are judged, with j's floor, and a hang's limit.
func (j *entryJob) judgeOf(vals []any) testbin.Judge {
	jd := j.tj.judgeOf(vals)
	jd.Floor = j.floor
	if j.hang > 0 {
		jd.Limit = j.limit()
	}
	return jd
}

// limit is the time an input of j's may run before it counts as hanging:
// the runner's, which follows from the inputs that passed, but for a hang
// no more than the limit the original hung under. A hang's search meets
// candidates that are slow and pass (a matcher whose time doubles with
// each character): the limit they give grows, up to -exec-timeout, and
// the failure the search looks for moves with it, so that its results
// stopped hanging as they were confirmed, and a hanging candidate cost
// ten seconds.
func (j *entryJob) limit() time.Duration {
	if l := j.runner.Limit(j.floor); j.hang == 0 || l < j.hang {
		return l
	}
	return j.hang
}

// shortLimit is the limit of a hang's search with the short limit (see
// testbin.Runner.ShortLimit), no more than limit.
func (j *entryJob) shortLimit() time.Duration {
	return min(j.runner.ShortLimit(j.floor), j.limit())
}

// judgeOf judges runs of one input, of values vals: its failures take the
// identity the target's shaper gives them, with vals as the input.
func (tj *TargetJob) judgeOf(vals []any) testbin.Judge {
	return testbin.Judge{Shape: func(_ int, sig failure.Signature, msg string) string {
		return tj.shaper.Shape(sig, msg, vals)
	}}
}

// join joins notes.
func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// finish reports what a search made of an entry and, unless it found
// nothing smaller or -n says not to, writes the result back. Its error, if
// any, is also in the result: what went wrong with the entry.
func (c *Run) finish(ctx context.Context, j *entryJob, out shrinkOutcome, res Result) (Result, error) {
	res.Runs, res.Stop, res.Others = out.runs, out.stop, out.others
	interrupted := ctx.Err() != nil
	if interrupted {
		// The smallest value found so far is verified and written as any
		// result is, unless a second interrupt abandons it.
		if !out.accepted || c.finishContext().Err() != nil {
			return res, ctx.Err()
		}
		res.Note = join(res.Note, "interrupted: the smallest value found before the interrupt")
	}
	res.After = len(out.data)
	res.Value, res.Draws, res.Explanation = out.value, out.draws, out.explanation
	res.Elapsed = Seconds(time.Since(j.start))
	if !j.isFound() {
		res.Rerun = rerun(j, j.entry.Name)
	}
	var same status // of an input that is its own result
	if !j.isFound() && (!out.accepted || bytes.Equal(out.data, j.entry.Data)) {
		res.After = res.Before // the file stays as it is
		same = StatusMinimal
		if out.stop != shrink.StopDone.String() {
			same = StatusStopped
		}
		if j.onDisk() {
			res.Status = same
			return res, nil
		}
		// A campaign's input, not in the corpus: it is its own result,
		// written and checked by go test as any result is.
		out.data = j.entry.Data
		if res.Value == "" { // no search ran to its end
			res.Value = gosyntax.Call("f.Add", j.entry.Values, "")
		}
	}
	if res.After > res.Before && !j.isFound() {
		res.Note = join(res.Note, grown(j.entry.Data, out.data))
	}
	name := corpus.Name(out.data)
	res.Path = c.Rel(filepath.Join(j.tj.dir, name))
	if j.isFound() {
		res.Test = j.target.Name + "/" + name
	}
	switch {
	case j.dryRun:
		res.Status, res.Rerun = statusWould, "" // nothing written to re-run
		return res, nil
	case j.tj.writeErr != nil:
		res.Status, res.Error, res.Path = statusFailed, j.tj.writeErr.Error()+": nothing was written"+c.unchanged(j), ""
		return res, j.tj.writeErr
	}
	res.Rerun = rerun(j, name)
	// A first interrupt stops searches, not the check and the write of a
	// result once begun.
	res, err := c.writeBack(c.finishContext(), j, out.data, res)
	var mismatch *mismatchError
	if errors.As(err, &mismatch) && !j.isFound() && !j.onDisk() && !bytes.Equal(out.data, j.entry.Data) {
		// A campaign's input whose result go test does not see fail so
		// (a hang that is only slow under go test's limit): the input
		// itself is written and checked, as found.
		res.Note = join(res.Note, fmt.Sprintf("go test saw %v, not %v, with the minimized input: the input was written as found", mismatch.got, j.want))
		name := corpus.Name(j.entry.Data)
		res.Error, res.After, res.Path, res.Rerun = "", res.Before, c.Rel(filepath.Join(j.tj.dir, name)), rerun(j, name)
		res.Value, res.Draws, res.Explanation = gosyntax.Call("f.Add", j.entry.Values, ""), "", nil // the result's
		res, err = c.writeBack(c.finishContext(), j, j.entry.Data, res)
		same = StatusStopped
	}
	if err == nil && same != "" {
		res.Status = same
	}
	// What is on disk, for an interrupt before or during the write.
	if ctx.Err() != nil && err == nil && res.Path != "" {
		what := "the smallest value found before the interrupt, verified by go test"
		if !interrupted {
			what = "its result, verified by go test"
		}
		if j.isFound() {
			res.saved = fmt.Sprintf("the other failure being minimized was written as %s: %s", what, res.Path)
		} else {
			res.saved = fmt.Sprintf("%s was replaced by %s: %s", c.Rel(j.entry.Path), what, res.Path)
		}
	}
	return res, err
}

// unchanged says that the original is as it was, for the error of a result
// that could not be written; an entry made of another failure met while
// shrinking has no original.
func (c *Run) unchanged(j *entryJob) string {
	if j.isFound() {
		return ""
	}
	return "; " + c.Rel(j.entry.Path) + " is unchanged"
}

// grown explains why a minimized file is longer than the original: the
// simpler values some arguments got are spelled longer, as bool(false) is
// longer than bool(true).
func grown(before, after []byte) string {
	var why []string
	b := strings.Split(string(before), "\n")
	a := strings.Split(string(after), "\n")
	for i := 1; i < min(len(a), len(b)); i++ {
		if len(a[i]) > len(b[i]) {
			why = append(why, fmt.Sprintf("%s is longer than %s", a[i], b[i]))
		}
	}
	if len(why) == 0 {
		return "the file grew, though its values are simpler"
	}
	return "the file grew, though its values are simpler: " + strings.Join(why, ", ")
}
