package shrink

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCompareArgs(t *testing.T) {
	t.Parallel()
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	// Each row is strictly increasing.
	for _, row := range [][][]any{
		{{false}, {true}},
		{{0}, {1}, {-1}, {2}, {-2}, {math.MaxInt}, {math.MinInt}},
		{{int64(math.MaxInt64)}, {int64(math.MinInt64)}},
		{{int8(127)}, {int8(-127)}, {int8(-128)}},
		{{uint64(0)}, {uint64(1)}, {uint64(math.MaxUint64)}},
		{{0.0}, {negZero}, {1.0}, {-1.0}, {1e300}, {0.5}, {-0.5}, {0.1}, {0.25}, {2.5}, {2.1}, {1.25}, {123.456}, {inf}, {-inf}, {nan}},
		{{float32(2)}, {float32(0.1)}, {float32(0.12)}, {float32(math.Inf(1))}},
		// The printable-first order of characters.
		{{""}, {"0"}, {"9"}, {"a"}, {"z"}, {"A"}, {"Z"}, {" "}, {"!"}, {"~"}, {"\x00"}, {"\x1f"}, {"\x7f"}, {"\x80"},
			{"00"}, {"0a"}, {"a0"}, {"é"}, {"\x00\x00"}, {"aaa"}, {"世"}},
		// Binary data after text, by value.
		{{[]byte{}}, {[]byte("0")}, {[]byte{0}}, {[]byte{255}}, {[]byte("00")}, {[]byte{0, 1}}, {[]byte{0, '0'}}, {[]byte{1, 0}}, {[]byte{'0', 0}}},
		// Size first, across arguments, then left to right.
		{{"", 1000}, {"a", 0}},
		{{"ab", ""}, {"a", "bc"}, {"b", "aa"}},
		{{0, true}, {1, false}},
		{{[]byte{9}, ""}, {[]byte{}, "aa"}},
	} {
		for i := range row {
			for j := range row {
				if got, want := compareArgs(row[i], row[j]), cmpInt(i, j); got != want {
					t.Errorf("compareArgs(%#v, %#v) = %d, want %d", row[i], row[j], got, want)
				}
			}
		}
	}
	if c := compareArgs([]any{nan}, []any{math.Float64frombits(math.Float64bits(nan) ^ 1)}); c != 0 {
		t.Errorf("distinct NaNs compare %d, want 0", c)
	}
	if c := compareArgs([]any{float32(0.1)}, []any{float32(0.12)}); c != -1 {
		t.Errorf("float32(0.1) vs float32(0.12) = %d, want -1: digits are counted at 32 bits", c)
	}
}

func cmpInt(i, j int) int {
	switch {
	case i < j:
		return -1
	case i > j:
		return 1
	}
	return 0
}

// TestCompareArgs_Int8 sorts every int8 and checks the documented sequence
// 0, 1, -1, 2, -2, …, 127, -127, -128.
func TestCompareArgs_Int8(t *testing.T) {
	t.Parallel()
	var vs []int8
	for v := range 256 {
		vs = append(vs, int8(v))
	}
	slices.SortFunc(vs, func(a, b int8) int { return compareValue(a, b) })
	want := []int8{0}
	for m := 1; m <= 127; m++ {
		want = append(want, int8(m), int8(-m))
	}
	want = append(want, -128)
	if !slices.Equal(vs, want) {
		t.Errorf("int8 in order: %v\nwant %v", vs, want)
	}
}

// TestCompareArgs_TotalOrder checks antisymmetry and transitivity on random
// tuples of every type, with small values so that ties happen.
func TestCompareArgs_TotalOrder(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 60
	tuples := make([][]any, n)
	for i := range tuples {
		tuples[i] = []any{randomValue(rng, "", 2), randomValue(rng, int8(0), 2), randomValue(rng, 0.0, 2)}
	}
	for _, a := range tuples {
		for _, b := range tuples {
			ab, ba := compareArgs(a, b), compareArgs(b, a)
			if ab != -ba {
				t.Fatalf("compareArgs not antisymmetric on %#v, %#v: %d, %d", a, b, ab, ba)
			}
			for _, c := range tuples {
				if ab <= 0 && compareArgs(b, c) <= 0 && compareArgs(a, c) > 0 {
					t.Fatalf("compareArgs not transitive on %#v ≤ %#v ≤ %#v", a, b, c)
				}
			}
		}
	}
}

func TestSigDigits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    float64
		bits int
		want int
	}{
		{0, 64, 1}, {0.5, 64, 1}, {-0.25, 64, 2}, {123.456, 64, 6}, {1e300, 64, 1},
		{5e-324, 64, 1}, {0.1, 64, 1}, {float64(float32(0.1)), 32, 1}, {float64(float32(0.1)), 64, 17},
		{math.MaxFloat64, 64, 17},
	} {
		if got := sigDigits(tc.f, tc.bits); got != tc.want {
			t.Errorf("sigDigits(%v, %d) = %d, want %d", tc.f, tc.bits, got, tc.want)
		}
	}
}
