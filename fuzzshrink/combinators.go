package fuzzshrink

import (
	"fmt"
	"math"
	"reflect"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Just generates v, always. It draws no choice, so it never shrinks.
func Just[V any](v V) *Gen[V] {
	return newGen(fmt.Sprintf("Just(%v)", v),
		func(*T) V { return v },
		func(_ *T, x V) error {
			if !reflect.DeepEqual(x, v) {
				return fmt.Errorf("%v is not %v", x, v)
			}
			return nil
		})
}

// SampledFrom generates one of values, each as often as the others, and
// shrinks toward values[0]. It panics if values is empty.
func SampledFrom[V any](values ...V) *Gen[V] {
	if len(values) == 0 {
		panic("fuzzshrink.SampledFrom: no values")
	}
	vs := append([]V(nil), values...)
	r := shrink.UnsignedInterval(0, uint64(len(vs)-1))
	return newGen(fmt.Sprintf("SampledFrom(%d values)", len(vs)),
		func(t *T) V { return vs[t.drawInt(r, uniform)] },
		func(t *T, x V) error {
			for i, v := range vs {
				if reflect.DeepEqual(x, v) {
					t.putRank(r, uint64(i))
					return nil
				}
			}
			return fmt.Errorf("%v is not one of the values", x)
		})
}

// Map generates fn(u) for values u of g. It shrinks exactly as g does,
// projected through fn: it adds no shrink of its own. fn must be
// deterministic.
func Map[U, V any](g *Gen[U], fn func(U) V) *Gen[V] {
	return newGen(fmt.Sprintf("Map(%v)", g),
		func(t *T) V { return fn(g.value(t)) },
		nil)
}

// FlatMap generates values of the generator fn(u) for values u of g: a
// value that depends on another, such as a pair a ≤ b,
//
//	FlatMap(IntRange(0, 1000), func(a int) *Gen[[2]int] {
//		return Map(IntRange(a, 1000), func(b int) [2]int { return [2]int{a, b} })
//	})
//
// It shrinks on two axes: the outer value u first (the dependent value is
// drawn again by fn's new generator from the same choices, so that it keeps
// its distance to its own bounds: (412, 987) shrinks to (0, 575)), then the
// dependent value in place, u fixed. Both axes are open at every u. Wrap g
// in [NoShrink] to keep u as generated and shrink the dependent value
// alone.
func FlatMap[U, V any](g *Gen[U], fn func(U) *Gen[V]) *Gen[V] {
	return newGen(fmt.Sprintf("FlatMap(%v)", g),
		func(t *T) V { return fn(g.value(t)).value(t) },
		nil)
}

// Filter generates the values of g for which pred is true. A value pred
// rejects is drawn again, up to 100 times; generation fails the test, with
// the filter's acceptance rate, when pred rejects that many in a row, and a
// choice sequence on which it does (a fuzz input, a shrink candidate) is
// not a valid case: it counts as passing. Shrink candidates whose value pred
// rejects are skipped, so a filter can hide simpler values behind rejected
// ones; for values with invariants prefer generators that build them
// ([Map], [FlatMap], [Compose]).
func (g *Gen[V]) Filter(pred func(V) bool) *Gen[V] {
	f := newGen[V](fmt.Sprintf("%v.Filter", g), nil, nil)
	f.info.Filter = true
	f.draw = func(t *T) V {
		for range filterTries {
			past := t.gen == nil && t.pos >= len(t.data) || t.gen != nil && (t.gen.zero || len(t.data) >= maxGenBytes)
			v := g.value(t)
			ok := pred(v)
			if t.filters != nil {
				t.filters.count(ok)
			}
			if ok {
				return v
			}
			if past {
				// Every attempt would draw the simplest choices again.
				t.invalidate("%v: the predicate rejects the simplest value", f)
			}
		}
		msg := fmt.Sprintf("%v: the predicate rejected %d values in a row", f, filterTries)
		if t.filters != nil {
			msg += fmt.Sprintf("; it accepted %d of the %d values it was given in this test (%s)",
				t.filters.accepted, t.filters.accepted+t.filters.rejected, t.filters.rate())
		}
		t.cannotGenerate("%s; generate values that satisfy it instead of filtering them", msg)
		panic("unreachable")
	}
	f.force = func(t *T, v V) error {
		if !pred(v) {
			return fmt.Errorf("%v does not satisfy the predicate", v)
		}
		if g.force == nil {
			return fmt.Errorf("%v cannot be forced", g)
		}
		return g.force(t, v)
	}
	return f
}

// filterTries is how many values a Filter draws before giving up.
const filterTries = 100

// filterStats counts the values filters accepted and rejected in one test.
type filterStats struct{ accepted, rejected int }

func (s *filterStats) count(ok bool) {
	if ok {
		s.accepted++
	} else {
		s.rejected++
	}
}

func (s *filterStats) rate() string {
	return fmt.Sprintf("%.1f%%", 100*float64(s.accepted)/math.Max(1, float64(s.accepted+s.rejected)))
}

// NoShrink generates the values of g with the same distribution, but they
// never shrink: no pass changes the choices it draws. Inside [FlatMap] it
// keeps the outer value as generated, so that only the dependent value
// shrinks:
//
//	FlatMap(NoShrink(IntRange(1, 5)), func(n int) *Gen[[]int] { return SliceOfN(IntRange(0, 9), n, n) })
func NoShrink[V any](g *Gen[V]) *Gen[V] {
	n := newGen(fmt.Sprintf("NoShrink(%v)", g),
		func(t *T) V { return g.value(t) },
		g.force)
	n.info.NoShrink = true
	return n
}

// Ptr generates nil or a pointer to a value of g, each half the time, and
// shrinks toward nil, then as g does.
func Ptr[V any](g *Gen[V]) *Gen[*V] {
	return newGen(fmt.Sprintf("Ptr(%v)", g),
		func(t *T) *V {
			if !t.drawBool(0.5) {
				return nil
			}
			v := g.value(t)
			return &v
		},
		func(t *T, p *V) error {
			if p == nil {
				t.putRank(shrink.BoolInterval, 0)
				return nil
			}
			if g.force == nil {
				return fmt.Errorf("%v cannot be forced", g)
			}
			t.putRank(shrink.BoolInterval, 1)
			return g.force(t, *p)
		})
}

// Compose generates values that fn builds from several draws: tuples, and
// structs whose fields must satisfy invariants together. fn draws with the
// generators' Draw and t, and must be deterministic:
//
//	interval := Compose(func(t *T) Interval {
//		lo := IntRange(0, 100).Draw(t, "lo")
//		return Interval{lo, IntRange(lo, 100).Draw(t, "hi")}
//	})
//
// Its draws shrink as the draws of a property do, in order.
//
// (It is not called Custom: [Custom] is the interface of types that
// generate and shrink themselves in [Fuzz].)
func Compose[V any](fn func(t *T) V) *Gen[V] {
	return newGen(fmt.Sprintf("Compose(%s)", describe[V]()), fn, nil)
}

// Deferred generates the values of the generator f returns, calling f on
// its first draw, not before, and once: recursive generators refer to
// themselves through it,
//
//	var expr *Gen[Expr]
//	expr = OneOf(literal, Map(SliceOf(Deferred(func() *Gen[Expr] { return expr })), newList))
//
// See [OneOf] for how recursion ends.
func Deferred[V any](f func() *Gen[V]) *Gen[V] {
	get := sync.OnceValue(f)
	return newGen(fmt.Sprintf("Deferred(%s)", describe[V]()),
		func(t *T) V { return get().value(t) },
		func(t *T, v V) error {
			g := get()
			if g.force == nil {
				return fmt.Errorf("%v cannot be forced", g)
			}
			return g.force(t, v)
		})
}
