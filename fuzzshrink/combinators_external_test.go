package fuzzshrink_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// shrinkStats returns the runs and the choice sequence of a report.
var (
	runsRE   = regexp.MustCompile(`in (\d+) runs`)
	choiceRE = regexp.MustCompile(`Choice sequence: (.*)`)
)

func shrinkStats(report string) string {
	return runsRE.FindStringSubmatch(report)[1] + " runs, " + choiceRE.FindStringSubmatch(report)[1]
}

// TestMap_ShrinksAsItsGenerator: Map adds no shrink axis: the shrinker makes
// exactly the runs it makes for the generator, projected.
func TestMap_ShrinksAsItsGenerator(t *testing.T) {
	t.Parallel()
	double := fuzzshrink.Map(fuzzshrink.IntRange(0, 1000), func(x int) int { return 2 * x })
	for seed := uint64(1); seed <= seeds; seed++ {
		mapped := check(t, func(t *fuzzshrink.T) {
			if v := double.Draw(t, "v"); v > 50 {
				t.Fatalf("%d", v)
			}
		}, fuzzshrink.Seed(seed))
		plain := check(t, func(t *fuzzshrink.T) {
			if x := fuzzshrink.IntRange(0, 1000).Draw(t, "v"); 2*x > 50 {
				t.Fatalf("%d", 2*x)
			}
		}, fuzzshrink.Seed(seed))
		if got, _ := draws(mapped); got != "v = 52" {
			t.Errorf("seed %d: %s", seed, got)
		}
		if a, b := shrinkStats(mapped), shrinkStats(plain); a != b {
			t.Errorf("seed %d: Map shrinks in %s, its generator in %s", seed, a, b)
		}
	}
}

// TestFlatMap_Axes: shrinking the outer value draws the dependent one again
// from the same choices (it keeps its distance to its bound); the dependent
// value shrinks with the outer one fixed, at the original outer value too.
func TestFlatMap_Axes(t *testing.T) {
	t.Parallel()
	var got [][2]int
	prop := func(t *fuzzshrink.T) { got = append(got, pair.Draw(t, "p")) }
	for _, data := range [][]byte{{0xE1, 0x01, 0x9C, 0xE1, 0x02, 0x3F}, {0x00, 0xE1, 0x02, 0x3F}} {
		fuzzshrink.Replay(data, prop)
	}
	if fmt.Sprint(got) != "[[412 987] [0 575]]" {
		t.Errorf("(412, 987) with the outer choice 0: %v, want [0 575]", got)
	}
	fixed := fuzzshrink.FlatMap(fuzzshrink.NoShrink(fuzzshrink.IntRange(0, 1000)), func(a int) *fuzzshrink.Gen[[2]int] {
		return fuzzshrink.Map(fuzzshrink.IntRange(a, 1000), func(b int) [2]int { return [2]int{a, b} })
	})
	report := check(t, func(t *fuzzshrink.T) {
		if p := fixed.Draw(t, "p"); p[1]-p[0] > 5 {
			t.Fatalf("b - a = %d", p[1]-p[0])
		}
	}, fuzzshrink.Seed(1))
	shrunk, orig := draws(report)
	var a, b int
	fmt.Sscanf(orig, "p = [2]int{%d, %d}", &a, &b)
	if want := fmt.Sprintf("p = [2]int{%d, %d}", a, a+6); shrunk != want {
		t.Errorf("with the outer value fixed, %s shrinks to %s, want %s", orig, shrunk, want)
	}
}

// TestNoShrink_SameDistribution: NoShrink(g) generates what g generates.
func TestNoShrink_SameDistribution(t *testing.T) {
	t.Parallel()
	var a, b []string
	for _, out := range []*[]string{&a, &b} {
		g := fuzzshrink.SliceOf(fuzzshrink.Int())
		if out == &b {
			g = fuzzshrink.NoShrink(g)
		}
		check(t, func(t *fuzzshrink.T) { *out = append(*out, fmt.Sprint(g.Draw(t, "xs"))) }, fuzzshrink.Seed(9))
	}
	if strings.Join(a, " ") != strings.Join(b, " ") || len(a) != 100 {
		t.Errorf("g: %v\nNoShrink(g): %v", a, b)
	}
}

// TestOneOf_TowardEarlierBranches: a value shrinks within its branch and
// toward the first branch.
func TestOneOf_TowardEarlierBranches(t *testing.T) {
	t.Parallel()
	g := fuzzshrink.OneOf(
		fuzzshrink.IntRange(0, 10),
		fuzzshrink.IntRange(100, 200),
		fuzzshrink.Map(fuzzshrink.IntRange(0, 5), func(x int) int { return -x }),
	)
	checkMinimum(t, func(t *fuzzshrink.T) {
		if v := g.Draw(t, "v"); v > 5 {
			t.Fatalf("%d", v)
		}
	}, "v = 6")
	checkMinimum(t, func(t *fuzzshrink.T) {
		if v := g.Draw(t, "v"); v > 50 {
			t.Fatalf("%d", v)
		}
	}, "v = 100")
	checkMinimum(t, func(t *fuzzshrink.T) {
		if v := g.Draw(t, "v"); v < -2 {
			t.Fatalf("%d", v)
		}
	}, "v = -3")
}

// TestOneOf_DepthBound: a recursive OneOf takes its first branch past a
// depth of 100, whatever the data.
func TestOneOf_DepthBound(t *testing.T) {
	t.Parallel()
	var nat *fuzzshrink.Gen[int]
	nat = fuzzshrink.OneOf(fuzzshrink.Just(0), fuzzshrink.Map(fuzzshrink.Deferred(func() *fuzzshrink.Gen[int] { return nat }), func(n int) int { return n + 1 }))
	var got int
	fuzzshrink.Replay([]byte(strings.Repeat("\x01", 1000)), func(t *fuzzshrink.T) { got = nat.Draw(t, "n") })
	if got != 100 {
		t.Errorf("all choices 1: depth %d, want 100", got)
	}
}

func TestCollections_Shrink(t *testing.T) {
	t.Parallel()
	m := fuzzshrink.MapOf(fuzzshrink.IntRange(0, 100), fuzzshrink.IntRange(0, 100))
	checkMinimum(t, func(t *fuzzshrink.T) {
		total := 0
		for _, v := range m.Draw(t, "m") {
			total += v
		}
		if total > 10 {
			t.Fatalf("%d", total)
		}
	}, "m = map[int]int{0: 11}")
	// Sorted, whatever order the failure had.
	checkMinimum(t, func(t *fuzzshrink.T) {
		xs := fuzzshrink.SliceOfN(fuzzshrink.IntRange(0, 100), 2, 10).Draw(t, "xs")
		n := 0
		for _, x := range xs {
			if x >= 10 {
				n++
			}
		}
		if n >= 2 {
			t.Fatalf("%v", xs)
		}
	}, "xs = []int{10, 10}")
	checkMinimum(t, func(t *fuzzshrink.T) {
		if s := fuzzshrink.StringOf(fuzzshrink.RuneFrom([]rune("abc"))).Draw(t, "s"); strings.Count(s, "c") >= 2 {
			t.Fatalf("%q", s)
		}
	}, `s = "cc"`)
}

func TestCompose_Tuples(t *testing.T) {
	t.Parallel()
	interval := fuzzshrink.Compose(func(t *fuzzshrink.T) [2]int {
		lo := fuzzshrink.IntRange(-100, 100).Draw(t, "lo")
		return [2]int{lo, fuzzshrink.IntRange(lo, 100).Draw(t, "hi")}
	})
	checkMinimum(t, func(t *fuzzshrink.T) {
		if iv := interval.Draw(t, "iv"); iv[1]-iv[0] >= 10 && iv[0] < 0 {
			t.Fatalf("%v", iv)
		}
	}, "iv = [2]int{-1, 9}")
}

type config struct {
	Name    string
	Retries int8
	Tags    []string
	Limits  map[string]uint16
	Parent  *config
}

func TestMake(t *testing.T) {
	t.Parallel()
	g := fuzzshrink.Make[config]()
	checkMinimum(t, func(t *fuzzshrink.T) {
		if c := g.Draw(t, "c"); len(c.Tags) >= 2 && c.Retries < 0 {
			// Not the whole value: a string with a newline in it would
			// make the message's last line, the failure's identity, a
			// part of the value.
			t.Fatalf("%d tags, %d retries", len(c.Tags), c.Retries)
		}
	}, `c = config{Retries: -1, Tags: []string{"", ""}}`)
	checkMinimum(t, func(t *fuzzshrink.T) {
		depth := 0
		for c := g.Draw(t, "c"); c.Parent != nil; c = *c.Parent {
			depth++
		}
		if depth >= 2 {
			t.Fatalf("depth %d", depth)
		}
	}, `c = config{Parent: &config{Parent: &config{}}}`)
}

func TestMake_Panics(t *testing.T) {
	t.Parallel()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "fuzzshrink.Make[func()]") {
			t.Errorf("Make[func()] panicked with %v", r)
		}
	}()
	fuzzshrink.Make[func()]()
}
