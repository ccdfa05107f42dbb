package fuzzshrink_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// A recorder is a testing.TB for Check that records its report instead of
// failing. Check calls only the methods it defines.
type recorder struct {
	testing.TB
	name   string
	report string
	logs   []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Name() string      { return r.name }
func (r *recorder) Fatal(args ...any) { r.report = fmt.Sprint(args...) }
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

// check runs Check with a recorder, nothing persisted unless opts say so,
// and returns the report ("" if the property held).
func check(t testing.TB, prop func(*fuzzshrink.T), opts ...fuzzshrink.CheckOption) string {
	t.Helper()
	r := &recorder{name: t.Name()}
	fuzzshrink.Check(r, prop, append([]fuzzshrink.CheckOption{fuzzshrink.CorpusDir("")}, opts...)...)
	return r.report
}

var drawLine = regexp.MustCompile(`^    (\w+) = (.*)$`)

// draws returns the draws of a report: the shrunk ones, and the original
// ones, each "label = value" joined by "; ".
func draws(report string) (shrunk, original string) {
	var s, o []string
	cur := &s
	for _, l := range strings.Split(report, "\n") {
		if strings.HasPrefix(l, "Shrunk from") {
			cur = &o
		}
		if m := drawLine.FindStringSubmatch(l); m != nil {
			*cur = append(*cur, m[1]+" = "+m[2])
		}
	}
	return strings.Join(s, "; "), strings.Join(o, "; ")
}

// seeds is how many seeds each exact result is checked with.
const seeds = 20

// checkMinimum checks that every seed shrinks the failure of prop to want.
func checkMinimum(t *testing.T, prop func(*fuzzshrink.T), want string, opts ...fuzzshrink.CheckOption) {
	t.Helper()
	for seed := uint64(1); seed <= seeds; seed++ {
		report := check(t, prop, append([]fuzzshrink.CheckOption{fuzzshrink.Seed(seed)}, opts...)...)
		if got, orig := draws(report); got != want {
			t.Errorf("seed %d: shrunk %s (from %s), want %s\n%s", seed, got, orig, want, report)
		}
	}
}

func sumInts(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// pair is FlatMap(IntRange(0, 1000), a → (a, IntRange(a, 1000))).
var pair = fuzzshrink.FlatMap(fuzzshrink.IntRange(0, 1000), func(a int) *fuzzshrink.Gen[[2]int] {
	return fuzzshrink.Map(fuzzshrink.IntRange(a, 1000), func(b int) [2]int { return [2]int{a, b} })
})

func pairProp(t *fuzzshrink.T) {
	p := pair.Draw(t, "p")
	if p[1]-p[0] > 5 {
		t.Fatalf("b - a = %d", p[1]-p[0])
	}
}

func TestAcceptance_FlatMapPair(t *testing.T) {
	t.Parallel()
	checkMinimum(t, pairProp, "p = [2]int{0, 6}")
}

// TestAcceptance_FlatMapPairFrom412 shrinks the failure (412, 987), a
// persisted choice sequence that Check replays first.
func TestAcceptance_FlatMapPairFrom412(t *testing.T) {
	t.Parallel()
	// a = 412: rank 412, a token of two payload bytes; b = 987: rank 575 in [412, 1000].
	b, err := encoding.Marshal([]byte{0xE1, 0x01, 0x9C, 0xE1, 0x02, 0x3F})
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		dir := t.TempDir() // the shrunk failure is persisted too
		if err := os.WriteFile(filepath.Join(dir, "original"), b, 0o666); err != nil {
			t.Fatal(err)
		}
		report := check(t, pairProp, fuzzshrink.Seed(seed), fuzzshrink.CorpusDir(dir))
		got, orig := draws(report)
		if want := "p = [2]int{0, 6}"; got != want || orig != "p = [2]int{412, 987}" {
			t.Fatalf("shrunk %s from %s, want %s from (412, 987)\n%s", got, orig, want, report)
		}
		if !strings.Contains(report, "Shrunk from the persisted failure "+filepath.Join(dir, "original")) {
			t.Fatalf("the failure did not come from the file:\n%s", report)
		}
	}
}

func sizedList(n *fuzzshrink.Gen[int]) *fuzzshrink.Gen[[]int] {
	return fuzzshrink.FlatMap(n, func(n int) *fuzzshrink.Gen[[]int] {
		return fuzzshrink.SliceOfN(fuzzshrink.IntRange(0, 9), n, n)
	})
}

func TestAcceptance_SizedList(t *testing.T) {
	t.Parallel()
	g := sizedList(fuzzshrink.IntRange(1, 5))
	checkMinimum(t, func(t *fuzzshrink.T) {
		if xs := g.Draw(t, "xs"); sumInts(xs) > 10 {
			t.Fatalf("sum %d", sumInts(xs))
		}
	}, "xs = []int{2, 9}")
}

// TestAcceptance_SizedListNoShrink keeps the generated size: only the
// elements shrink, to the smallest list of that size: zeros, then 2, 9.
func TestAcceptance_SizedListNoShrink(t *testing.T) {
	t.Parallel()
	g := sizedList(fuzzshrink.NoShrink(fuzzshrink.IntRange(1, 5)))
	sizes := map[int]bool{}
	for seed := uint64(1); seed <= seeds; seed++ {
		report := check(t, func(t *fuzzshrink.T) {
			if xs := g.Draw(t, "xs"); sumInts(xs) > 10 {
				t.Fatalf("sum %d", sumInts(xs))
			}
		}, fuzzshrink.Seed(seed))
		got, orig := draws(report)
		n := strings.Count(orig, ",") + 1
		sizes[n] = true
		want := "xs = []int{" + strings.Repeat("0, ", n-2) + "2, 9}"
		if got != want {
			t.Errorf("seed %d: shrunk %s from %s, want %s", seed, got, orig, want)
		}
	}
	if len(sizes) < 2 {
		t.Errorf("the failures had sizes %v: the test shows little", sizes)
	}
}

func TestAcceptance_Filter(t *testing.T) {
	t.Parallel()
	g := fuzzshrink.IntRange(0, 100).Filter(func(n int) bool { return n%7 == 0 })
	checkMinimum(t, func(t *fuzzshrink.T) {
		if n := g.Draw(t, "n"); n > 50 {
			t.Fatalf("%d > 50", n)
		}
	}, "n = 56")
}

func TestAcceptance_Sum(t *testing.T) {
	t.Parallel()
	g := fuzzshrink.SliceOf(fuzzshrink.Int())
	checkMinimum(t, func(t *fuzzshrink.T) {
		if xs := g.Draw(t, "xs"); sumInts(xs) > 100 {
			t.Fatalf("sum %d > 100", sumInts(xs))
		}
	}, "xs = []int{101}")
}

func TestAcceptance_Set(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		elems *fuzzshrink.Gen[int]
		want  string
	}{
		{fuzzshrink.IntRange(0, 1000), "xs = []int{0, 1, 2}"},
		// Signed integers shrink to 0, then 1, then -1 (positive first).
		{fuzzshrink.Int(), "xs = []int{0, 1, -1}"},
	} {
		g := fuzzshrink.SliceOfDistinct(tt.elems)
		checkMinimum(t, func(t *fuzzshrink.T) {
			if xs := g.Draw(t, "xs"); len(xs) >= 3 {
				t.Fatalf("%d elements", len(xs))
			}
		}, tt.want)
	}
}

// An expression tree whose evaluator divides by zero.
type (
	Expr interface{ eval() int }
	Lit  int
	Add  struct{ L, R Expr }
	Div  struct{ L, R Expr }
)

func (l Lit) eval() int { return int(l) }
func (a Add) eval() int { return a.L.eval() + a.R.eval() }
func (d Div) eval() int { return d.L.eval() / d.R.eval() }

var expr *fuzzshrink.Gen[Expr]

func init() {
	sub := fuzzshrink.Deferred(func() *fuzzshrink.Gen[Expr] { return expr })
	expr = fuzzshrink.OneOf(
		fuzzshrink.Map(fuzzshrink.IntRange(0, 100), func(n int) Expr { return Lit(n) }),
		fuzzshrink.Compose(func(t *fuzzshrink.T) Expr { return Add{sub.Draw(t, "l"), sub.Draw(t, "r")} }),
		fuzzshrink.Compose(func(t *fuzzshrink.T) Expr { return Div{sub.Draw(t, "l"), sub.Draw(t, "r")} }),
	)
}

func TestAcceptance_ExprTree(t *testing.T) {
	t.Parallel()
	checkMinimum(t, func(t *fuzzshrink.T) {
		expr.Draw(t, "e").eval()
	}, "e = Div{L: Lit(0), R: Lit(0)}")
}
