package shrink

import (
	"iter"
	"math"
	"strconv"
	"strings"
)

// floatArg shrinks float32 and float64 values. A float32 is shrunk as a
// float32: every candidate is exactly representable in 32 bits, and digit
// counts are those of its shortest 32-bit representation.
func floatArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case float64:
		return boxed(shrinkFloat(x, 64, from))
	case float32:
		return func(yield func(pos, any) bool) {
			for p, f := range shrinkFloat(float64(x), 32, from) {
				if !yield(p, float32(f)) {
					return
				}
			}
		}
	}
	return nil
}

// shrinkFloat yields floats smaller than f (of the given bit size) in the
// order of compareFloat.
//
// An integer-valued f is shrunk like an integer: zero, its positive
// counterpart, then a binary search toward zero keeping the sign (cursor
// pos.s), on the index of its magnitude among the integer-valued floats
// (see [intIndex]), so that the search is exact beyond 2⁵³ too.
//
// Any other f (non-integers, ±Inf, NaN) tries a short list of candidates,
// each filtered to be strictly smaller than f; an accepted candidate
// restarts the list on the new value (cursor zero) and the cache skips
// what was tried already:
//   - ±Inf and NaN: 0, 1, -1, ±MaxFloat, +Inf, -Inf (no NaN: NaN never shrinks to NaN);
//   - non-integers: 0; -f if negative; the integers on either side of f,
//     toward zero first (3 and 4 for π: integers are smaller than any
//     non-integer, whatever their magnitude); f without its leading integer
//     digits (123.456 → 0.456, 3.456, 23.456); f rounded to 1, 2, …, n-1
//     significant digits; and the halves m+0.5 for m = 0 and a binary
//     sequence of integers up to f's integer part, the simplest
//     non-integers of each magnitude (6.8 → 0.5, 3.5, 5.5, 6.5: with
//     x > 2 failing, 3.5 is accepted, and then 2.5, where the halves of
//     3.5's list stop).
//
// The search over precision (rounding) and over value (the halves, then
// the same lists from each accepted value) reaches the simplest decimal of
// a threshold: x > 2 && x not whole ends at 2.5, which has fewer significant
// digits than any non-integer but ties them with 2.1 and beats it on bits.
// Among non-integers as simple, smaller magnitudes are smaller in the order
// but not pursued further: the smallest would be a subnormal like 5e-324,
// which no reader wants to see.
func shrinkFloat(f float64, bits int, from pos) iter.Seq2[pos, float64] {
	return func(yield func(pos, float64) bool) {
		if floatClass(f) == classInteger {
			neg, idx := math.Signbit(f), intIndex(math.Abs(f), bits)
			for s, m := range magnitudes(neg, idx, idx, from.s) {
				if !yield(pos{s: s}, math.Copysign(fromIntIndex(m.mag, bits), signOf(m.neg))) {
					return
				}
			}
			return
		}
		for _, c := range floatCandidates(f, bits) {
			if compareFloat(c, f, bits) < 0 && !yield(pos{}, c) {
				return
			}
		}
	}
}

func signOf(neg bool) float64 {
	if neg {
		return -1
	}
	return 1
}

func floatCandidates(f float64, bits int) []float64 {
	maxf := math.MaxFloat64
	if bits == 32 {
		maxf = math.MaxFloat32
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []float64{0, 1, -1, maxf, -maxf, math.Inf(1), math.Inf(-1)}
	}
	tr := math.Trunc(f)
	cs := []float64{0, math.Abs(f), tr, tr + math.Copysign(1, f)}
	// Drop leading integer digits, most first, in the shortest fixed-point
	// representation of |f|.
	s := strconv.FormatFloat(math.Abs(f), 'f', -1, bits)
	if dot := strings.IndexByte(s, '.'); dot > 0 {
		for keep := range dot {
			t := s[dot-keep:]
			if keep == 0 {
				t = "0" + t
			}
			if c, err := strconv.ParseFloat(t, bits); err == nil {
				cs = append(cs, math.Copysign(c, f))
			}
		}
	}
	for k := 1; k < sigDigits(f, bits); k++ {
		t := strconv.FormatFloat(f, 'e', k-1, bits)
		if c, err := strconv.ParseFloat(t, bits); err == nil {
			cs = append(cs, c)
		}
	}
	// Halves up to the integer part: exact below 2⁵² (2²³ for float32),
	// above which no float is a non-integer.
	if h := math.Abs(tr); h < 1<<23 || bits == 64 && h < 1<<52 {
		for _, m := range magnitudes(false, uint64(h), uint64(h), magSearch{}) {
			cs = append(cs, math.Copysign(float64(m.mag)+0.5, f))
		}
		cs = append(cs, math.Copysign(h+0.5, f))
	}
	return cs
}

// intIndex maps an integer-valued float magnitude m to its index among the
// integer-valued floats of the bit size, in increasing order: up to 2⁵³ (2²⁴
// for float32) every integer is a float and is its own index; above, the
// floats are all integers and consecutive floats have consecutive bit
// patterns. A binary search on indices therefore visits only exactly
// representable integers, and takes at most 64 steps even from MaxFloat64.
func intIndex(m float64, bits int) uint64 {
	if bits == 32 {
		if m <= 1<<24 {
			return uint64(m)
		}
		return 1<<24 + uint64(math.Float32bits(float32(m))-math.Float32bits(1<<24))
	}
	if m <= 1<<53 {
		return uint64(m)
	}
	return 1<<53 + math.Float64bits(m) - math.Float64bits(1<<53)
}

// fromIntIndex is the inverse of intIndex.
func fromIntIndex(i uint64, bits int) float64 {
	if bits == 32 {
		if i <= 1<<24 {
			return float64(i)
		}
		return float64(math.Float32frombits(math.Float32bits(1<<24) + uint32(i-1<<24)))
	}
	if i <= 1<<53 {
		return float64(i)
	}
	return math.Float64frombits(math.Float64bits(1<<53) + i - 1<<53)
}
