package cli

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync/atomic"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// shrinkOutOfProcess runs the search here, with candidates run in batches
// by the test binary.
func (c *command) shrinkOutOfProcess(ctx context.Context, j *entryJob) (shrinkOutcome, error) {
	o := &oracle{r: j.runner, want: j.want, shaper: j.shaper, runs: &j.runs, met: map[string]bool{}, pool: &j.tj.others}
	opts := []fuzzshrink.Option{
		fuzzshrink.Timeout(c.opts.timeout),
		fuzzshrink.BatchSize(batchSize(len(j.entry.Data))),
		fuzzshrink.Observe(func(ev fuzzshrink.Event) {
			if ev.Kind == fuzzshrink.Accepted {
				if b, err := encoding.Marshal(ev.Args...); err == nil {
					j.progress.size(len(b))
				}
			}
			c.rep.trace(j, ev)
		}),
	}
	if c.opts.maxRuns > 0 {
		opts = append(opts, fuzzshrink.MaxRuns(c.opts.maxRuns))
	}
	shrunk, err := fuzzshrink.Shrink(ctx, j.entry.Values, o, opts...)
	out := shrinkOutcome{runs: shrunk.Stats.Runs, stop: shrunk.Stats.Stop.String(), accepted: shrunk.Stats.Accepted > 0, others: sortedKeys(o.met)}
	if err != nil {
		return out, err
	}
	out.value = gosyntax.Call("f.Add", shrunk.Args, "")
	out.data, err = encoding.Marshal(shrunk.Args...)
	return out, err
}

// batchSize is how many candidates go to one test process: many, to spread
// the cost of starting it, but few enough for large inputs that the
// candidates in flight stay within a few MiB.
func batchSize(size int) int {
	return max(1, min(64, (4<<20)/max(1, size)))
}

// An oracle judges candidates by running them through the test binary.
type oracle struct {
	r      *runner
	want   signature
	shaper failure.Shaper
	runs   *atomic.Int64   // for the progress line
	met    map[string]bool // distinct failures met, for the report
	pool   *pool           // and the smallest candidate of each
}

func (o *oracle) Run(ctx context.Context, batch [][]any) ([]fuzzshrink.Verdict, error) {
	files := make([][]byte, len(batch))
	for i, args := range batch {
		b, err := encoding.Marshal(args...)
		if err != nil {
			return nil, err
		}
		files[i] = b
	}
	var verdicts []fuzzshrink.Verdict
	for len(files) > 0 {
		vals := batch[len(verdicts):]
		shape := func(i int, msg string) string { return o.shaper.Shape(msg, vals[i]) }
		res, err := o.r.run(ctx, files, shape, func(s signature) bool { return s == o.want })
		if err != nil {
			return verdicts, err
		}
		if len(res.outcomes) == 0 {
			return verdicts, fmt.Errorf("the test binary ran no candidate: %s", res.stale)
		}
		o.runs.Add(int64(len(res.outcomes)))
		for _, sig := range res.outcomes {
			v := failure.Classify(sig, o.want)
			if v == failure.Other {
				o.met[sig.String()] = true
				o.pool.add(sig, batch[len(verdicts)])
			}
			verdicts = append(verdicts, fuzzshrink.Verdict(v))
			if v == failure.Same {
				return verdicts, nil
			}
		}
		files = files[len(res.outcomes):]
	}
	return verdicts, nil
}

// sortedKeys returns the members of a set, sorted.
func sortedKeys(set map[string]bool) []string {
	return slices.Sorted(maps.Keys(set))
}
