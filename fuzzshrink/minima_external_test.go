package fuzzshrink_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// A shape is a failure whose exact minimum a greedy pass that changes one
// thing at a time cannot reach: values that must move together, a count
// with what it counts, parts that must grow, recursion, and the
// generators built on collections.
type shape struct {
	name string
	prop func(t *fuzzshrink.T)
	want string // the shrunk draws, every seed
	opts []fuzzshrink.CheckOption
}

// TestMinimum: every shape ends at its exact minimum, every seed.
func TestMinimum(t *testing.T) {
	t.Parallel()
	for _, s := range minimumShapes() {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			checkMinimum(t, s.prop, s.want, s.opts...)
		})
	}
}

// BenchmarkMinimum shrinks each shape's failure with seeds 1 to 20, and
// reports the shrink runs per seed and the seeds that end at the exact
// minimum (go test -run '^$' -bench Minimum ./fuzzshrink).
func BenchmarkMinimum(b *testing.B) {
	for _, s := range minimumShapes() {
		b.Run(s.name, func(b *testing.B) {
			var runs, exact int
			for b.Loop() {
				runs, exact = 0, 0
				for seed := uint64(1); seed <= seeds; seed++ {
					report := check(b, s.prop, append([]fuzzshrink.CheckOption{fuzzshrink.Seed(seed)}, s.opts...)...)
					runs += shrinkRuns(report)
					if got, _ := draws(report); got == s.want {
						exact++
					}
				}
			}
			b.ReportMetric(float64(runs)/seeds, "runs/seed")
			b.ReportMetric(float64(exact), "exact-seeds")
		})
	}
}

func minimumShapes() []shape {
	return slices.Concat(collectionShapes(), numberShapes(), floatShapes(), growShapes(), generatorShapes())
}

// collectionShapes: distinct collections at their minimum size, and a
// length with what follows it.
func collectionShapes() []shape {
	xs := fuzzshrink.SliceOfDistinct(fuzzshrink.Int())
	m := fuzzshrink.MapOf(fuzzshrink.IntRange(0, 1<<40), fuzzshrink.Bool())
	flat := fuzzshrink.FlatMap(fuzzshrink.IntRange(0, 20), func(n int) *fuzzshrink.Gen[[]bool] {
		return fuzzshrink.SliceOfN(fuzzshrink.Bool(), n, n)
	})
	twoTrues := func(bs []bool) bool { return strings.Count(boolString(bs), "t") >= 2 }
	return []shape{
		{"DistinctSlice", func(t *fuzzshrink.T) {
			if v := xs.Draw(t, "xs"); len(v) >= 5 {
				t.Fatalf("%d elements", len(v))
			}
		}, "xs = []int{0, 1, -1, 2, -2}", nil},
		{"DistinctMap", func(t *fuzzshrink.T) {
			if v := m.Draw(t, "m"); len(v) >= 5 {
				t.Fatalf("%d keys", len(v))
			}
		}, "m = map[int]bool{0: false, 1: false, 2: false, 3: false, 4: false}", nil},
		// A length, then that many elements; the bug needs two trues,
		// with falses between them: deleting an element in the middle and
		// lowering the length must happen at once.
		{"LengthFlatMap", func(t *fuzzshrink.T) {
			if bs := flat.Draw(t, "bs"); twoTrues(bs) {
				t.Fatalf("two trues: %v", bs)
			}
		}, "bs = []bool{true, true}", nil},
		{"LengthLoop", func(t *fuzzshrink.T) {
			n := fuzzshrink.IntRange(0, 20).Draw(t, "n")
			bs := make([]bool, n)
			for i := range bs {
				bs[i] = fuzzshrink.Bool().Draw(t, "b")
			}
			if twoTrues(bs) {
				t.Fatalf("two trues: %v", bs)
			}
		}, "n = 2; b = true; b = true", nil},
	}
}

func boolString(bs []bool) string {
	var b strings.Builder
	for _, v := range bs {
		b.WriteString(strconv.FormatBool(v)[:1])
	}
	return b.String()
}

// numberShapes: values that move between draws, a float past a huge
// threshold, and a value next to a draw that does not matter.
func numberShapes() []shape {
	ints := fuzzshrink.IntRange(0, 10000)
	floats := fuzzshrink.Float64Range(0, 10000)
	x := fuzzshrink.IntRange(0, 1e9)
	return []shape{
		{"IntPair", func(t *fuzzshrink.T) {
			if a, b := ints.Draw(t, "a"), ints.Draw(t, "b"); a+b > 1000 {
				t.Fatalf("%d", a+b)
			}
		}, "a = 0; b = 1001", nil},
		{"FloatPair", func(t *fuzzshrink.T) {
			if a, b := floats.Draw(t, "a"), floats.Draw(t, "b"); a+b > 1000 {
				t.Fatalf("%v", a+b)
			}
		}, "a = 0.0; b = 1001.0", nil},
		{"FloatIntPair", func(t *fuzzshrink.T) {
			if a, b := floats.Draw(t, "a"), ints.Draw(t, "b"); a+float64(b) > 1000 {
				t.Fatalf("%v", a+float64(b))
			}
		}, "a = 0.0; b = 1001", nil},
		// Elements of one byte each that must become one element of
		// three ([9 223 223 223 223]: no pair can move past 223 without
		// growing).
		{"IntListSum", func(t *fuzzshrink.T) {
			if xs := fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 1000)).Draw(t, "xs"); sumInts(xs) > 900 {
				t.Fatalf("sum %d", sumInts(xs))
			}
		}, "xs = []int{901}", nil},
		{"HugeFloat", func(t *fuzzshrink.T) {
			if f := fuzzshrink.Float64().Draw(t, "f"); f >= math.MaxFloat64/2 {
				t.Fatal("too large")
			}
		}, "f = 8.988465674311579e+307", []fuzzshrink.CheckOption{fuzzshrink.Cases(1000)}},
		// x, then a draw that does not matter: x ends at 1 by a binary
		// search, not one unit a run (TestMinimum_NoLinearWalk).
		{"WalkInt", func(t *fuzzshrink.T) {
			v := x.Draw(t, "x")
			fuzzshrink.IntRange(0, 1e9).Draw(t, "y")
			if v >= 1 {
				t.Fatalf("x = %d", v)
			}
		}, "x = 1; y = 0", nil},
		{"WalkBool", func(t *fuzzshrink.T) {
			v := x.Draw(t, "x")
			fuzzshrink.Bool().Draw(t, "y")
			if v >= 1 {
				t.Fatalf("x = %d", v)
			}
		}, "x = 1; y = false", nil},
	}
}

// floatShapes: the float minima Hypothesis's own tests pin
// (tests/nocover/test_simple_numbers.py, tests/quality/test_float_shrinking.py
// and test_shrink_quality.py): integers before fractions, and integers by
// magnitude, 1000 before 2⁹⁶.
func floatShapes() []shape {
	fails := func(name string, g *fuzzshrink.Gen[float64], bad func(float64) bool, want string) shape {
		return shape{name, func(t *fuzzshrink.T) {
			if x := g.Draw(t, "x"); bad(x) {
				t.Fatalf("x = %v", x)
			}
		}, want, []fuzzshrink.CheckOption{fuzzshrink.Cases(1000)}}
	}
	var shapes []shape
	for k := range 10 {
		n := math.Pow(10, float64(k))
		shapes = append(shapes,
			fails(fmt.Sprintf("FromZero1e%d", k), fuzzshrink.Float64Range(0, math.Inf(1)), func(x float64) bool { return x >= n }, "x = "+fuzzshrinkFloat(n)),
			fails(fmt.Sprintf("ToZero1e%d", k), fuzzshrink.Float64Range(math.Inf(-1), 0), func(x float64) bool { return x <= -n }, "x = "+fuzzshrinkFloat(-n)))
	}
	floats, bounded := fuzzshrink.Float64(), fuzzshrink.Float64Range(0, 1000)
	nonNegative := floats.Filter(func(x float64) bool { return x >= 0 })
	sum := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	}
	return append(shapes,
		fails("FilteredFromZero", nonNegative, func(x float64) bool { return x >= 1000 }, "x = 1000.0"),
		fails("Above1.5", floats, func(x float64) bool { return x >= 1.5 }, "x = 2.0"),
		fails("Above1", floats, func(x float64) bool { return x > 1 }, "x = 2.0"),
		fails("Above0", floats, func(x float64) bool { return x > 0 }, "x = 1.0"),
		fails("BelowMinus1", floats, func(x float64) bool { return x <= -1 }, "x = -1.0"),
		fails("Infinite", floats, func(x float64) bool { return math.IsInf(x, 0) }, "x = math.Inf(1)"),
		fails("InRangeAbove2", fuzzshrink.Float64Range(1, 9), func(x float64) bool { return x > 2 }, "x = 3.0"),
		fails("NoIntegerInRange", fuzzshrink.Float64Range(1.1, 1.6), func(float64) bool { return true }, "x = 1.5"),
		fails("LastExactInteger", floats, func(x float64) bool { return x+1 == x && !math.IsInf(x, 0) }, "x = 9.007199254740992e+15"),
		shape{"BoundedFloatPair", func(t *fuzzshrink.T) {
			if a, b := bounded.Draw(t, "a"), bounded.Draw(t, "b"); a+b > 1000 {
				t.Fatalf("%v", a+b)
			}
		}, "a = 1.0; b = 1000.0", nil},
		shape{"BoundedFloatIntPair", func(t *fuzzshrink.T) {
			if a, b := bounded.Draw(t, "a"), fuzzshrink.IntRange(0, 1000).Draw(t, "b"); a+float64(b) > 1000 {
				t.Fatalf("%v", a+float64(b))
			}
		}, "a = 1.0; b = 1000", nil},
		shape{"FloatListSum", func(t *fuzzshrink.T) {
			if xs := fuzzshrink.SliceOfN(floats, 5, -1).Draw(t, "xs"); sum(xs) >= 1 {
				t.Fatalf("sum %v", sum(xs))
			}
		}, "xs = []float64{0, 0, 0, 0, 1}", nil},
		shape{"FloatListFractional", func(t *fuzzshrink.T) {
			xs := fuzzshrink.SliceOfN(floats, 5, -1).Draw(t, "xs")
			if n := len(slices.DeleteFunc(slices.Clone(xs), func(x float64) bool { return x < 1.5 })); n >= 5 {
				t.Fatalf("%d of at least 1.5", n)
			}
		}, "xs = []float64{2, 2, 2, 2, 2}", nil},
	)
}

// fuzzshrinkFloat formats a float as a report shows a float draw.
func fuzzshrinkFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// node is a tree, for the recursive shapes.
type node struct {
	Kids []node
	Leaf int
}

// growShapes: shrinks that make one part larger to make the whole
// smaller.
func growShapes() []shape {
	nested := fuzzshrink.SliceOf(fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 0)))
	lists := fuzzshrink.SliceOf(fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 100)))
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
	return []shape{
		{"FlattenLists", func(t *fuzzshrink.T) {
			total := 0
			for _, xs := range nested.Draw(t, "xss") {
				total += len(xs)
			}
			if total >= 20 {
				t.Fatalf("%d leaves", total)
			}
		}, "xss = [][]int{{" + strings.TrimSuffix(strings.Repeat("0, ", 20), ", ") + "}}", nil},
		{"FlattenTree", func(t *fuzzshrink.T) {
			if e := tree.Draw(t, "e"); leaves(e) >= 8 {
				t.Fatalf("%d leaves", leaves(e))
			}
		}, "e = node{Kids: []node{{}, {}, {}, {}, {}, {}, {}, {}}}", []fuzzshrink.CheckOption{fuzzshrink.Cases(1000)}},
		{"FlattenTree20", func(t *fuzzshrink.T) {
			if e := tree.Draw(t, "e"); leaves(e) >= 20 {
				t.Fatalf("%d leaves", leaves(e))
			}
		}, "e = node{Kids: []node{" + strings.TrimSuffix(strings.Repeat("{}, ", 20), ", ") + "}}", []fuzzshrink.CheckOption{fuzzshrink.Cases(1000)}},
		{"MergeLists", func(t *fuzzshrink.T) {
			seen := map[int]bool{}
			for _, xs := range lists.Draw(t, "xss") {
				for _, x := range xs {
					seen[x] = true
				}
			}
			if len(seen) >= 10 {
				t.Fatalf("%d distinct", len(seen))
			}
		}, "xss = [][]int{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}", nil},
		{"RunLength", func(t *fuzzshrink.T) {
			s := fuzzshrink.String().Draw(t, "s")
			if rle := decodeRLE(encodeRLE(s)); rle != s {
				t.Fatalf("%q round-trips to %q", s, rle)
			}
		}, `s = "001"`, nil},
	}
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

// generatorShapes: a recursive OneOf whose recursive alternative comes
// first, and the generators built on collections and choices, which
// shrink as well as what they build on.
func generatorShapes() []shape {
	var tree *fuzzshrink.Gen[node]
	tree = fuzzshrink.OneOf(
		fuzzshrink.Map(fuzzshrink.SliceOfN(fuzzshrink.Deferred(func() *fuzzshrink.Gen[node] { return tree }), 1, 3), func(ks []node) node { return node{Kids: ks} }),
		fuzzshrink.Map(fuzzshrink.IntRange(0, 100), func(n int) node { return node{Leaf: n} }),
	)
	var depth func(e node) int
	depth = func(e node) int {
		d := 0
		for _, k := range e.Kids {
			d = max(d, depth(k))
		}
		return d + 1
	}
	type user struct {
		ID   int
		Name string
	}
	users := fuzzshrink.SliceOfDistinctBy(fuzzshrink.Compose(func(t *fuzzshrink.T) user {
		return user{fuzzshrink.IntRange(0, 1000).Draw(t, "id"), fuzzshrink.StringMatching(`[a-z]{1,8}`).Draw(t, "name")}
	}), func(u user) int { return u.ID })
	perm := fuzzshrink.Permutation([]int{1, 2, 3, 4, 5})
	ptr := fuzzshrink.Ptr(fuzzshrink.IntRange(0, 1000))
	phone := fuzzshrink.StringMatching(`\+?[0-9]{3}-[0-9]{4}`)
	email := fuzzshrink.StringMatching(`[a-z]+@[a-z]+\.(com|org|net)`)
	// Hypothesis's large branching tree: an integer, or a tuple of five
	// trees; in its bad form the tuple comes first.
	branching := func(tupleFirst bool) *fuzzshrink.Gen[node] {
		var t5 *fuzzshrink.Gen[node]
		kid := fuzzshrink.Deferred(func() *fuzzshrink.Gen[node] { return t5 })
		tuple := fuzzshrink.Compose(func(t *fuzzshrink.T) node {
			ks := make([]node, 5)
			for i := range ks {
				ks[i] = kid.Draw(t, "")
			}
			return node{Kids: ks}
		})
		leaf := fuzzshrink.Map(fuzzshrink.Int(), func(n int) node { return node{Leaf: n} })
		t5 = fuzzshrink.OneOf(leaf, tuple)
		if tupleFirst {
			t5 = fuzzshrink.OneOf(tuple, leaf)
		}
		return t5
	}
	isTuple := func(g *fuzzshrink.Gen[node]) func(t *fuzzshrink.T) {
		return func(t *fuzzshrink.T) {
			if e := g.Draw(t, "e"); e.Kids != nil {
				t.Fatal("a tuple")
			}
		}
	}
	return []shape{
		{"LargeBranchingTree", isTuple(branching(false)), "e = node{Kids: []node{{}, {}, {}, {}, {}}}", nil},
		{"BadBranchingTree", isTuple(branching(true)), "e = node{Kids: []node{{}, {}, {}, {}, {}}}", nil},
		{"RecursionFirst", func(t *fuzzshrink.T) {
			if e := tree.Draw(t, "e"); depth(e) >= 3 {
				t.Fatalf("depth %d", depth(e))
			}
		}, "e = node{Kids: []node{{Kids: []node{{}}}}}", nil},
		{"SliceOfDistinctBy", func(t *fuzzshrink.T) {
			if us := users.Draw(t, "us"); len(us) >= 3 {
				t.Fatal("three users")
			}
		}, `us = []user{{Name: "a"}, {ID: 1, Name: "a"}, {ID: 2, Name: "a"}}`, nil},
		{"Permutation", func(t *fuzzshrink.T) {
			if p := perm.Draw(t, "p"); p[0] > p[4] {
				t.Fatal("reversed ends")
			}
		}, "p = []int{2, 3, 4, 5, 1}", nil},
		{"Ptr", func(t *fuzzshrink.T) {
			if p := ptr.Draw(t, "p"); p != nil && *p > 10 {
				t.Fatal("large")
			}
		}, "p = new(int(11))", nil},
		// Letters are scattered over the runes past the Basic
		// Multilingual Plane: U+10000 is one, and so are runs after gaps.
		{"AstralLetter", func(t *fuzzshrink.T) {
			for _, r := range fuzzshrink.String().Draw(t, "s") {
				if r > 0xFFFF && unicode.IsLetter(r) {
					t.Fatal("an astral letter")
				}
			}
		}, `s = "𐀀"`, nil},
		{"StringMatchingPhone", func(t *fuzzshrink.T) {
			if s := phone.Draw(t, "s"); s[len(s)-1] == '7' {
				t.Fatal("ends in 7")
			}
		}, `s = "000-0007"`, nil},
		{"StringMatchingEmail", func(t *fuzzshrink.T) {
			if s := email.Draw(t, "s"); strings.HasSuffix(s, ".net") && strings.Contains(s, "q") {
				t.Fatal("q at .net")
			}
		}, `s = "a@q.net"`, []fuzzshrink.CheckOption{fuzzshrink.Cases(1000)}},
		// Hypothesis's nasty-string shrink: a failure that only a text
		// outside the Basic Multilingual Plane shows, found by a string
		// drawn whole, shrinks as any string.
		{"NastyString", func(t *fuzzshrink.T) {
			if s := fuzzshrink.String().Draw(t, "s"); strings.Contains(s, "𝕿𝖍𝖊") {
				t.Fatal("The")
			}
		}, `s = "𝕿𝖍𝖊"`, []fuzzshrink.CheckOption{fuzzshrink.Cases(10000)}},
	}
}

// TestMinimum_NoLinearWalk: with x drawn, then another draw that does not
// matter, and a failure whenever x >= 1, x ends at 1 in runs logarithmic in
// x, not one run per unit.
func TestMinimum_NoLinearWalk(t *testing.T) {
	t.Parallel()
	for _, s := range numberShapes() {
		if !strings.HasPrefix(s.name, "Walk") {
			continue
		}
		for seed := uint64(1); seed <= seeds; seed++ {
			report := check(t, s.prop, fuzzshrink.Seed(seed))
			if runs := shrinkRuns(report); runs > 400 {
				t.Errorf("%s, seed %d: %d runs: not logarithmic in x\n%s", s.name, seed, runs, report)
			}
		}
	}
}

// shrinkRuns reads the runs a report says the shrinking took.
func shrinkRuns(report string) int {
	m := runsLine.FindStringSubmatch(report)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

var runsLine = regexp.MustCompile(`(?m)^Shrunk from .* in (\d+) runs`)
