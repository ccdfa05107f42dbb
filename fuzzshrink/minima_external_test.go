package fuzzshrink_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// The exact minima of the shapes that a greedy pass changing one thing at
// a time cannot reach: each needs values that move together.

// TestMinimum_DistinctCollections: a slice of distinct ints that must
// have 5 elements, and a map with 5 keys, end at the 5 smallest values,
// not at large ones that lowering one element onto another would collide
// with.
func TestMinimum_DistinctCollections(t *testing.T) {
	t.Parallel()
	xs := fuzzshrink.SliceOfDistinct(fuzzshrink.Int())
	checkMinimum(t, func(t *fuzzshrink.T) {
		if v := xs.Draw(t, "xs"); len(v) >= 5 {
			t.Fatalf("%d elements", len(v))
		}
	}, "xs = []int{0, 1, -1, 2, -2}")
	m := fuzzshrink.MapOf(fuzzshrink.IntRange(0, 1<<40), fuzzshrink.Bool())
	checkMinimum(t, func(t *fuzzshrink.T) {
		if v := m.Draw(t, "m"); len(v) >= 5 {
			t.Fatalf("%d keys", len(v))
		}
	}, "m = map[int]bool{0: false, 1: false, 2: false, 3: false, 4: false}")
}

// TestMinimum_LengthAndElements: a length, then that many elements; the
// bug needs two trues, with falses between them: deleting an element in
// the middle and lowering the length must happen at once.
func TestMinimum_LengthAndElements(t *testing.T) {
	t.Parallel()
	flat := fuzzshrink.FlatMap(fuzzshrink.IntRange(0, 20), func(n int) *fuzzshrink.Gen[[]bool] {
		return fuzzshrink.SliceOfN(fuzzshrink.Bool(), n, n)
	})
	twoTrues := func(bs []bool) bool { return strings.Count(boolString(bs), "t") >= 2 }
	checkMinimum(t, func(t *fuzzshrink.T) {
		if bs := flat.Draw(t, "bs"); twoTrues(bs) {
			t.Fatalf("two trues: %v", bs)
		}
	}, "bs = []bool{true, true}")
	// The same with a loop written by hand.
	checkMinimum(t, func(t *fuzzshrink.T) {
		n := fuzzshrink.IntRange(0, 20).Draw(t, "n")
		bs := make([]bool, n)
		for i := range bs {
			bs[i] = fuzzshrink.Bool().Draw(t, "b")
		}
		if twoTrues(bs) {
			t.Fatalf("two trues: %v", bs)
		}
	}, "n = 2; b = true; b = true")
}

func boolString(bs []bool) string {
	var b strings.Builder
	for _, v := range bs {
		b.WriteString(strconv.FormatBool(v)[:1])
	}
	return b.String()
}

// TestMinimum_MovingValue: pairs whose sum must pass a bound end with the
// first at its simplest and the second carrying the rest, floats as ints;
// and a float that must pass a huge bound ends at the simplest float past
// it.
func TestMinimum_MovingValue(t *testing.T) {
	t.Parallel()
	ints := fuzzshrink.IntRange(0, 10000)
	checkMinimum(t, func(t *fuzzshrink.T) {
		a, b := ints.Draw(t, "a"), ints.Draw(t, "b")
		if a+b > 1000 {
			t.Fatalf("%d", a+b)
		}
	}, "a = 0; b = 1001")
	floats := fuzzshrink.Float64Range(0, 10000)
	checkMinimum(t, func(t *fuzzshrink.T) {
		a, b := floats.Draw(t, "a"), floats.Draw(t, "b")
		if a+b > 1000 {
			t.Fatalf("%v", a+b)
		}
	}, "a = 0.0; b = 1001.0")
	checkMinimum(t, func(t *fuzzshrink.T) {
		a, b := floats.Draw(t, "a"), ints.Draw(t, "b")
		if a+float64(b) > 1000 {
			t.Fatalf("%v", a+float64(b))
		}
	}, "a = 0.0; b = 1001")
	checkMinimum(t, func(t *fuzzshrink.T) {
		if f := fuzzshrink.Float64().Draw(t, "f"); f >= math.MaxFloat64/2 {
			t.Fatal("too large")
		}
	}, "f = 8.98846567431158e+307", fuzzshrink.Cases(1000))
}

// TestMinimum_Grow: shrinks that make one part larger to make the whole
// smaller: a nested list flattened into one, lists merged into one, and
// interchangeable characters sorted.
func TestMinimum_Grow(t *testing.T) {
	t.Parallel()
	nested := fuzzshrink.SliceOf(fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 0)))
	checkMinimum(t, func(t *fuzzshrink.T) {
		total := 0
		for _, xs := range nested.Draw(t, "xss") {
			total += len(xs)
		}
		if total >= 20 {
			t.Fatalf("%d leaves", total)
		}
	}, "xss = [][]int{{"+strings.TrimSuffix(strings.Repeat("0, ", 20), ", ")+"}}")
	// A tree's subtrees flatten into their parent's list.
	var tree *fuzzshrink.Gen[node]
	tree = fuzzshrink.OneOf(
		fuzzshrink.Map(fuzzshrink.IntRange(0, 9), func(n int) node { return node{Leaf: n} }),
		fuzzshrink.Map(fuzzshrink.SliceOf(fuzzshrink.Deferred(func() *fuzzshrink.Gen[node] { return tree })), func(ks []node) node { return node{Kids: ks} }),
	)
	var leaves func(e node) int
	leaves = func(e node) int {
		if e.Kids == nil {
			return 1
		}
		n := 0
		for _, k := range e.Kids {
			n += leaves(k)
		}
		return n
	}
	checkMinimum(t, func(t *fuzzshrink.T) {
		if e := tree.Draw(t, "e"); leaves(e) >= 8 {
			t.Fatalf("%d leaves", leaves(e))
		}
	}, "e = node{Kids: []node{{}, {}, {}, {}, {}, {}, {}, {}}}", fuzzshrink.Cases(1000))
	lists := fuzzshrink.SliceOf(fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 100)))
	checkMinimum(t, func(t *fuzzshrink.T) {
		seen := map[int]bool{}
		for _, xs := range lists.Draw(t, "xss") {
			for _, x := range xs {
				seen[x] = true
			}
		}
		if len(seen) >= 10 {
			t.Fatalf("%d distinct", len(seen))
		}
	}, "xss = [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}")
	checkMinimum(t, func(t *fuzzshrink.T) {
		s := fuzzshrink.String().Draw(t, "s")
		if rle := decodeRLE(encodeRLE(s)); rle != s {
			t.Fatalf("%q round-trips to %q", s, rle)
		}
	}, `s = "001"`)
}

// A run is a rune repeated.
type run struct {
	r rune
	n int
}

// encodeRLE encodes s as runs, with a bug: the count of a run that follows
// a run of two or more is one too many.
func encodeRLE(s string) []run {
	var runs []run
	for _, r := range s {
		if k := len(runs) - 1; k >= 0 && runs[k].r == r {
			runs[k].n++
			continue
		}
		runs = append(runs, run{r, 1})
	}
	for i := len(runs) - 1; i > 0; i-- {
		if runs[i-1].n >= 2 {
			runs[i].n++ // the bug
		}
	}
	return runs
}

func decodeRLE(runs []run) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(strings.Repeat(string(r.r), r.n))
	}
	return b.String()
}

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

// TestMinimum_Generators: the generators built on collections and choices
// shrink as well as what they build on, every seed.
func TestMinimum_Generators(t *testing.T) {
	t.Parallel()
	type user struct {
		ID   int
		Name string
	}
	users := fuzzshrink.SliceOfDistinctBy(fuzzshrink.Compose(func(t *fuzzshrink.T) user {
		return user{fuzzshrink.IntRange(0, 1000).Draw(t, "id"), fuzzshrink.StringMatching(`[a-z]{1,8}`).Draw(t, "name")}
	}), func(u user) int { return u.ID })
	checkMinimum(t, func(t *fuzzshrink.T) {
		if us := users.Draw(t, "us"); len(us) >= 3 {
			t.Fatal("three users")
		}
	}, `us = []user{{Name: "a"}, {ID: 1, Name: "a"}, {ID: 2, Name: "a"}}`)
	perm := fuzzshrink.Permutation([]int{1, 2, 3, 4, 5})
	checkMinimum(t, func(t *fuzzshrink.T) {
		if p := perm.Draw(t, "p"); p[0] > p[4] {
			t.Fatal("reversed ends")
		}
	}, "p = []int{2, 3, 4, 5, 1}")
	ptr := fuzzshrink.Ptr(fuzzshrink.IntRange(0, 1000))
	checkMinimum(t, func(t *fuzzshrink.T) {
		if p := ptr.Draw(t, "p"); p != nil && *p > 10 {
			t.Fatal("large")
		}
	}, "p = new(int(11))")
	phone := fuzzshrink.StringMatching(`\+?[0-9]{3}-[0-9]{4}`)
	checkMinimum(t, func(t *fuzzshrink.T) {
		if s := phone.Draw(t, "s"); s[len(s)-1] == '7' {
			t.Fatal("ends in 7")
		}
	}, `s = "000-0007"`)
	email := fuzzshrink.StringMatching(`[a-z]+@[a-z]+\.(com|org|net)`)
	checkMinimum(t, func(t *fuzzshrink.T) {
		if s := email.Draw(t, "s"); strings.HasSuffix(s, ".net") && strings.Contains(s, "q") {
			t.Fatal("q at .net")
		}
	}, `s = "a@q.net"`, fuzzshrink.Cases(1000))
}
