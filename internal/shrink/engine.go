package shrink

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/formats"
	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// An Oracle runs candidates (tuples of fuzz arguments) in the order given and
// returns one verdict per candidate it ran. It may stop after the first Fail
// (returning a shorter slice that ends with that Fail), or early when ctx is
// done; otherwise it must not skip a candidate before the first Fail. A
// non-nil error means the oracle itself broke (not that a candidate failed)
// and stops the search; once ctx is done, an error only means the search was
// canceled.
//
// Like a fuzz function, Run must not modify the candidates; it may retain
// them, since the engine never reuses them, but not the batch slice itself.
type Oracle interface {
	Run(ctx context.Context, batch [][]any) ([]Verdict, error)
}

// Predicate adapts a function to an Oracle: true means the candidate still
// fails. It stops at the first failing candidate of a batch, and before the
// next candidate once ctx is done.
type Predicate func(args []any) bool

// Run implements [Oracle].
func (p Predicate) Run(ctx context.Context, batch [][]any) ([]Verdict, error) {
	vs := make([]Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		if p(args) {
			return append(vs, Fail), nil
		}
		vs = append(vs, Pass)
	}
	return vs, nil
}

// Result is the outcome of [Shrink].
type Result struct {
	Args  []any // the smallest failing tuple found; the original if none was
	Stats Stats
}

// Stats describes a search.
type Stats struct {
	Runs       int         // candidates run by the oracle: the verdicts it returned
	Accepted   int         // candidates accepted as the new best
	CacheHits  int         // candidates proposed again and skipped
	OtherFails int         // candidates that failed differently
	Rounds     int         // rounds started; the last one accepted nothing unless a budget ran out
	Passes     []PassStats // one per pass, in the order they run
	Stop       StopReason
	Time       time.Duration
}

// PassStats describes one pass over all rounds of a search.
type PassStats struct {
	Name     string
	Runs     int
	Accepted int
	Time     time.Duration
}

// StopReason tells why a search stopped.
type StopReason int

// The reasons a search stops.
const (
	StopDone        StopReason = iota // a full round accepted nothing: a fixpoint
	StopMaxRuns                       // the MaxRuns budget ran out
	StopDeadline                      // the Deadline or Timeout passed, or ctx's deadline
	StopCanceled                      // ctx was canceled
	StopOracleError                   // the oracle returned an error
)

// String returns the reason in words, such as "max runs".
func (r StopReason) String() string {
	switch r {
	case StopDone:
		return "done"
	case StopMaxRuns:
		return "max runs"
	case StopDeadline:
		return "deadline"
	case StopCanceled:
		return "canceled"
	case StopOracleError:
		return "oracle error"
	}
	return fmt.Sprintf("StopReason(%d)", int(r))
}

// EventKind is the kind of an [Event].
type EventKind int

// The kinds of events.
const (
	PassStart EventKind = iota // a pass proposes its first candidate of a round; Args is the best tuple
	Accepted                   // a candidate was accepted; Args is the new best
	Done                       // the search ended; Args is the result
)

// String returns the kind in words, such as "pass start".
func (k EventKind) String() string {
	switch k {
	case PassStart:
		return "pass start"
	case Accepted:
		return "accepted"
	case Done:
		return "done"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is what [Observe] reports.
type Event struct {
	Kind  EventKind
	Pass  string // the pass's name; empty for Done
	Round int    // from 1
	Args  []any  // must not be modified
	Stats Stats  // a snapshot
}

// Shrink minimizes args against o. The arguments may be of the native fuzz
// types (string, []byte, bool, int, int8, int16, int32, int64, uint, uint8,
// uint16, uint32, uint64, float32, float64) or of the types
// fuzzshrink.Fuzz accepts (structs, slices, arrays, maps, pointers and named
// types built from them, and fuzzshrink.Custom types). args is the original failing input; Shrink does not
// run it again. It returns the best (smallest failing) tuple found, never
// nil, plus statistics. The error is non-nil only if the oracle returned an
// error or broke its contract; Result is still the best so far. Unsupported
// argument types are reported as an error before any run.
//
// Every accepted candidate is strictly smaller than the best before it in the
// order the package documentation describes, so the search terminates.
func Shrink(ctx context.Context, args []any, o Oracle, opts ...Option) (Result, error) {
	start := time.Now()
	best := cloneTuple(args)
	for i, a := range args {
		if a == nil {
			return Result{Args: best}, fmt.Errorf("shrink: argument %d is nil", i)
		}
		if !Supported(a) && !isValue(a) {
			if err := structured.CheckType(reflect.TypeOf(a)); err != nil {
				return Result{Args: best}, fmt.Errorf("shrink: argument %d: %w", i, err)
			}
		}
	}
	e := &engine{oracle: o, best: best, cache: newCache()}
	for _, opt := range opts {
		opt(&e.cfg)
	}
	e.cfg.batchSize = max(e.cfg.batchSize, 1)
	e.batchLimit = e.cfg.batchSize
	e.ctx = ctx
	if t := e.cfg.stopAt(start); !t.IsZero() {
		var cancel context.CancelFunc
		e.ctx, cancel = context.WithDeadline(ctx, t)
		defer cancel()
	}
	e.passes = searchPasses(best)
	e.stats.Passes = make([]PassStats, len(e.passes))
	for i, p := range e.passes {
		e.stats.Passes[i].Name = p.name
	}
	e.start = start
	e.run()
	e.stats.Time = time.Since(start)
	e.emit(Done, "")
	// A copy: the best tuple is a candidate that the oracle may have kept.
	return Result{Args: cloneTuple(e.best), Stats: e.stats}, e.err
}

// Minimize is the convenience for ordinary tests: it shrinks v, a value of a
// type [Shrink] accepts (a native fuzz type, a struct, a slice, …), for
// which fails returns true, and returns the smallest failing value found.
// It panics if values of T cannot be shrunk (a func, a channel, an
// interface, …).
func Minimize[T any](v T, fails func(T) bool, opts ...Option) T {
	p := Predicate(func(args []any) bool { return fails(args[0].(T)) })
	r, err := Shrink(context.Background(), []any{v}, p, opts...)
	if err != nil {
		panic(err)
	}
	return r.Args[0].(T)
}

// engine is the state of one search.
type engine struct {
	ctx    context.Context
	oracle Oracle
	cfg    config
	start  time.Time
	best   []any
	stats  Stats
	cache  *cache
	err    error
	passes []pass // of this search: searchPasses

	// The pending batch, reused between batches: candidates, their cache
	// keys, and the cursors to resume from if they are accepted; and the
	// size of the next one (see sizeBatches).
	batch      [][]any
	keys       []cacheKey
	cursors    []cursor
	batchLimit int
	started    bool // the running pass has proposed a candidate
	// allow is how many more candidates the running pass may propose, if
	// it is budgeted (see pass.budgeted); -1 otherwise.
	allow int

	sums []argSums // of the arguments of best, found as asked for
}

// argSums are the sums of a binary argument (formats.FindSums) as they were last
// found.
type argSums struct {
	of    string // the argument they were found in
	sums  []formats.Sum
	found bool // once
	none  bool // the argument had none when first read: no candidate will
}

// sumsOf returns the sums of argument i of the best tuple. An argument
// with none when first read is not read for them again.
func (e *engine) sumsOf(i int) []formats.Sum {
	if len(e.sums) != len(e.best) {
		e.sums = make([]argSums, len(e.best))
	}
	a := &e.sums[i]
	if a.none {
		return nil
	}
	var s string
	switch x := e.best[i].(type) {
	case []byte:
		s = string(x)
	case string:
		s = x
	}
	switch {
	case a.found && s == a.of:
		return a.sums
	case !a.found && (s == "" || !isBinary(s)):
		a.none = true // text
		return nil
	case len(s) > formats.MaxSumsInput:
		return nil // read once the other passes cut it down
	}
	a.of, a.sums = s, formats.FindSums([]byte(s))
	a.none = !a.found && len(a.sums) == 0
	a.found = true
	return a.sums
}

// idleRounds is how many rounds in a row a pass may run without an
// accepted candidate before it runs only when the passes before it in the
// round accepted none, as a stuck pass does: a pass that does not pay on
// this input costs no runs while others make progress, and the last round,
// which accepts nothing, still runs every pass.
const idleRounds = 2

func (e *engine) run() {
	idle := make([]int, len(e.passes))
	last := slices.IndexFunc(e.passes, func(p pass) bool { return p.budgeted }) // the toolchain's moves
	for {
		e.stats.Rounds++
		progress := false
		for i := 0; i < len(e.passes); i++ {
			if last >= 0 && i != last && e.stats.Passes[last].Runs == 0 && e.halfSpent() {
				// Half the budget is gone and the other passes still
				// make progress, value by value, so that the toolchain's
				// moves, a stuck pass, have not run: they run now, until
				// they accept a candidate, so that the search is not
				// behind them when the budget ends it.
				accepted, stop := e.runPass(last, true)
				progress = progress || accepted
				if stop {
					return
				}
			}
			if (e.passes[i].stuck || idle[i] >= idleRounds) && progress {
				continue
			}
			accepted, stop := e.runPass(i, false)
			progress = progress || accepted
			if stop {
				return
			}
			if accepted {
				idle[i] = 0
			} else {
				idle[i]++
			}
			if accepted && e.passes[i].repeat {
				i = -1 // the repeat passes, which come first, again
			}
		}
		if !progress {
			e.stats.Stop = StopDone
			return
		}
	}
}

// halfSpent reports whether the search has spent half its budget: of its
// runs, or of its time.
func (e *engine) halfSpent() bool {
	if e.cfg.maxRuns > 0 && 2*e.stats.Runs >= e.cfg.maxRuns {
		return true
	}
	end := e.cfg.stopAt(e.start)
	return !end.IsZero() && 2*time.Since(e.start) >= end.Sub(e.start)
}

// runPass runs pass i from its zero cursor to its end, resuming after every
// accepted candidate at that candidate's cursor on the new best; if once,
// only to its first accepted candidate.
func (e *engine) runPass(i int, once bool) (accepted, stop bool) {
	ps := &e.stats.Passes[i]
	e.started = false // PassStart is emitted at the pass's first candidate
	start := time.Now()
	defer func() { ps.Time += time.Since(start) }()
	from := cursor{}
	for {
		e.allow = -1
		if e.passes[i].budgeted {
			own := e.stats.Passes[i].Runs
			e.allow = max(max(e.stats.Runs-own, minPassBudget)-own, 0)
		}
		ok, next, stop := e.search(i, from)
		if ok {
			accepted = true
			from = next
		}
		if stop || !ok || once {
			return accepted, stop
		}
	}
}

// search pulls the not-yet-seen candidates of pass i from cursor from on the
// best tuple and runs them in batches until one is accepted (ok, with the
// cursor to resume from), the pass is exhausted, or the search must stop.
func (e *engine) search(i int, from cursor) (ok bool, next cursor, stop bool) {
	for c, v := range e.passes[i].candidates(e.best, from, e.sumsOf) {
		if !e.started {
			e.started = true
			e.emit(PassStart, e.passes[i].name)
		}
		if e.interrupted() {
			e.discard(0)
			return false, cursor{}, true
		}
		k := e.cache.key(e.best, c.arg, v)
		if !e.cache.add(k) {
			e.stats.CacheHits++
			continue
		}
		if !smallerWith(e.best, c.arg, v) {
			continue // not smaller: a pass's move that the order does not take (a digit for a byte of binary data)
		}
		if e.allow == 0 {
			e.cache.remove(k)
			break
		}
		if e.allow > 0 {
			e.allow--
		}
		cand := with(e.best, c.arg, v)
		limit := e.batchLimit
		if e.cfg.maxRuns > 0 {
			limit = min(limit, e.cfg.maxRuns-e.stats.Runs)
			if limit <= 0 {
				e.cache.remove(k)
				e.stats.Stop = StopMaxRuns
				return false, cursor{}, true
			}
		}
		e.batch = append(e.batch, cand)
		e.keys = append(e.keys, k)
		e.cursors = append(e.cursors, c)
		if len(e.batch) == limit {
			if ok, next, stop = e.runBatch(i); ok || stop {
				return ok, next, stop
			}
		}
	}
	if len(e.batch) > 0 {
		return e.runBatch(i)
	}
	return false, cursor{}, false
}

// runBatch gives the pending batch to the oracle and accepts its first Fail.
// Every verdict counts as a run. The cache keeps the candidates judged Pass
// or OtherFail (a verdict does not depend on the best tuple); it forgets the
// unjudged ones, and any Fail after the first, which may be proposed again.
// The batch is left empty.
func (e *engine) runBatch(i int) (ok bool, next cursor, stop bool) {
	n := len(e.batch)
	vs, err := e.oracle.Run(e.ctx, e.batch)
	if err != nil {
		e.discard(0)
		if e.interrupted() {
			return false, cursor{}, true
		}
		return false, cursor{}, e.fail(fmt.Errorf("shrink: oracle: %w", err))
	}
	if len(vs) > n {
		e.discard(0)
		return false, cursor{}, e.fail(fmt.Errorf("shrink: oracle returned %d verdicts for %d candidates", len(vs), n))
	}
	first := -1
	for j, v := range vs {
		switch v {
		case Pass, OtherFail:
		case Fail:
			if first < 0 {
				first = j
			} else {
				e.cache.remove(e.keys[j])
			}
		default:
			e.discard(0)
			return false, cursor{}, e.fail(fmt.Errorf("shrink: oracle returned invalid verdict %d", int(v)))
		}
	}
	for _, v := range vs {
		e.stats.Runs++
		e.stats.Passes[i].Runs++
		if v == OtherFail {
			e.stats.OtherFails++
		}
	}
	e.sizeBatches(first, n)
	if first < 0 {
		e.discard(len(vs))
		if len(vs) < n {
			if e.interrupted() {
				return false, cursor{}, true
			}
			return false, cursor{}, e.fail(fmt.Errorf("shrink: oracle returned %d verdicts for %d candidates and no Fail", len(vs), n))
		}
		return false, cursor{}, false
	}
	cand, k, c := e.batch[first], e.keys[first], e.cursors[first]
	e.discard(len(vs))
	if e.cache.key(cand, -1, nil) != k {
		return false, cursor{}, e.fail(errors.New("shrink: oracle modified a candidate it was given"))
	}
	if nz, ok := e.oracle.(Normalizer); ok {
		if n := nz.Normalize(cand); n != nil {
			if compareArgs(n, e.best) >= 0 {
				return false, cursor{}, false // its normal form is no progress
			}
			cand = n
		}
	}
	e.best = cand
	e.stats.Accepted++
	e.stats.Passes[i].Accepted++
	e.emit(Accepted, e.passes[i].name)
	return true, c, false
}

// sizeBatches sets the size of the next batch from the last one, of n
// candidates, whose first Fail was at index first (-1: none): twice the
// candidates it took to reach a Fail, and twice the last size while none
// is found, within [1, BatchSize]. Many accepted candidates so keep batches
// short, and few candidates are prepared for nothing (an oracle that runs
// candidates in another process writes a file for each); long runs of
// passing candidates get full batches. The size of a batch never changes
// what is accepted.
func (e *engine) sizeBatches(first, n int) {
	if first >= 0 {
		e.batchLimit = min(e.cfg.batchSize, 2*(first+1))
	} else if n == e.batchLimit {
		e.batchLimit = min(e.cfg.batchSize, 2*e.batchLimit)
	}
}

// discard empties the pending batch, forgetting the cache keys of the
// candidates from index j on, which were not run.
func (e *engine) discard(j int) {
	for _, k := range e.keys[min(j, len(e.keys)):] {
		e.cache.remove(k)
	}
	clear(e.batch) // let the candidates be collected
	e.batch, e.keys, e.cursors = e.batch[:0], e.keys[:0], e.cursors[:0]
}

// interrupted reports whether the context is done, recording why.
func (e *engine) interrupted() bool {
	err := e.ctx.Err()
	if err == nil {
		return false
	}
	e.stats.Stop = StopCanceled
	if errors.Is(err, context.DeadlineExceeded) {
		e.stats.Stop = StopDeadline
	}
	return true
}

func (e *engine) fail(err error) (stop bool) {
	e.err = err
	e.stats.Stop = StopOracleError
	return true
}

func (e *engine) emit(kind EventKind, pass string) {
	if e.cfg.trace == nil {
		return
	}
	st := e.stats
	st.Passes = slices.Clone(st.Passes)
	st.Time = time.Since(e.start)
	e.cfg.trace(Event{Kind: kind, Pass: pass, Round: e.stats.Rounds, Args: e.best, Stats: st})
}
