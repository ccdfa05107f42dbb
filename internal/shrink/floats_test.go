package shrink

import (
	"math"
	"slices"
	"testing"
)

func TestShrinkFloat_Candidates(t *testing.T) {
	t.Parallel()
	inf := math.Inf(1)
	for _, tc := range []struct {
		v    any
		want []any
	}{
		{123.456, []any{0.0, 123.0, 124.0, 0.456, 3.456, 23.456, 100.0, 120.0, 123.0, 123.5, 123.46}},
		{-98.76, []any{0.0, 98.76, -98.0, -99.0, -0.76, -8.76, -100.0, -99.0, -98.8}},
		{math.NaN(), []any{0.0, 1.0, -1.0, math.MaxFloat64, -math.MaxFloat64, inf, -inf}},
		{-inf, []any{0.0, 1.0, -1.0, math.MaxFloat64, -math.MaxFloat64, inf}},
		{inf, []any{0.0, 1.0, -1.0, math.MaxFloat64, -math.MaxFloat64}},
		{float32(inf), []any{float32(0), float32(1), float32(-1), float32(math.MaxFloat32), float32(-math.MaxFloat32)}},
		{float32(0.1), []any{float32(0)}},
		{math.Copysign(0, -1), []any{0.0}},
		{0.0, nil},
		{-4.0, []any{0.0, 4.0, -2.0, -3.0}},
		// Above 2²⁴ the binary search is on indices: 2²⁵ is index 2²⁴+2²³.
		{float32(1 << 25), []any{float32(0), float32(12582912), float32(1<<24 + 1<<22)}},
	} {
		got := candidates(floatArg, tc.v, pos{})
		if len(got) > len(tc.want) && len(tc.want) > 0 {
			got = got[:len(tc.want)]
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("floatArg(%T(%v)) = %v, want %v", tc.v, tc.v, got, tc.want)
		}
	}
}

func TestIntIndex(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    float64
		bits int
		want uint64
	}{
		{0, 64, 0}, {1, 64, 1}, {1<<53 - 1, 64, 1<<53 - 1}, {1 << 53, 64, 1 << 53},
		{1<<53 + 2, 64, 1<<53 + 1}, {1<<53 + 4, 64, 1<<53 + 2}, {1<<54 + 4, 64, 1<<53 + 1<<52 + 1},
		{0, 32, 0}, {1 << 24, 32, 1 << 24}, {1<<24 + 2, 32, 1<<24 + 1},
	} {
		if got := intIndex(tc.f, tc.bits); got != tc.want {
			t.Errorf("intIndex(%v, %d) = %d, want %d", tc.f, tc.bits, got, tc.want)
		}
	}
	// The index is a bijection onto the integer-valued floats, increasing.
	for _, bits := range []int{32, 64} {
		maxf := math.MaxFloat64
		if bits == 32 {
			maxf = math.MaxFloat32
		}
		prev, prevF := uint64(0), 0.0
		for _, f := range []float64{1, 2, 1e7, 1 << 24, 1<<24 + 2, 1e15, 1 << 53, 1<<53 + 2, 1e20, 1e38, 1e300, maxf} {
			if f > maxf {
				continue
			}
			if bits == 32 {
				f = float64(float32(f))
			}
			if f == prevF {
				continue
			}
			prevF = f
			i := intIndex(f, bits)
			if back := fromIntIndex(i, bits); back != f || i <= prev {
				t.Errorf("bits %d: intIndex(%v) = %d (previous %d), back %v", bits, f, i, prev, back)
			}
			prev = i
		}
	}
}

func TestShrinkFloat_NaNTerminates(t *testing.T) {
	t.Parallel()
	for _, nan := range []any{math.NaN(), math.Float64frombits(0x7ff8000000000001), float32(math.NaN())} {
		for _, c := range candidates(floatArg, nan, pos{}) {
			if f, ok := toFloat(c); !ok || math.IsNaN(f) {
				t.Errorf("NaN shrinks to %v", c)
			}
		}
	}
}

var floatSeeds = []float64{0, 1, -1, 0.5, 123.456, -98.76, 1e300, -1e-300, math.MaxFloat64, math.SmallestNonzeroFloat64,
	math.Inf(1), math.Inf(-1), math.NaN(), 1 << 53, 1<<53 + 2, math.Pi}

// FuzzShrinkFloat64 checks that the float64 shrinker's candidates are
// strictly smaller, from any bit pattern.
func FuzzShrinkFloat64(f *testing.F) {
	for _, s := range floatSeeds {
		f.Add(math.Float64bits(s))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		checkCandidates(t, []any{math.Float64frombits(bits)}, 2, 80)
	})
}

// FuzzShrinkFloat32 is FuzzShrinkFloat64 for float32.
func FuzzShrinkFloat32(f *testing.F) {
	for _, s := range floatSeeds {
		f.Add(math.Float32bits(float32(s)))
	}
	f.Fuzz(func(t *testing.T, bits uint32) {
		checkCandidates(t, []any{math.Float32frombits(bits)}, 2, 80)
	})
}
