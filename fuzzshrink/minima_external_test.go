package fuzzshrink_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// The exact minima of the shapes that a greedy pass changing one thing at
// a time cannot reach: each needs values that move together.

// TestMinimum_NoLinearWalk: with x drawn, then another draw that does not
// matter, and a failure whenever x >= 1, x ends at 1 in runs logarithmic in
// x, not one run per unit.
func TestMinimum_NoLinearWalk(t *testing.T) {
	t.Parallel()
	x := fuzzshrink.IntRange(0, 1e9)
	for _, other := range []struct {
		name string
		gen  func(t *fuzzshrink.T)
	}{
		{"IntRange", func(t *fuzzshrink.T) { fuzzshrink.IntRange(0, 1e9).Draw(t, "y") }},
		{"Bool", func(t *fuzzshrink.T) { fuzzshrink.Bool().Draw(t, "y") }},
	} {
		for seed := uint64(1); seed <= seeds; seed++ {
			report := check(t, func(t *fuzzshrink.T) {
				v := x.Draw(t, "x")
				other.gen(t)
				if v >= 1 {
					t.Fatalf("x = %d", v)
				}
			}, fuzzshrink.Seed(seed))
			got, _ := draws(report)
			if !strings.HasPrefix(got, "x = 1;") {
				t.Errorf("%s, seed %d: shrunk %s, want x = 1", other.name, seed, got)
			}
			if runs := shrinkRuns(report); runs > 400 {
				t.Errorf("%s, seed %d: %d runs: not logarithmic in x\n%s", other.name, seed, runs, report)
			}
		}
	}
}

// shrinkRuns reads the runs a report says the shrinking took.
func shrinkRuns(report string) int {
	_, rest, ok := strings.Cut(report, " in ")
	if !ok {
		return -1
	}
	n, _, _ := strings.Cut(rest, " runs")
	k, err := strconv.Atoi(n)
	if err != nil {
		return -1
	}
	return k
}

// node is a tree whose recursive alternative comes first in its OneOf.
type node struct {
	Kids []node
	Leaf int
}

// TestMinimum_RecursionFirst: a OneOf whose recursive alternative comes
// before the base case neither overflows the stack nor grows without
// bound, and shrinks toward the base case.
func TestMinimum_RecursionFirst(t *testing.T) {
	t.Parallel()
	var tree *fuzzshrink.Gen[node]
	tree = fuzzshrink.Deferred(func() *fuzzshrink.Gen[node] {
		return fuzzshrink.OneOf(
			fuzzshrink.Map(fuzzshrink.SliceOfN(tree, 1, 3), func(ks []node) node { return node{Kids: ks} }),
			fuzzshrink.Map(fuzzshrink.IntRange(0, 100), func(n int) node { return node{Leaf: n} }),
		)
	})
	var depth func(e node) int
	depth = func(e node) int {
		d := 0
		for _, k := range e.Kids {
			d = max(d, depth(k))
		}
		return d + 1
	}
	checkMinimum(t, func(t *fuzzshrink.T) {
		if e := tree.Draw(t, "e"); depth(e) >= 3 {
			t.Fatalf("depth %d", depth(e))
		}
	}, "e = node{Kids: []node{{Kids: []node{{}}}}}")
}
