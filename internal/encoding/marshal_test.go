package encoding

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// toolchainLine spells v the way the toolchain's marshalCorpusFile does, with
// fmt verbs, so that Marshal's strconv calls are checked against them.
func toolchainLine(v any) string {
	switch t := v.(type) {
	case float32:
		if math.IsNaN(float64(t)) && math.Float32bits(t) != math.Float32bits(float32(math.NaN())) {
			return fmt.Sprintf("math.Float32frombits(0x%x)", math.Float32bits(t))
		}
	case float64:
		if math.IsNaN(t) && math.Float64bits(t) != math.Float64bits(math.NaN()) {
			return fmt.Sprintf("math.Float64frombits(0x%x)", math.Float64bits(t))
		}
	case string:
		return fmt.Sprintf("string(%q)", t)
	case []byte:
		return fmt.Sprintf("[]byte(%q)", t)
	case rune:
		if utf8.ValidRune(t) {
			return fmt.Sprintf("rune(%q)", t)
		}
		return fmt.Sprintf("int32(%v)", t)
	case byte:
		return fmt.Sprintf("byte(%q)", t)
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

func TestMarshal(t *testing.T) {
	for _, tt := range []struct {
		in   any
		want string
	}{
		{"", `string("")`},
		{"a\"\n\x00\xff☺", `string("a\"\n\x00\xff☺")`},
		{[]byte(nil), `[]byte("")`},
		{[]byte("\x00\xffa"), `[]byte("\x00\xffa")`},
		{true, `bool(true)`},
		{false, `bool(false)`},
		{int(-1), `int(-1)`},
		{int8(math.MinInt8), `int8(-128)`},
		{int16(math.MaxInt16), `int16(32767)`},
		{int64(math.MinInt64), `int64(-9223372036854775808)`},
		{uint(math.MaxUint), `uint(18446744073709551615)`},
		{uint16(7), `uint16(7)`},
		{uint32(math.MaxUint32), `uint32(4294967295)`},
		{uint64(math.MaxUint64), `uint64(18446744073709551615)`},
		{byte('a'), `byte('a')`},
		{byte(0), `byte('\x00')`},
		{byte(0xff), `byte('ÿ')`},
		{rune('☺'), `rune('☺')`},
		{rune(-1), `int32(-1)`},
		{rune(0xD800), `int32(55296)`},
		{rune(utf8.MaxRune + 1), `int32(1114112)`},
		{float64(0), `float64(0)`},
		{math.Copysign(0, -1), `float64(-0)`},
		{float64(1e21), `float64(1e+21)`},
		{float64(0.1), `float64(0.1)`},
		{math.Inf(1), `float64(+Inf)`},
		{math.Inf(-1), `float64(-Inf)`},
		{math.NaN(), `float64(NaN)`},
		{math.Float64frombits(0x7ff8000000000002), `math.Float64frombits(0x7ff8000000000002)`},
		{math.Float64frombits(0xfff8000000000001), `math.Float64frombits(0xfff8000000000001)`},
		{float32(0.1), `float32(0.1)`},
		{float32(math.Inf(-1)), `float32(-Inf)`},
		{float32(math.NaN()), `float32(NaN)`},
		{math.Float32frombits(0x7fc00001), `math.Float32frombits(0x7fc00001)`},
		{float32(math.MaxFloat32), `float32(3.4028235e+38)`},
		{float32(math.SmallestNonzeroFloat32), `float32(1e-45)`},
	} {
		got, err := Marshal(tt.in)
		if err != nil {
			t.Errorf("Marshal(%#v): %v", tt.in, err)
			continue
		}
		want := Version + "\n" + tt.want + "\n"
		if string(got) != want {
			t.Errorf("Marshal(%#v) = %q, want %q", tt.in, got, want)
		}
		if tl := toolchainLine(tt.in); tl != tt.want {
			t.Errorf("toolchain spelling of %#v = %q, want %q", tt.in, tl, tt.want)
		}
	}
}

func TestMarshal_Errors(t *testing.T) {
	for _, vals := range [][]any{nil, {complex(1, 2)}, {"ok", []int{1}}, {nil}} {
		if b, err := Marshal(vals...); err == nil {
			t.Errorf("Marshal(%#v) = %q, want an error", vals, b)
		}
	}
}

// TestMarshal_MatchesFmt checks Marshal against the toolchain's fmt spelling
// on every byte, every int8, runes around every boundary, and random values
// of every type, floats as random bit patterns.
func TestMarshal_MatchesFmt(t *testing.T) {
	var vals []any
	for i := range 256 {
		vals = append(vals, byte(i), int8(i))
	}
	for _, r := range []rune{0, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xd800, 0xdfff, 0xe000, 0xfffd, 0xfeff, 0xffff, 0x10000, utf8.MaxRune, utf8.MaxRune + 1, -1, math.MinInt32, math.MaxInt32} {
		vals = append(vals, r, r-1, r+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		u := rng.Uint64()
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		vals = append(vals, math.Float64frombits(u), math.Float32frombits(uint32(u)), float64(int64(u)>>40),
			int(u), int16(u), int32(u), int64(u), uint(u), uint16(u), uint32(u), u, u%2 == 0,
			b, string(b), strings.ToValidUTF8(string(b), "☺"))
	}
	for _, v := range vals {
		b, err := AppendValue(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(b), toolchainLine(v); got != want {
			t.Fatalf("line for %T %#v = %q, want %q", v, v, got, want)
		}
	}
}
