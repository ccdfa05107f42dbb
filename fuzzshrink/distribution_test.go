package fuzzshrink

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode"
)

// The distributions of the primitives, measured over 10,000 values drawn
// as Check draws them (sizes 0 to 100 in turn), and over 10,000 random
// inputs of a fuzz target. The thresholds are well below the measured
// frequencies, which the test logs.

const distDraws = 10000

// sample draws n values of g, generating as Check does with seed 1.
func sample[V any](g *Gen[V]) []V {
	vs := make([]V, distDraws)
	for i := range vs {
		t := newT(nil, nil, newGenerator(1+uint64(i)*0x9E3779B97F4A7C15, i%101))
		t.capture = true
		vs[i] = g.Draw(t, "v")
	}
	return vs
}

// frequency returns the fraction of vs for which f is true.
func frequency[V any](vs []V, f func(V) bool) float64 {
	n := 0
	for _, v := range vs {
		if f(v) {
			n++
		}
	}
	return float64(n) / float64(len(vs))
}

type measure struct {
	name string
	got  float64
	min  float64 // the test fails below
	max  float64 // and above, if not 0
}

func checkMeasures(t *testing.T, ms []measure) {
	t.Helper()
	for _, m := range ms {
		t.Logf("%-52s %6.2f%%", m.name, 100*m.got)
		if m.got < m.min || m.max > 0 && m.got > m.max {
			t.Errorf("%s: %.2f%%, want [%.2f%%, %.2f%%]", m.name, 100*m.got, 100*m.min, 100*m.max)
		}
	}
}

func TestDistribution_Ints(t *testing.T) {
	t.Parallel()
	wide := sample(Int64Range(math.MinInt64, math.MaxInt64))
	narrow := sample(IntRange(0, 1000))
	around := sample(IntRange(-50, 1000))
	checkMeasures(t, []measure{
		{"IntRange(MinInt64, MaxInt64): |v| < 100", frequency(wide, func(v int64) bool { return v > -100 && v < 100 }), 0.30, 0.60},
		{"IntRange(MinInt64, MaxInt64): v = MinInt64", frequency(wide, func(v int64) bool { return v == math.MinInt64 }), 0.015, 0},
		{"IntRange(MinInt64, MaxInt64): v = MaxInt64", frequency(wide, func(v int64) bool { return v == math.MaxInt64 }), 0.015, 0},
		{"IntRange(MinInt64, MaxInt64): |v| ≥ 2^32", frequency(wide, func(v int64) bool { return v < -1<<32 || v >= 1<<32 }), 0.20, 0},
		{"IntRange(MinInt64, MaxInt64): v < 0", frequency(wide, func(v int64) bool { return v < 0 }), 0.30, 0.70},
		{"IntRange(0, 1000): v = 0", frequency(narrow, func(v int) bool { return v == 0 }), 0.03, 0},
		{"IntRange(0, 1000): v = 1000", frequency(narrow, func(v int) bool { return v == 1000 }), 0.015, 0},
		{"IntRange(0, 1000): v < 10", frequency(narrow, func(v int) bool { return v < 10 }), 0.25, 0},
		{"IntRange(0, 1000): v > 500", frequency(narrow, func(v int) bool { return v > 500 }), 0.10, 0},
		{"IntRange(-50, 1000): v = -50", frequency(around, func(v int) bool { return v == -50 }), 0.015, 0},
	})
}

func TestDistribution_Floats(t *testing.T) {
	t.Parallel()
	fs := sample(Float64())
	unit := sample(Float64Range(0, 1))
	checkMeasures(t, []measure{
		{"Float64(): NaN", frequency(fs, math.IsNaN), 0.003, 0},
		{"Float64(): +Inf", frequency(fs, func(f float64) bool { return math.IsInf(f, 1) }), 0.003, 0},
		{"Float64(): -Inf", frequency(fs, func(f float64) bool { return math.IsInf(f, -1) }), 0.003, 0},
		{"Float64(): -0", frequency(fs, func(f float64) bool { return f == 0 && math.Signbit(f) }), 0.003, 0},
		{"Float64(): subnormal", frequency(fs, func(f float64) bool { return f != 0 && math.Abs(f) < 0x1p-1022 }), 0.003, 0},
		{"Float64(): at least MaxFloat64/2 (a huge threshold)", frequency(fs, func(f float64) bool { return f >= math.MaxFloat64/2 }), 0.02, 0},
		{"Float64(): an integer below 100", frequency(fs, func(f float64) bool { return f == math.Trunc(f) && math.Abs(f) < 100 }), 0.30, 0},
		{"Float64(): a fraction", frequency(fs, func(f float64) bool { return f != math.Trunc(f) }), 0.20, 0},
		{"Float64Range(0, 1): 0", frequency(unit, func(f float64) bool { return f == 0 }), 0.02, 0},
		{"Float64Range(0, 1): 1", frequency(unit, func(f float64) bool { return f == 1 }), 0.01, 0},
		{"Float64Range(0, 1): in (0.1, 0.9)", frequency(unit, func(f float64) bool { return f > 0.1 && f < 0.9 }), 0.20, 0},
	})
}

func TestDistribution_Collections(t *testing.T) {
	t.Parallel()
	bools := sample(Bool())
	slices := sample(SliceOf(Int()))
	runes := sample(Rune())
	checkMeasures(t, []measure{
		{"Bool(): true", frequency(bools, func(b bool) bool { return b }), 0.45, 0.55},
		{"SliceOf(Int()): empty", frequency(slices, func(s []int) bool { return len(s) == 0 }), 0.05, 0.40},
		{"SliceOf(Int()): 10 elements or more", frequency(slices, func(s []int) bool { return len(s) >= 10 }), 0.05, 0.40},
		{"Rune(): printable ASCII", frequency(runes, func(r rune) bool { return r >= ' ' && r < 0x7F }), 0.60, 0.75},
		{"Rune(): a digit or a letter", frequency(runes, func(r rune) bool { return r < 0x7F && unicode.IsLetter(r) || unicode.IsDigit(r) }), 0.30, 0},
		{"Rune(): beyond U+FFFF", frequency(runes, func(r rune) bool { return r > 0xFFFF }), 0.02, 0},
		{"Rune(): two bytes of UTF-8", frequency(runes, func(r rune) bool { return r >= 0x80 && r < 0x800 }), 0.03, 0},
	})
}

// TestDistribution_RandomBytes measures what a fuzzer's random bytes
// decode to: the small tokens and the boundary tokens.
func TestDistribution_RandomBytes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	g := Int64Range(math.MinInt64, math.MaxInt64)
	vs := make([]int64, distDraws)
	for i := range vs {
		data := make([]byte, 9)
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		t := newT(nil, data, nil)
		vs[i] = g.Draw(t, "v")
	}
	checkMeasures(t, []measure{
		{"random bytes, int64: |v| < 112", frequency(vs, func(v int64) bool { return v > -112 && v <= 112 }), 0.80, 0},
		{"random bytes, int64: v = MaxInt64", frequency(vs, func(v int64) bool { return v == math.MaxInt64 }), 0.003, 0},
		{"random bytes, int64: v = MinInt64", frequency(vs, func(v int64) bool { return v == math.MinInt64 }), 0.003, 0},
	})
}

// TestDistribution_Weights: Frequency and Chance generate in proportion to
// their weights, and a recursive OneOf whose recursive alternative comes
// first stays small.
func TestDistribution_Weights(t *testing.T) {
	t.Parallel()
	freq := sample(Frequency(
		Weighted[int]{Weight: 1, Gen: Just(0)},
		Weighted[int]{Weight: 0, Gen: Just(1)},
		Weighted[int]{Weight: 3, Gen: Just(2)},
	))
	chance := sample(Chance(0.1))
	var tree *Gen[[]any]
	tree = OneOf(
		Map(SliceOfN(Deferred(func() *Gen[[]any] { return tree }), 1, 3), func(ks [][]any) []any {
			vs := make([]any, len(ks))
			for i, k := range ks {
				vs[i] = k
			}
			return vs
		}),
		Just([]any(nil)),
	)
	var nodes func(v []any) int
	nodes = func(v []any) int {
		n := 1
		for _, k := range v {
			n += nodes(k.([]any))
		}
		return n
	}
	trees := sample(tree)
	checkMeasures(t, []measure{
		{"Frequency 1:0:3: the first", frequency(freq, func(v int) bool { return v == 0 }), 0.22, 0.28},
		{"Frequency 1:0:3: the weight of 0", frequency(freq, func(v int) bool { return v == 1 }), 0, 1e-9},
		{"Frequency 1:0:3: the third", frequency(freq, func(v int) bool { return v == 2 }), 0.72, 0.78},
		{"Chance(0.1): true", frequency(chance, func(v bool) bool { return v }), 0.08, 0.12},
		{"recursion first: the base case at the top", frequency(trees, func(v []any) bool { return v == nil }), 0.45, 0.55},
		{"recursion first: trees of 20 nodes or fewer", frequency(trees, func(v []any) bool { return nodes(v) <= 20 }), 0.99, 0},
	})
}

// TestDistribution_Permutation: every permutation as often as the others;
// Ptr nil half the time.
func TestDistribution_Permutation(t *testing.T) {
	t.Parallel()
	perms := sample(Permutation([]int{1, 2, 3}))
	ptrs := sample(Ptr(Int()))
	var ms []measure
	for _, p := range [][]int{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}} {
		ms = append(ms, measure{fmt.Sprintf("Permutation: %v", p), frequency(perms, func(v []int) bool { return slices.Equal(v, p) }), 0.15, 0.18})
	}
	ms = append(ms, measure{"Ptr: nil", frequency(ptrs, func(p *int) bool { return p == nil }), 0.47, 0.53})
	checkMeasures(t, ms)
}
