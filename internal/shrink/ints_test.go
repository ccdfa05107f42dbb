package shrink

import (
	"context"
	"iter"
	"math"
	"reflect"
	"slices"
	"testing"
)

// candidates lists the candidate values of a per-argument pass on v from
// cursor from.
func candidates(seq func(any, pos) iter.Seq2[pos, any], v any, from pos) []any {
	var vs []any
	for _, c := range seq(v, from) {
		vs = append(vs, c)
	}
	return vs
}

func TestShrinkInt_Candidates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    any
		from pos
		want []any
	}{
		{10, pos{}, []any{0, 5, 7, 8, 9}},
		{-10, pos{}, []any{0, 10, -5, -7, -8, -9}},
		{1, pos{}, []any{0}},
		{0, pos{}, nil},
		{uint8(255), pos{}, []any{uint8(0), uint8(127), uint8(191), uint8(223), uint8(239), uint8(247), uint8(251), uint8(253), uint8(254)}},
		{int8(-128), pos{}, []any{int8(0), int8(127), int8(-64), int8(-96), int8(-112), int8(-120), int8(-124), int8(-126), int8(-127)}},
		// Resuming after accepting 5 (gap 5 of d = 10): d = 5 to the known
		// passing 0, so the next candidate is 5-3.
		{5, pos{s: magSearch{phase: 2, d: 5}}, []any{2, 3, 4}},
		// Resuming after accepting 10 as the positive counterpart of -10.
		{10, pos{s: magSearch{phase: 2, d: 10}}, []any{5, 7, 8, 9}},
		{int64(math.MinInt64), pos{}, []any{int64(0), int64(math.MaxInt64), int64(math.MinInt64 / 2)}},
	} {
		got := candidates(intArg, tc.v, tc.from)
		if len(got) > len(tc.want) {
			got = got[:len(tc.want)]
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("intArg(%T(%v), %+v) = %v, want %v", tc.v, tc.v, tc.from, got, tc.want)
		}
	}
}

// TestShrinkInt_Exhaustive8 checks every int8 and uint8: candidates, and
// candidates after resuming, are strictly smaller.
func TestShrinkInt_Exhaustive8(t *testing.T) {
	t.Parallel()
	for v := range 256 {
		checkCandidates(t, []any{int8(v)}, 3, 20)
		checkCandidates(t, []any{uint8(v)}, 3, 20)
	}
}

// TestShrinkInt_Thresholds8 shrinks every int8 against every threshold
// below it: the result is exactly the smallest failing value, found by
// binary search.
func TestShrinkInt_Thresholds8(t *testing.T) {
	t.Parallel()
	for v := -128; v <= 127; v++ {
		for k := -128; k <= 127; k++ {
			var fails func(int8) bool
			var want int8
			switch {
			case v >= k && k > 0:
				fails, want = func(x int8) bool { return int(x) >= k }, int8(k)
			case v <= k && k < 0:
				fails, want = func(x int8) bool { return int(x) <= k }, int8(k)
			default:
				continue
			}
			runs := 0
			got := Minimize(int8(v), func(x int8) bool { runs++; return fails(x) })
			if got != want || runs > 20 {
				t.Fatalf("from %d, threshold %d: got %d in %d runs, want %d in at most 20", v, k, got, runs, want)
			}
		}
	}
}

// FuzzShrinkInt64 checks the int64 shrinker on arbitrary values: its
// candidates are strictly smaller, and against a threshold it ends exactly
// at the smallest failing value in at most 2 runs per bit.
func FuzzShrinkInt64(f *testing.F) {
	for _, seed := range [][2]int64{{0, 0}, {math.MaxInt64, 1}, {math.MinInt64, -1001}, {987654321, 1000}, {-5, 3}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, v, k int64) {
		checkCandidates(t, []any{v}, 2, 70)
		want := int64(0)
		var fails func(int64) bool
		switch {
		case v >= k:
			fails = func(x int64) bool { return x >= k }
			want = max(k, 0)
		default:
			fails = func(x int64) bool { return x <= k }
			want = min(k, 0)
		}
		r, err := Shrink(context.Background(), []any{v}, Predicate(func(a []any) bool { return fails(a[0].(int64)) }))
		if err != nil {
			t.Fatal(err)
		}
		if r.Args[0] != want || r.Stats.Runs > 130 {
			t.Errorf("from %d, threshold %d: %d in %d runs, want %d", v, k, r.Args[0], r.Stats.Runs, want)
		}
	})
}

// TestShrink_MoveBetweenInts: failures that depend on the sum of two
// integers end with the earlier one as small as the failure allows, the
// later one holding the rest; the sum never changes.
func TestShrink_MoveBetweenInts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		start []any
		fails func(args []any) bool
		want  []any
	}{
		{"int overflow", []any{38, math.MaxInt - 37}, func(args []any) bool {
			a, b := args[0].(int), args[1].(int)
			return a > 0 && b > 0 && a+b < 0
		}, []any{1, math.MaxInt}},
		{"a sum of 100", []any{int8(-60), uint16(9000), int8(70)}, func(args []any) bool {
			return int(args[0].(int8))+int(args[2].(int8)) == 10 && args[1].(uint16) > 0
		}, []any{int8(0), uint16(1), int8(10)}},
		{"uint16 sum held by the later", []any{uint16(40000), uint16(25000)}, func(args []any) bool {
			return int(args[0].(uint16))+int(args[1].(uint16)) == 65000
		}, []any{uint16(0), uint16(65000)}},
	} {
		r, err := Shrink(context.Background(), c.start, Predicate(c.fails))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Args, c.want) {
			t.Errorf("%s: Shrink = %v, want %v (%d runs)", c.name, r.Args, c.want, r.Stats.Runs)
		}
	}
}
