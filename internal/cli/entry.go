package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/corpus"
)

// replays is how many times the original is run before shrinking: a
// failure that does not repeat the same way is flaky.
const replays = 2

// An entryJob is one entry on its way through the pipeline: replayed,
// shrunk, written back.
type entryJob struct {
	pkg    *pkg
	target *target
	entry  corpus.Entry
	runner *runner

	want     signature // how the original fails
	start    time.Time
	runs     atomic.Int64 // candidates run so far, for the progress line
	progress *progressLine
}

// shrinkOutcome is what a search made of an entry.
type shrinkOutcome struct {
	data     []byte // the smallest failing input, as a corpus file
	value    string // it, as a line of Go to paste into the fuzz test
	accepted bool   // data is smaller than the original
	runs     int
	stop     string   // why the search stopped
	others   []string // distinct failures met
}

// minimizeEntry takes one entry through the pipeline.
func (c *command) minimizeEntry(ctx context.Context, j *entryJob) result {
	res := newResult(j)
	if j.entry.Err != nil {
		res.Status, res.Error = statusMalformed, c.relErr(j.entry.Err)
		return res
	}
	j.start = time.Now()
	c.rep.start(res.Package, res.Test)
	if st, err := c.replay(ctx, j); err != nil || st != "" {
		res.Status, res.Signature = st, j.want
		if err != nil {
			res.Error = err.Error()
		}
		return res
	}
	res.Signature = j.want
	j.progress = c.rep.progress(res.Test, len(j.entry.Data), &j.runs)
	defer j.progress.done()

	if j.target.Wrapped {
		out, err := c.shrinkInProcess(ctx, j)
		if err == nil {
			var final result
			final, err = c.finish(ctx, j, out, res)
			var mm *mismatchError
			if !errors.As(err, &mm) {
				return final
			}
			// In the process, a t.Error is known by its kind alone (the
			// testing package keeps its position to itself), so the
			// session may have kept a candidate that fails at another
			// t.Error, which go test then told apart.
			err = fmt.Errorf("under go test its result fails with %v", mm.got)
		}
		if ctx.Err() != nil {
			return res
		}
		// Shrink the encoded arguments from outside instead, as for any
		// target.
		res.Note = fmt.Sprintf("the in-process search gave no usable result (%v); the arguments were shrunk as encoded bytes instead", err)
	}
	out, err := c.shrinkOutOfProcess(ctx, j)
	if err != nil {
		res.Status, res.Error = statusFailed, err.Error()
		res.Runs, res.Stop, res.Others = out.runs, out.stop, out.others
		return res
	}
	res, _ = c.finish(ctx, j, out, res)
	return res
}

// replay runs the original in fresh processes to learn how it fails
// (j.want). It returns the entry's status if that ends the job: it passes,
// is stale, or is flaky.
func (c *command) replay(ctx context.Context, j *entryJob) (status, error) {
	var sigs []signature
	for range replays {
		out, err := j.runner.run(ctx, [][]byte{j.entry.Data}, func(signature) bool { return false })
		switch {
		case err != nil:
			return statusFailed, err
		case out.stale != "":
			return statusStale, errors.New(c.staleReason(out.stale, j.target.Name, j.entry.Path))
		case len(out.outcomes) == 0:
			return statusFailed, fmt.Errorf("the test binary ran no input for %s; it said:\n%s", j.target.Name, out.tail)
		}
		if out.wrapped {
			j.target.Wrapped = true
		}
		sigs = append(sigs, out.outcomes[0])
	}
	j.want = sigs[0]
	if !j.want.Failed() {
		return statusPasses, nil
	}
	for _, sig := range sigs[1:] {
		if sig != j.want && !c.opts.flaky {
			return statusFlaky, fmt.Errorf("first run: %v; then: %v (use -flaky to minimize against the first)", j.want, sig)
		}
	}
	return "", nil
}

// finish reports what a search made of an entry and, unless it found
// nothing smaller or -n says not to, writes the result back. Its error, if
// any, is also in the result: what went wrong with the entry.
func (c *command) finish(ctx context.Context, j *entryJob, out shrinkOutcome, res result) (result, error) {
	res.Runs, res.Stop, res.Others = out.runs, out.stop, out.others
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	res.After = len(out.data)
	res.Value = out.value
	res.Elapsed = seconds(time.Since(j.start))
	res.Rerun = fmt.Sprintf("go test -run=%s/%s %s", j.target.Name, j.entry.Name, j.pkg.ImportPath)
	if !out.accepted || bytes.Equal(out.data, j.entry.Data) {
		res.Status = statusMinimal
		if out.stop != fuzzshrink.StopDone.String() {
			res.Status = statusStopped
		}
		return res, nil
	}
	name := corpus.Name(out.data)
	res.Path = c.rel(corpus.SeedCorpus(j.pkg.Dir, j.target.Name) + "/" + name)
	res.Rerun = fmt.Sprintf("go test -run=%s/%s %s", j.target.Name, name, j.pkg.ImportPath)
	if c.opts.dryRun {
		res.Status = statusWould
		return res, nil
	}
	return c.writeBack(ctx, j, out.data, res)
}
