package fuzzshrink

import (
	"context"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The shrink engine is package internal/shrink, which the fuzzmin command
// shares; what follows is its API for users: Shrink with an Oracle of
// one's own, Minimize for a predicate, and the order, Compare.

// Verdict is an [Oracle]'s judgement of one candidate.
type Verdict = shrink.Verdict

// The verdicts an [Oracle] can return.
const (
	Pass      = shrink.Pass      // the candidate does not fail
	Fail      = shrink.Fail      // fails the same way as the original: the engine may accept it
	OtherFail = shrink.OtherFail // fails, but differently (another bug): never accepted, counted in Stats
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
type Oracle = shrink.Oracle

// Predicate adapts a function to an Oracle: true means the candidate still
// fails. It stops at the first failing candidate of a batch, and before the
// next candidate once ctx is done.
type Predicate = shrink.Predicate

// Result is the outcome of [Shrink]: Args, the smallest failing tuple
// found (the original if none was), and Stats.
type Result = shrink.Result

// Stats describes a search: the candidates run, accepted, skipped as seen
// before and failing differently, the rounds, each pass's share, why the
// search stopped, and its time.
type Stats = shrink.Stats

// PassStats describes one pass over all rounds of a search.
type PassStats = shrink.PassStats

// StopReason tells why a search stopped.
type StopReason = shrink.StopReason

// The reasons a search stops.
const (
	StopDone        = shrink.StopDone        // a full round accepted nothing: a fixpoint
	StopMaxRuns     = shrink.StopMaxRuns     // the MaxRuns budget ran out
	StopDeadline    = shrink.StopDeadline    // the Deadline or Timeout passed, or ctx's deadline
	StopCanceled    = shrink.StopCanceled    // ctx was canceled
	StopOracleError = shrink.StopOracleError // the oracle returned an error
)

// EventKind is the kind of an [Event].
type EventKind = shrink.EventKind

// The kinds of events.
const (
	PassStart = shrink.PassStart // a pass proposes its first candidate of a round; Args is the best tuple
	Accepted  = shrink.Accepted  // a candidate was accepted; Args is the new best
	Done      = shrink.Done      // the search ended; Args is the result
)

// Event is what [Observe] reports: its kind, the pass, the round (from
// 1), the best tuple (which must not be modified) and a snapshot of Stats.
type Event = shrink.Event

// An Option configures [Shrink] and [Minimize].
type Option = shrink.Option

// Shrink minimizes args against o. The arguments may be of the native fuzz
// types (string, []byte, bool, int, int8, int16, int32, int64, uint, uint8,
// uint16, uint32, uint64, float32, float64) or of the types [Fuzz] accepts
// (structs, slices, arrays, maps, pointers and named types built from them,
// and [Custom] types). args is the original failing input; Shrink does not
// run it again. It returns the best (smallest failing) tuple found, never
// nil, plus statistics. The error is non-nil only if the oracle returned an
// error or broke its contract; Result is still the best so far. Unsupported
// argument types are reported as an error before any run.
//
// Every accepted candidate is strictly smaller than the best before it in the
// order the package documentation describes, so the search terminates.
func Shrink(ctx context.Context, args []any, o Oracle, opts ...Option) (Result, error) {
	return shrink.Shrink(ctx, args, o, opts...)
}

// Minimize is the convenience for ordinary tests: it shrinks v, a value of a
// type [Shrink] accepts (a native fuzz type, a struct, a slice, …), for
// which fails returns true, and returns the smallest failing value found.
// It panics if values of T cannot be shrunk (a func, a channel, an
// interface, …).
func Minimize[T any](v T, fails func(T) bool, opts ...Option) T {
	return shrink.Minimize(v, fails, opts...)
}

// Compare compares two tuples of arguments in the order every accepted
// candidate of [Shrink] strictly decreases in (see the package
// documentation): it returns -1, 0 or +1 as a is simpler than, as simple
// as, or less simple than b.
func Compare(a, b []any) int { return shrink.Compare(a, b) }

// MaxRuns stops the search after n candidates have been run by the oracle.
// n <= 0 means no limit, the default.
func MaxRuns(n int) Option { return shrink.MaxRuns(n) }

// Deadline stops the search at t. The oracle's context is canceled at t too.
// With both Deadline and [Timeout], the earlier one applies.
func Deadline(t time.Time) Option { return shrink.Deadline(t) }

// Timeout stops the search d after [Shrink] starts. d <= 0 means no timeout.
func Timeout(d time.Duration) Option { return shrink.Timeout(d) }

// BatchSize sets how many candidates at most go to one [Oracle] Run call;
// the default is 1, which is plain greedy search. Larger batches suit
// oracles with a high fixed cost per call, such as one that runs candidates
// in another process: the result is the same as with batches of 1, since
// the engine accepts the first failing candidate of a batch, but the
// candidates after it are wasted. So the engine sizes batches by the search:
// twice the candidates the last batch took to reach a Fail, doubling while
// none fails, up to n.
func BatchSize(n int) Option { return shrink.BatchSize(n) }

// Observe calls f when a pass starts, when a candidate is accepted and when the
// search ends. f runs synchronously and must not modify the Event's Args.
func Observe(f func(Event)) Option { return shrink.Observe(f) }
