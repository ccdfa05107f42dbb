package fuzzshrink

import (
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Minimize shrinks v, for which fails returns true, and returns the
// smallest value found for which it still does: an ordinary test's way to
// the simplest input of a bug, without fuzzing.
//
//	small := fuzzshrink.Minimize(cfg, func(c Config) bool { return Apply(c) != nil })
//
// v may be of any type [Fuzz] accepts: a native fuzz type, or a struct,
// slice, array, map or pointer built of them, or a [Custom] type; it
// shrinks by the passes and in the order [Fuzz] targets shrink by. Of the
// options, [ShrinkRuns] and [ShrinkTime] apply: by default the search
// stops after 50,000 calls of fails or a minute, with the smallest value
// found by then. Minimize panics if values of T cannot be shrunk (a func, a
// channel, an interface).
func Minimize[T any](v T, fails func(T) bool, opts ...CheckOption) T {
	cfg := defaultCheckConfig()
	for _, o := range opts {
		o(&cfg)
	}
	return shrink.Minimize(v, fails, shrink.MaxRuns(cfg.shrinkRuns), shrink.Timeout(cfg.shrinkTime))
}
