package fuzzshrink

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// OneOf generates the values of one of gens, each as often as the others,
// chosen by a branch drawn first. Values shrink within their branch, and
// toward the base case, then toward earlier branches: put the simplest
// alternative first.
//
// The base case is the first alternative whose simplest value does not draw
// this OneOf again (the first, if every one does). A recursive generator may
// list its alternatives in any order: nested draws of the same OneOf take
// the base case more and more often as they nest, and always past a depth
// of 100, and so does replay past the end of the data. It panics if gens is
// empty.
func OneOf[V any](gens ...*Gen[V]) *Gen[V] {
	if len(gens) == 0 {
		panic("fuzzshrink.OneOf: no generators")
	}
	return newOneOf(fmt.Sprintf("OneOf(%d generators)", len(gens)), gens, nil)
}

// A Weighted is an alternative of [Frequency]: a generator and how often,
// relative to the others, it is chosen.
type Weighted[V any] struct {
	Weight int
	Gen    *Gen[V]
}

// Frequency is [OneOf] with weights: it generates the values of alts' Gen,
// each chosen in proportion to its Weight, and shrinks as OneOf does, toward
// the base case and then toward earlier alternatives, whatever their
// weights. It panics if alts is empty, or if a weight is negative or every
// weight is zero.
func Frequency[V any](alts ...Weighted[V]) *Gen[V] {
	if len(alts) == 0 {
		panic("fuzzshrink.Frequency: no alternatives")
	}
	gens := make([]*Gen[V], len(alts))
	weights := make([]float64, len(alts))
	total := 0
	for i, a := range alts {
		if a.Weight < 0 {
			panic(fmt.Sprintf("fuzzshrink.Frequency: alternative %d has weight %d", i, a.Weight))
		}
		gens[i], weights[i] = a.Gen, float64(a.Weight)
		total += a.Weight
	}
	if total == 0 {
		panic("fuzzshrink.Frequency: every weight is zero")
	}
	return newOneOf(fmt.Sprintf("Frequency(%d alternatives)", len(alts)), gens, weights)
}

// A oneOf is the generator of OneOf and Frequency.
type oneOf[V any] struct {
	gens    []*Gen[V]
	weights []float64 // by branch; nil when all are equal
	info    *shrink.Drawer
	r       shrink.Interval
	order   atomic.Pointer[branchOrder] // nil until the base case is known
}

// A branchOrder maps the ranks of the branch choice to branches: rank 0 is
// the base case, and the others follow in their order.
type branchOrder struct {
	branch []int     // by rank
	cum    []float64 // the weights cumulated by rank; nil when all are equal
}

func newOneOf[V any](name string, gens []*Gen[V], weights []float64) *Gen[V] {
	o := &oneOf[V]{gens: slices.Clone(gens), weights: weights, r: shrink.UnsignedInterval(0, uint64(len(gens)-1))}
	g := newGen(name, o.draw, o.force)
	g.info.Depth = true
	o.info = g.info
	return g
}

func (o *oneOf[V]) draw(t *T) V {
	ord := o.branches(t)
	n := o.enter(t)
	defer t.leave()
	k := 0
	if n < maxDepth {
		d := dist{kind: distUniform, cum: ord.cum}
		if n > 0 {
			d = dist{kind: distFirst, p: 1 - math.Pow(0.5, float64(n)), cum: ord.cum}
		}
		k = int(t.drawInt(o.r, d))
	}
	return o.gens[ord.branch[k]].value(t)
}

func (o *oneOf[V]) force(t *T, v V) error {
	ord := o.branches(t)
	n := o.enter(t)
	defer t.leave()
	mark := len(t.data)
	for k, i := range ord.branch {
		if n >= maxDepth && k > 0 {
			break
		}
		g := o.gens[i]
		if g.force == nil {
			continue
		}
		if n < maxDepth {
			t.putRank(o.r, uint64(k))
		}
		if g.force(t, v) == nil {
			return nil
		}
		t.data, t.pos = t.data[:mark], mark
	}
	return fmt.Errorf("no branch can be forced to %v", v)
}

// enter opens a draw of o in t and returns how many enclose it.
func (o *oneOf[V]) enter(t *T) int {
	n := 0
	for _, g := range t.nest {
		if g == o.info {
			n++
		}
	}
	t.nest = append(t.nest, o.info)
	return n
}

// branches returns o's order, which it finds on the first draw: the base
// case is the first branch whose simplest value, drawn in a T of its own,
// does not draw o again. Finding it is deterministic, so that every
// process replays a choice sequence to the same value. Within a probe of
// o's branches, a draw of o is the recursion the probe looks for: it ends
// the probe.
func (o *oneOf[V]) branches(t *T) *branchOrder {
	if slices.Contains(t.probes, o.info) {
		t.recursed = o.info
		runtime.Goexit()
	}
	if ord := o.order.Load(); ord != nil {
		return ord
	}
	base := 0
	for i, g := range o.gens {
		p := newT(nil, nil, nil) // replays no data: every choice is the simplest
		p.probes = append(slices.Clip(t.probes), o.info)
		runCaptured(p, func(p *T) { g.value(p) })
		if p.recursed != nil && p.recursed != o.info {
			// The branch leads back to a OneOf whose probe encloses this
			// one: o's order cannot be known until that probe ends.
			t.recursed = p.recursed
			runtime.Goexit()
		}
		if p.recursed == nil && p.returned && !p.failed {
			base = i
			break
		}
	}
	ord := newBranchOrder(len(o.gens), base, o.weights)
	o.order.Store(ord)
	return ord
}

func newBranchOrder(n, base int, weights []float64) *branchOrder {
	ord := &branchOrder{branch: append(make([]int, 0, n), base)}
	for i := range n {
		if i != base {
			ord.branch = append(ord.branch, i)
		}
	}
	if weights != nil {
		sum := 0.0
		for _, i := range ord.branch {
			sum += weights[i]
			ord.cum = append(ord.cum, sum)
		}
	}
	return ord
}
