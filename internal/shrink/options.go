package shrink

import "time"

// An Option configures [Shrink] and [Minimize].
type Option func(*config)

type config struct {
	maxRuns   int           // 0: no limit
	deadline  time.Time     // zero: none
	timeout   time.Duration // 0: none
	batchSize int           // < 1 means 1
	trace     func(Event)
}

// MaxRuns stops the search after n candidates have been run by the oracle.
// n <= 0 means no limit, the default.
func MaxRuns(n int) Option {
	return func(c *config) { c.maxRuns = n }
}

// Deadline stops the search at t. The oracle's context is canceled at t too.
// With both Deadline and [Timeout], the earlier one applies.
func Deadline(t time.Time) Option {
	return func(c *config) { c.deadline = t }
}

// Timeout stops the search d after [Shrink] starts. d <= 0 means no timeout.
func Timeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// BatchSize sets how many candidates at most go to one [Oracle.Run] call;
// the default is 1, which is plain greedy search. Larger batches suit
// oracles with a high fixed cost per call, such as one that runs candidates
// in another process: the result is the same as with batches of 1, since
// the engine accepts the first failing candidate of a batch, but the
// candidates after it are wasted. So the engine sizes batches by the search:
// twice the candidates the last batch took to reach a Fail, doubling while
// none fails, up to n.
func BatchSize(n int) Option {
	return func(c *config) { c.batchSize = n }
}

// Observe calls f when a pass starts, when a candidate is accepted and when the
// search ends. f runs synchronously and must not modify the Event's Args.
func Observe(f func(Event)) Option {
	return func(c *config) { c.trace = f }
}

// stopAt returns the effective deadline of a search started at start, or the
// zero time.
func (c *config) stopAt(start time.Time) time.Time {
	t := c.deadline
	if c.timeout > 0 {
		if d := start.Add(c.timeout); t.IsZero() || d.Before(t) {
			t = d
		}
	}
	return t
}
