package pipeline

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// shrinkOutOfProcess runs the search here, with candidates run in batches
// by the test binary, on the target's runners at once, and explains its
// result.
func (c *Run) shrinkOutOfProcess(ctx context.Context, j *entryJob, inWorker bool) (shrinkOutcome, error) {
	if j.want.Kind != failure.Timeout {
		out, explain, err := c.search(ctx, j, inWorker, 0, c.budget(j))
		if explain != nil {
			out.explanation = explain()
		}
		return out, err
	}
	// A hang: search with the short limit, on every runner, then confirm
	// the result with the full one (j.limit). If it does not hang then (it
	// was only slow, and the short limit has grown with it), search again,
	// and after shortSearches searches whose results did not hang, with
	// the full limit. Only a confirmed result is explained, with the limit
	// its search had. The searches share the entry's budget: an input whose
	// time grows with its size (a backtracking matcher) gives results that
	// do not hang again and again, and each search its own budget took
	// four of them.
	end := time.Now().Add(c.budget(j))
	var runs int
	for k := 0; ; k++ {
		left := time.Until(end)
		if left <= 0 {
			// Nothing confirmed smaller in the time: the entry stays.
			return shrinkOutcome{runs: runs, stop: shrink.StopDeadline.String()}, nil
		}
		short, full := j.shortLimit(), j.limit()
		if k == shortSearches || short == full {
			out, explain, err := c.search(ctx, j, inWorker, full, left)
			if explain != nil {
				out.explanation = explain()
			}
			out.runs += runs
			return out, err
		}
		out, explain, err := c.search(ctx, j, inWorker, short, left)
		out.runs += runs
		if err != nil || !out.accepted || ctx.Err() != nil {
			return out, err // an interrupted search's result is checked as it is written
		}
		vals, err := encoding.Unmarshal(out.data)
		if err != nil {
			return out, err
		}
		sig, err := j.runner.ReplayOne(ctx, out.data, j.judgeOf(vals))
		if err != nil || sig == j.want {
			if err == nil && explain != nil {
				out.explanation = explain() // with the search's limit
			}
			return out, err
		}
		runs = out.runs + 1
		c.Rep.Verbosef("  the result of the search with a %v limit %s with the full %v limit: searched again",
			short.Round(time.Millisecond), describe(sig), full.Round(time.Millisecond))
	}
}

// shortSearches is how many searches of a hang run with the short limit
// before one runs with the full limit.
const shortSearches = 3

// search shrinks the entry with candidates run through the test binary,
// for budget at most. When the search finished, explain explains its
// result with candidates judged as the search's were; it is nil
// otherwise.
func (c *Run) search(ctx context.Context, j *entryJob, inWorker bool, limit, budget time.Duration) (out shrinkOutcome, explain func() *explanation, err error) {
	o := &oracle{runners: j.runners, inWorker: inWorker, limit: limit, floor: j.floor, parallelFrom: parallelFrom, want: j.want, shaper: &j.tj.shaper, runs: &j.runs, met: map[string]int{}, pool: &j.tj.others}
	opts := []shrink.Option{
		shrink.Timeout(budget),
		shrink.BatchSize(batchSize(len(j.entry.Data))),
		shrink.Observe(func(ev shrink.Event) {
			if ev.Kind == shrink.Accepted {
				if b, err := encoding.Marshal(ev.Args...); err == nil {
					j.progress.size(len(b))
				}
			}
			c.Rep.trace(j, ev)
		}),
	}
	if j.tj.search.MaxRuns > 0 {
		opts = append(opts, shrink.MaxRuns(j.tj.search.MaxRuns))
	}
	cuts := func() (n int) {
		for _, r := range j.runners {
			n += r.Cuts()
		}
		return n
	}
	cut := cuts()
	shrunk, err := shrink.Shrink(ctx, j.entry.Values, o, opts...)
	if n := cuts() - cut; n > 0 {
		c.Rep.Verbosef("  %d candidates cut short: they ran past the time slice of slow candidates (a quarter of the search)", n)
	}
	out = shrinkOutcome{runs: shrunk.Stats.Runs, stop: shrunk.Stats.Stop.String(), accepted: shrunk.Stats.Accepted > 0, others: metFailures(o.met)}
	if err != nil {
		return out, nil, err
	}
	out.value = gosyntax.Call("f.Add", shrunk.Args, "")
	out.data, err = encoding.Marshal(shrunk.Args...)
	// A flaky failure's alternatives may pass by chance: no evidence.
	if err == nil && shrunk.Stats.Stop == shrink.StopDone && j.flaky == "" {
		explain = func() *explanation { return c.explain(ctx, j, shrunk.Args, o, shrunk.Stats.Runs, budget) }
	}
	return out, explain, err
}

// explain explains the result args of a search that took runs, with
// candidates run as o runs them: with at most -explain runs, or runs if
// -explain is -1, for a quarter of its search's budget at most
// (explainTime) and not past the search's end (searchEnd). The other
// failures its candidates meet are not kept: explaining changes nothing.
func (c *Run) explain(ctx context.Context, j *entryJob, args []any, o *oracle, runs int, searchBudget time.Duration) *explanation {
	budget := shrink.ExplainBudget(j.tj.search.Explain, runs)
	if budget == 0 {
		return nil
	}
	j.progress.phase("explaining")
	quiet := *o
	quiet.met, quiet.pool = map[string]int{}, &shrink.Pool{}
	end := time.Now().Add(explainTime(searchBudget))
	if e := c.searchEnd(j); !e.IsZero() && e.Before(end) {
		end = e
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	ex, err := shrink.Explain(ctx, args, &quiet, budget, 1)
	if err != nil {
		c.Rep.Verbosef("  the explanation stopped: %v", err)
		return nil
	}
	return newExplanation(ex)
}

// budget is the time j's search may take: until its end (searchEnd), and
// a nanosecond at least, as a search's timeout of 0 is none.
func (c *Run) budget(j *entryJob) time.Duration {
	b := j.tj.search.Timeout
	if j.budget > 0 {
		b = j.budget
	}
	if end := c.searchEnd(j); !end.IsZero() {
		b = max(min(b, time.Until(end)), time.Nanosecond)
	}
	return b
}

// searchEnd is when j's searches and their explanation end at the latest:
// with a deadline, early enough that go test's check of the result ends
// by it too, about a second for the go command's look at the build and
// the run, and for a hang the time the check lets it run (checkTimeout).
// It is zero for none.
func (c *Run) searchEnd(j *entryJob) time.Time {
	d := j.tj.search.Deadline
	if d.IsZero() {
		return d
	}
	check := time.Second
	if j.want.Kind == failure.Timeout {
		check += c.checkTimeout(j)
	}
	return d.Add(-check)
}

// explainTime bounds the time of an explanation: a quarter of the search's
// budget, at least a second. Its runs are bounded too (-explain), but runs
// that each exhaust memory or time can take seconds apiece.
func explainTime(searchBudget time.Duration) time.Duration {
	return max(time.Second, searchBudget/4)
}

// parallelFrom is the time a passing input runs from which the oracle
// deals batches out to several runners (-p). On a 2-core machine, two
// runners judge the candidates of a target that takes 1 ms 1.3 to 1.5
// times as fast as one, and those of a target that takes microseconds more
// slowly, as the time goes to passing inputs between processes and to
// candidates past the first that fails (BenchmarkProcs).
const parallelFrom = 500 * time.Microsecond

// batchSize is how many candidates at most go to one test process: many,
// to spread the cost of starting it, but few enough for large inputs that
// the candidates in flight stay within a few MiB.
func batchSize(size int) int {
	return max(1, min(64, (4<<20)/max(1, size)))
}

// An oracle judges candidates by running them through the test binary.
//
// With more than one runner (-p), a batch is dealt out to the runners in
// turn (candidate i to runner i mod p), which run their share at once, each
// in its own process and in order: the candidates near the start of the
// batch, which decide what is accepted, run first everywhere. Once a
// candidate fails as the original does, a runner that has gone past it
// stops. The verdicts returned are those of the candidates up to the first
// such Fail, in the batch's order: exactly what one process running the
// batch would return, so the search does not depend on -p. (What runners
// judged beyond it is dropped, other failures too, for the same reason.)
type oracle struct {
	runners  []*testbin.Runner
	inWorker bool // run candidates in the runners' fuzz workers (testbin.Runner.RunInWorker)
	// limit is how long a candidate may run before it counts as hanging;
	// 0 is the runners' own limit (testbin.Judge).
	limit time.Duration
	floor time.Duration // the least limit (testbin.Judge.Floor)
	// A batch is dealt out to the runners only if it has several
	// candidates for each, and the passing inputs have run parallelFrom or
	// more each on average: below that, passing inputs between processes
	// costs more than running them at once saves, and so do the candidates
	// run past the first that fails.
	parallelFrom time.Duration
	want         failure.Signature
	shaper       *failure.Shaper
	runs         *atomic.Int64  // for the progress line
	met          map[string]int // distinct failures met, and how many candidates showed each, for the report
	pool         *shrink.Pool   // and the smallest candidate of each
}

func (o *oracle) Run(ctx context.Context, batch [][]any) ([]shrink.Verdict, error) {
	files := make([][]byte, len(batch))
	for i, args := range batch {
		b, err := encoding.Marshal(args...)
		if err != nil {
			return nil, err
		}
		files[i] = b
	}
	dl := &dealing{files: files, batch: batch, sigs: make([]failure.Signature, len(batch)), judged: make([]bool, len(batch)), w: 1}
	dl.first.Store(int64(len(batch)))
	if len(batch) >= 4*len(o.runners) && o.inputCost() >= o.parallelFrom {
		dl.w = len(o.runners)
	}
	errs := make([]error, dl.w)
	var wg sync.WaitGroup
	for k := range dl.w {
		wg.Go(func() {
			errs[k] = o.deal(ctx, o.runners[k], k, dl)
		})
	}
	wg.Wait()
	w, sigs, judged := dl.w, dl.sigs, dl.judged
	f := int(dl.first.Load())
	var verdicts []shrink.Verdict
	for g := range min(f+1, len(batch)) {
		if err := errs[g%w]; err != nil {
			return verdicts, err
		}
		if !judged[g] {
			return verdicts, fmt.Errorf("the test binary ran no candidate %d of %d", g, len(batch))
		}
		v := shrink.Classify(sigs[g], o.want)
		if v == shrink.OtherFail {
			o.met[sigs[g].String()]++
			o.pool.Add(sigs[g], batch[g])
		}
		verdicts = append(verdicts, v)
	}
	return verdicts, nil
}

// inputCost is the average time the passing inputs have run on the
// runners, or 0 before any has.
func (o *oracle) inputCost() time.Duration {
	var n int
	var spent time.Duration
	for _, r := range o.runners {
		p, s := r.Cost()
		n, spent = n+p, spent+s
	}
	if n == 0 {
		return 0
	}
	return spent / time.Duration(n)
}

// A dealing is a batch dealt out to w runners, and what they made of it.
type dealing struct {
	files  [][]byte // the candidates' corpus files
	batch  [][]any  // and values
	w      int      // runners
	sigs   []failure.Signature
	judged []bool
	first  atomic.Int64 // the first index that fails as the original does, or len(batch)
}

// deal runs candidates k, k+w, k+2w, … of the dealing's batch on runner
// r, in order, in as many processes as crashes take, until one fails as
// the original does or it has passed the first that did on any runner.
func (o *oracle) deal(ctx context.Context, r *testbin.Runner, k int, dl *dealing) error {
	files, batch, w, sigs, judged, first := dl.files, dl.batch, dl.w, dl.sigs, dl.judged, &dl.first
	var mine []int
	for g := k; g < len(files); g += w {
		mine = append(mine, g)
	}
	for len(mine) > 0 && int64(mine[0]) < first.Load() {
		in := make([][]byte, len(mine))
		for i, g := range mine {
			in[i] = files[g]
		}
		shape := func(i int, sig failure.Signature, msg string) string { return o.shaper.Shape(sig, msg, batch[mine[i]]) }
		stop := func(i int, sig failure.Signature) bool {
			g := mine[i]
			if sig == o.want {
				lower(first, int64(g))
				return true
			}
			return i+1 < len(mine) && int64(mine[i+1]) > first.Load()
		}
		run := r.Run
		if o.inWorker {
			run = r.RunInWorker
		}
		// A hang's search is not sliced: a hang is an input that runs long.
		slice := o.want.Kind != failure.Timeout
		res, err := run(ctx, in, testbin.Judge{Shape: shape, Stop: stop, Limit: o.limit, Floor: o.floor, Slice: slice})
		if err != nil {
			return err
		}
		if len(res.Outcomes) == 0 {
			return fmt.Errorf("the test binary ran no candidate: %s", res.Stale)
		}
		o.runs.Add(int64(len(res.Outcomes)))
		for i, sig := range res.Outcomes {
			sigs[mine[i]], judged[mine[i]] = sig, true
		}
		if last := len(res.Outcomes) - 1; res.Outcomes[last] == o.want {
			lower(first, int64(mine[last])) // a crash is judged as the process ends, not by stop
			return nil
		}
		if len(res.Outcomes) == len(mine) {
			return nil
		}
		mine = mine[len(res.Outcomes):] // the process ended early: go on after the last one judged
	}
	return nil
}

// lower sets a to v if v is less.
func lower(a *atomic.Int64, v int64) {
	for old := a.Load(); v < old && !a.CompareAndSwap(old, v); old = a.Load() {
	}
}
