package shrink_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// A qualityCase pins the exact minimum the engine reaches from args for a
// predicate. The table is shared with the benchmarks (bench_test.go).
type qualityCase struct {
	name  string
	args  []any
	fails func(args []any) bool
	want  []any
}

func qualityCases() []qualityCase {
	cases := []qualityCase{
		{
			name:  "bytes/sum>100",
			args:  []any{randomBytes(1, 50)},
			fails: func(a []any) bool { return sum(a[0].([]byte)) > 100 },
			want:  []any{[]byte{101}},
		},
		{
			name:  "bytes/redistribute",
			args:  []any{[]byte{51, 50}},
			fails: func(a []any) bool { return sum(a[0].([]byte)) > 100 },
			want:  []any{[]byte{101}},
		},
		{
			name:  "ints/b-a>5",
			args:  []any{412, 987},
			fails: func(a []any) bool { return a[1].(int)-a[0].(int) > 5 },
			want:  []any{0, 6},
		},
		{
			name:  "ints/common-offset",
			args:  []any{412, int8(-117), uint16(417)},
			fails: func(a []any) bool { return int(a[2].(uint16))-a[0].(int) == 5 && a[1].(int8) < 0 },
			want:  []any{0, int8(-1), uint16(5)},
		},
		{
			name: "string-int/bad",
			args: []any{noisyString(2, 200, "bad"), 98765432},
			fails: func(a []any) bool {
				return strings.Contains(a[0].(string), "bad") && a[1].(int) > 1000
			},
			want: []any{"bad", 1001},
		},
		{
			name:  "bytes/needle64K",
			args:  []any{needleInput(3, 64<<10)},
			fails: func(a []any) bool { return bytes.Contains(a[0].([]byte), needle) },
			want:  []any{needle},
		},
		{
			name: "string/rune>0xFFFF",
			args: []any{"héllo, 世界 😀 \U0010FFFF!"},
			fails: func(a []any) bool {
				return strings.IndexFunc(a[0].(string), func(r rune) bool { return r > 0xFFFF }) >= 0
			},
			want: []any{"\U00010000"},
		},
		{
			// Ten bytes with a '!' and fewer than eight after it: the '!'
			// moves to the end, past the 0s that need not precede it.
			name: "string/bang-last",
			args: []any{"the fuzzer found this: a longer line!abc"},
			fails: func(a []any) bool {
				s := a[0].(string)
				i := strings.IndexByte(s, '!')
				return len(s) >= 10 && i >= 0 && i+8 >= len(s)
			},
			want: []any{"000000000!"},
		},
		{
			name:  "string/every-offset",
			args:  []any{"tell nobody the secret word"},
			fails: func(a []any) bool { return strings.Contains("sec"+a[0].(string), "secret") },
			want:  []any{"ret"},
		},
		{
			name:  "string/invalid-utf8",
			args:  []any{"ab\xffcd\xfe"},
			fails: func(a []any) bool { return !utf8.ValidString(a[0].(string)) },
			want:  []any{"\x80"},
		},
		{
			name: "irrelevant",
			args: []any{3.25, true, uint16(999), []byte("junk"), "more junk", 12345},
			fails: func(a []any) bool {
				return a[5].(int) > 10
			},
			want: []any{0.0, false, uint16(0), []byte{}, "", 11},
		},
		{
			name: "always/all-types",
			args: []any{"x☃", []byte{1, 2}, true, -7, int8(-128), int16(300), int32(-70000), int64(math.MinInt64),
				uint(9), uint8(255), uint16(65535), uint32(1 << 31), uint64(math.MaxUint64),
				float32(-1.5), math.NaN()},
			fails: func([]any) bool { return true },
			want: []any{"", []byte{}, false, 0, int8(0), int16(0), int32(0), int64(0),
				uint(0), uint8(0), uint16(0), uint32(0), uint64(0), float32(0), 0.0},
		},
		{
			name:  "always/negative-zero",
			args:  []any{math.Copysign(0, -1), float32(math.Inf(-1))},
			fails: func([]any) bool { return true },
			want:  []any{0.0, float32(0)},
		},
		{
			name:  "floats/>1.5",
			args:  []any{1e300},
			fails: func(a []any) bool { return a[0].(float64) > 1.5 },
			want:  []any{2.0},
		},
		{
			name:  "floats/>1e10-from-inf",
			args:  []any{math.Inf(1)},
			fails: func(a []any) bool { return a[0].(float64) > 1e10 },
			want:  []any{1e10 + 1},
		},
		{
			name:  "floats/>2^53",
			args:  []any{math.MaxFloat64},
			fails: func(a []any) bool { return a[0].(float64) > 1<<53 },
			want:  []any{float64(1<<53 + 2)},
		},
		{
			name:  "floats/NaN",
			args:  []any{math.NaN()},
			fails: func(a []any) bool { return math.IsNaN(a[0].(float64)) },
			want:  []any{math.NaN()},
		},
		{
			name:  "floats/<0",
			args:  []any{-123.456},
			fails: func(a []any) bool { return a[0].(float64) < 0 },
			want:  []any{-1.0},
		},
		{
			name:  "floats/non-integer",
			args:  []any{123.456},
			fails: func(a []any) bool { f := a[0].(float64); return f != math.Trunc(f) },
			want:  []any{0.5},
		},
		{
			name:  "floats/negative-non-integer",
			args:  []any{-98.76},
			fails: func(a []any) bool { f := a[0].(float64); return f < 0 && f != math.Trunc(f) },
			want:  []any{-0.5},
		},
		{
			name:  "floats/simplest-decimal",
			args:  []any{6.8},
			fails: func(a []any) bool { f := a[0].(float64); return f > 2 && f != math.Trunc(f) },
			want:  []any{2.5},
		},
		{
			name:  "floats/simplest-decimal>100",
			args:  []any{123.456},
			fails: func(a []any) bool { f := a[0].(float64); return f > 100 && f != math.Trunc(f) },
			want:  []any{100.5},
		},
		{
			name:  "floats/signbit",
			args:  []any{math.Copysign(0, -1)},
			fails: func(a []any) bool { return math.Signbit(a[0].(float64)) },
			want:  []any{math.Copysign(0, -1)},
		},
		{
			name:  "float32/>1.5",
			args:  []any{float32(math.MaxFloat32)},
			fails: func(a []any) bool { return a[0].(float32) > 1.5 },
			want:  []any{float32(2)},
		},
		{
			name:  "float32/>2^24",
			args:  []any{float32(math.MaxFloat32)},
			fails: func(a []any) bool { return a[0].(float32) > 1<<24 },
			want:  []any{float32(1<<24 + 2)},
		},
		{
			name:  "float32/<0",
			args:  []any{float32(-123.456)},
			fails: func(a []any) bool { return a[0].(float32) < 0 },
			want:  []any{float32(-1)},
		},
		{
			name: "float32/non-integer",
			args: []any{float32(123.456)},
			fails: func(a []any) bool {
				f := float64(a[0].(float32))
				return f != math.Trunc(f)
			},
			want: []any{float32(0.5)},
		},
		{
			name:  "float32/NaN",
			args:  []any{float32(math.NaN())},
			fails: func(a []any) bool { return a[0].(float32) != a[0].(float32) },
			want:  []any{float32(math.NaN())},
		},
		{
			name:  "int64/<-1000",
			args:  []any{int64(math.MinInt64)},
			fails: func(a []any) bool { return a[0].(int64) < -1000 },
			want:  []any{int64(-1001)},
		},
		{
			name:  "int64/==min",
			args:  []any{int64(math.MinInt64)},
			fails: func(a []any) bool { return a[0].(int64) == math.MinInt64 },
			want:  []any{int64(math.MinInt64)},
		},
		{
			name:  "int/odd-negative",
			args:  []any{-999999},
			fails: func(a []any) bool { return a[0].(int) < 0 && a[0].(int)%2 != 0 },
			want:  []any{-1},
		},
	}
	cases = append(cases, intCases[int]("int", math.MinInt, math.MaxInt)...)
	cases = append(cases, intCases[int8]("int8", math.MinInt8, math.MaxInt8)...)
	cases = append(cases, intCases[int16]("int16", math.MinInt16, math.MaxInt16)...)
	cases = append(cases, intCases[int32]("int32", math.MinInt32, math.MaxInt32)...)
	cases = append(cases, intCases[int64]("int64", math.MinInt64, math.MaxInt64)...)
	cases = append(cases, intCases[uint]("uint", 0, math.MaxUint)...)
	cases = append(cases, intCases[uint8]("uint8", 0, math.MaxUint8)...)
	cases = append(cases, intCases[uint16]("uint16", 0, math.MaxUint16)...)
	cases = append(cases, intCases[uint32]("uint32", 0, math.MaxUint32)...)
	cases = append(cases, intCases[uint64]("uint64", 0, math.MaxUint64)...)
	return cases
}

type integer interface {
	int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64
}

// intCases shrinks from the extremes of a width toward thresholds at and
// near its bounds: v >= k from the maximum ends at k, and for signed types
// v <= k from the minimum ends at k.
func intCases[T integer](name string, lo, hi T) []qualityCase {
	var cases []qualityCase
	for _, k := range []T{1, 2, 100, hi/3 + 1, hi - 1, hi} {
		cases = append(cases, qualityCase{
			name:  fmt.Sprintf("%s/>=%d", name, k),
			args:  []any{hi},
			fails: func(a []any) bool { return a[0].(T) >= k },
			want:  []any{k},
		})
	}
	if lo < 0 {
		for _, k := range []T{lo + 100, lo/3 - 1, lo + 1, lo} {
			cases = append(cases, qualityCase{
				name:  fmt.Sprintf("%s/<=%d", name, k),
				args:  []any{lo},
				fails: func(a []any) bool { return a[0].(T) <= k },
				want:  []any{k},
			})
		}
	}
	return cases
}

func TestShrink_Quality(t *testing.T) {
	t.Parallel()
	for _, tc := range qualityCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := shrink.Shrink(context.Background(), tc.args, shrink.Predicate(tc.fails), shrink.MaxRuns(5000))
			if err != nil {
				t.Fatal(err)
			}
			if !equalArgs(r.Args, tc.want) {
				t.Errorf("Shrink = %#v, want %#v", r.Args, tc.want)
			}
			t.Logf("%d runs, %d cache hits, %d rounds", r.Stats.Runs, r.Stats.CacheHits, r.Stats.Rounds)
			if r.Stats.Stop != shrink.StopDone {
				t.Errorf("Stop = %v after %d runs, want %v", r.Stats.Stop, r.Stats.Runs, shrink.StopDone)
			}
		})
	}
}

// TestShrink_QualityRepeated shrinks the same inputs again: the result does
// not depend on the cache's random hash seeds or on earlier searches.
func TestShrink_QualityRepeated(t *testing.T) {
	t.Parallel()
	for range 3 {
		for _, tc := range qualityCases()[:6] {
			r, _ := shrink.Shrink(context.Background(), tc.args, shrink.Predicate(tc.fails))
			if !equalArgs(r.Args, tc.want) {
				t.Errorf("%s: Shrink = %#v, want %#v", tc.name, r.Args, tc.want)
			}
		}
	}
}

func TestMinimize(t *testing.T) {
	t.Parallel()
	if got := shrink.Minimize(1000000000, func(v int) bool { return v > 1000000 }); got != 1000001 {
		t.Errorf("Minimize(int) = %d, want 1000001", got)
	}
	if got := shrink.Minimize("a quick brown fox", func(s string) bool { return strings.Count(s, "o") >= 2 }); got != "oo" {
		t.Errorf("Minimize(string) = %q, want %q", got, "oo")
	}
	if got := shrink.Minimize([]byte{9, 8, 7}, func(b []byte) bool { return len(b) >= 2 }); string(got) != "00" {
		t.Errorf("Minimize([]byte) = %q, want \"00\"", got)
	}
	if got := shrink.Minimize(math.Pi, func(f float64) bool { return f > 3 }); got != 4 {
		t.Errorf("Minimize(float64) = %v, want 4", got)
	}
}

func TestMinimize_NamedType(t *testing.T) {
	t.Parallel()
	type myInt int
	if got := shrink.Minimize(myInt(98765432), func(n myInt) bool { return n > 1000 }); got != 1001 {
		t.Errorf("Minimize(myInt) = %v, want 1001", got)
	}
}

func TestMinimize_UnsupportedTypePanics(t *testing.T) {
	t.Parallel()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "chan int") {
			t.Errorf("recover() = %v, want an unsupported type error naming chan int", r)
		}
	}()
	shrink.Minimize(make(chan int), func(chan int) bool { return true })
}

// needle is the 4-byte cause hidden in needleInput.
var needle = []byte("N33D")

// needleInput returns n random bytes (from seed) with needle at a random offset.
func needleInput(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := randomBytes(seed, n)
	copy(b[rng.IntN(n-len(needle)):], needle)
	return b
}

func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, 0))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// noisyString returns n random runes, some of them multi-byte, with infix
// in the middle.
func noisyString(seed uint64, n int, infix string) string {
	rng := rand.New(rand.NewPCG(seed, 0))
	alphabet := []rune("abcdefghijklmnopqrstuvwxyz ABC123-_é世界😀\u00ff\u0800\U0010FFFF")
	var sb strings.Builder
	for i := range n {
		if i == n/2 {
			sb.WriteString(infix)
		}
		sb.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	return sb.String()
}

func sum(b []byte) int {
	s := 0
	for _, c := range b {
		s += int(c)
	}
	return s
}

// equalArgs compares tuples exactly: byte slices by content (nil equals
// empty), floats by bits (-0 differs from +0) except that all NaNs are equal.
func equalArgs(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case []byte:
			y, ok := b[i].([]byte)
			if !ok || !bytes.Equal(x, y) {
				return false
			}
		case float64:
			y, ok := b[i].(float64)
			if !ok || math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
				return false
			}
		case float32:
			y, ok := b[i].(float32)
			if !ok || math.Float32bits(x) != math.Float32bits(y) && !(x != x && y != y) {
				return false
			}
		default:
			if a[i] != b[i] {
				return false
			}
		}
	}
	return true
}
