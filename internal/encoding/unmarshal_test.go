package encoding

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// valuesEqual compares decoded values bit for bit (NaN payloads, -0).
func valuesEqual(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case float64:
			y, ok := b[i].(float64)
			if !ok || math.Float64bits(x) != math.Float64bits(y) {
				return false
			}
		case float32:
			y, ok := b[i].(float32)
			if !ok || math.Float32bits(x) != math.Float32bits(y) {
				return false
			}
		case []byte:
			y, ok := b[i].([]byte)
			if !ok || !bytes.Equal(x, y) {
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

// unmarshalTests are single value lines: want is the value, or nil when the
// toolchain rejects the line.
var unmarshalTests = []struct {
	line string
	want any
}{
	{`string("a\x00\xff☺")`, "a\x00\xff☺"},
	{"string(`raw\\n`)", `raw\n`},
	{"string(`a\rb`)", "ab"}, // go/scanner drops carriage returns in raw strings
	{`[]byte("\x01")`, []byte{1}},
	{"[]byte(``)", []byte{}},
	{`[ ] byte ( "x" )`, []byte("x")},
	{`[]/**/byte("x")`, []byte("x")},
	{`bool(true)`, true},
	{`bool(false)`, false},
	{`int(0x_1F)`, 31},
	{`int(0o17)`, 15},
	{`int(017)`, 15},
	{`int(0b101)`, 5},
	{`int(1_000)`, 1000},
	{`int(-9223372036854775808)`, math.MinInt},
	{`int(- 1)`, -1},
	{`int(-/* c */1)`, -1},
	{`int8(-128)`, int8(-128)},
	{`int16(0x7fff)`, int16(math.MaxInt16)},
	{`int32(-1)`, int32(-1)},
	{`int64(1)`, int64(1)},
	{`uint(0xFFFFFFFFFFFFFFFF)`, uint(math.MaxUint)},
	{`uint8(255)`, uint8(255)},
	{`uint16(1)`, uint16(1)},
	{`uint32(1)`, uint32(1)},
	{`uint64(18446744073709551615)`, uint64(math.MaxUint64)},
	{`byte('a')`, byte('a')},
	{`byte('\xff')`, byte(0xff)},
	{`byte('ÿ')`, byte(0xff)},
	{`byte(97)`, byte(97)},
	{`byte(0x61)`, byte(0x61)},
	{`rune('☺')`, '☺'},
	{`rune('\'')`, '\''},
	{`rune('"')`, '"'},
	{`rune('\U0010FFFF')`, rune(0x10FFFF)},
	{`rune(-1)`, rune(-1)},
	{`rune(0x10FFFF)`, rune(0x10FFFF)},
	{`float64(1)`, 1.0},
	{`float64(-0)`, math.Copysign(0, -1)},
	{`float64(-0.0)`, math.Copysign(0, -1)},
	{`float64(.5)`, 0.5},
	{`float64(1.)`, 1.0},
	{`float64(1e3)`, 1000.0},
	{`float64(0x1p-2)`, 0.25},
	{`float64(1_0.5)`, 10.5},
	{`float64(09.5)`, 9.5},
	{`float64(+Inf)`, math.Inf(1)},
	{`float64(-Inf)`, math.Inf(-1)},
	{`float64(^Inf)`, math.Inf(1)},
	{`float64(<-Inf)`, math.Inf(1)},
	{`float64(~Inf)`, math.Inf(1)},
	{`float64(NaN)`, math.NaN()},
	{`float32(1.5)`, float32(1.5)},
	{`float32(NaN)`, float32(math.NaN())},
	{`float32(-Inf)`, float32(math.Inf(-1))},
	{`math.Float64frombits(0x7ff8000000000002)`, math.Float64frombits(0x7ff8000000000002)},
	{`math . Float32frombits ( 0x7fc00001 )`, math.Float32frombits(0x7fc00001)},
	{`int(1,)`, 1},
	{`int(1 ...)`, 1},
	{`string("a"...,)`, "a"},
	{`int(1) // comment`, 1},
	{`int(1) /* comment */`, 1},
	{"/* c */int(1)", 1},
	{"\uFEFFint(1)", 1},
	{"\uFEFF int(1)", 1},
	{"int(\t1\r)", 1},

	{`int(1`, nil},
	{`int(1))`, nil},
	{`int(1);`, nil},
	{`int(1) int(2)`, nil},
	{`int()`, nil},
	{`int(1, 2)`, nil},
	{`int(,)`, nil},
	{`int(1,,)`, nil},
	{`int(1...)`, nil}, // "1." then ".."
	{`int(+1)`, nil},
	{`int(--1)`, nil},
	{`int(- -1)`, nil},
	{`int(-(1))`, nil},
	{`int((1))`, nil},
	{`(int)(1)`, nil},
	{`int(1 + 1)`, nil},
	{`int(1.0)`, nil},
	{`int(1i)`, nil},
	{`int('a')`, nil},
	{`int(x)`, nil},
	{`int(08)`, nil},
	{`int(0b102)`, nil},
	{`int(1__0)`, nil},
	{`int(1_)`, nil},
	{`int(_1)`, nil},
	{`int(0x)`, nil},
	{`int8(128)`, nil},
	{`uint(-1)`, nil},
	{`int(9223372036854775808)`, nil},
	{`bool(1)`, nil},
	{`bool(True)`, nil},
	{`bool(-true)`, nil},
	{`byte(-1)`, nil},
	{`byte(256)`, nil},
	{`byte('Ā')`, nil},
	{`byte("a")`, nil},
	{`rune('ab')`, nil},
	{`rune('')`, nil},
	{`rune('\"')`, nil},
	{`rune(-'a')`, nil},
	{`rune('\ud800')`, nil},
	{`string('a')`, nil},
	{`string(-"a")`, nil},
	{`string("\'")`, nil},
	{`string("\q")`, nil},
	{`string("abc`, nil},
	{"string(`abc)", nil},
	{`[]uint8("a")`, nil},
	{`[...]byte("a")`, nil},
	{`[1]byte("a")`, nil},
	{`[]byte(-"a")`, nil},
	{`[]byte(1)`, nil},
	{`float64(Inf)`, nil},
	{`float64(-NaN)`, nil},
	{`float64(nan)`, nil},
	{`float64(1e500)`, nil},
	{`float64(0x1.8)`, nil},
	{`float64(1e)`, nil},
	{`float64(0b1.0)`, nil},
	{`float64(0o1e3)`, nil},
	{`float64(1p3)`, nil},
	{`float64(1i)`, nil},
	{`float64(*Inf)`, nil},
	{`float64(&^Inf)`, nil},
	{`float32(1e39)`, nil},
	{`math.Float32frombits(1.5)`, nil},
	{`math.Float32frombits(0x100000000)`, nil},
	{`math.Float64frombits(-1)`, nil},
	{`math.Sqrt(1)`, nil},
	{`fmt.Float64frombits(1)`, nil},
	{`complex128(1)`, nil},
	{`int[int](1)`, nil},
	{`int(1)[0]`, nil},
	{`int(1) /* open`, nil},
	{"int(1)\x00", nil},
	{"int(1)\uFEFF", nil},
	{"\uFEFF\uFEFFint(1)", nil},
	{"int(1) // \xff", nil},
	{"string(\"\xff\")", nil},
	{"int(1)\u00a0int(2)", nil},
	{"ínt(1)", nil},
	{"int٣(1)", nil},
}

func TestUnmarshal_Lines(t *testing.T) {
	for _, tt := range unmarshalTests {
		file := []byte(Version + "\n" + tt.line + "\n")
		got, err := Unmarshal(file)
		ref, refErr := referenceUnmarshal(file)
		if (err == nil) != (refErr == nil) || err == nil && !valuesEqual(got, ref) {
			t.Errorf("%q: Unmarshal = %#v, %v; go/parser reference = %#v, %v", tt.line, got, err, ref, refErr)
		}
		if tt.want == nil {
			if err == nil {
				t.Errorf("%q: Unmarshal = %#v, want an error", tt.line, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.line, err)
		} else if !valuesEqual(got, []any{tt.want}) {
			t.Errorf("%q: Unmarshal = %#v, want %#v", tt.line, got, tt.want)
		}
	}
}

func TestUnmarshal_Files(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    []any
		errLine int // 0: no error
	}{
		{in: Version + "\nint(1)\n", want: []any{1}},
		{in: Version + "\r\nint(1)\r\nbool(true)\r\n", want: []any{1, true}},
		{in: Version + "\n\n  int(1)  \n\n\t\nstring(\"x\")", want: []any{1, "x"}},
		{in: Version + "\n", want: nil},
		{in: Version + "\n\n\n", want: nil},
		{in: Version + "\n\u0085int(1)\u00a0\n", want: []any{1}}, // Unicode space is trimmed
		{in: "", errLine: 1},
		{in: Version, errLine: 1},
		{in: "go test fuzz v2\nint(1)\n", errLine: 1},
		{in: " " + Version + "\nint(1)\n", errLine: 1},
		{in: Version + " \nint(1)\n", errLine: 1},
		{in: Version + "\nint(1)\nint(x)\n", errLine: 3},
		{in: Version + "\n\nint(1)\n\nbogus\n", errLine: 5},
	} {
		got, err := Unmarshal([]byte(tt.in))
		if tt.errLine != 0 {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line != tt.errLine {
				t.Errorf("Unmarshal(%q) = %#v, %v; want an error at line %d", tt.in, got, err, tt.errLine)
			}
			continue
		}
		if err != nil || !valuesEqual(got, tt.want) {
			t.Errorf("Unmarshal(%q) = %#v, %v; want %#v", tt.in, got, err, tt.want)
		}
	}
}

func TestUnmarshal_ErrorNamesLineAndText(t *testing.T) {
	_, err := Unmarshal([]byte(Version + "\nint(1)\nint(x)\n"))
	if want := `line 3: "int(x)": literal value required for primitive type`; err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
	long := Version + "\n[]byte(\"" + strings.Repeat("a", 1000) + "\\q\")\n"
	_, err = Unmarshal([]byte(long))
	if err == nil || len(err.Error()) > 200 || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Errorf("error for a long line = %.300v, want a short message naming line 2", err)
	}
}

// TestRoundTrip_Exhaustive decodes what Marshal writes for every byte, every
// int8, and runes at every boundary, and compares it bit for bit.
func TestRoundTrip_Exhaustive(t *testing.T) {
	var vals []any
	for i := range 256 {
		vals = append(vals, byte(i), int8(i), uint8(i), string([]byte{byte(i)}), []byte{byte(i)}, rune(i))
	}
	for _, r := range []rune{0xd7ff, 0xd800, 0xdfff, 0xe000, 0xfeff, 0xffff, 0x10000, 0x10ffff, 0x110000, -1, math.MinInt32, math.MaxInt32} {
		vals = append(vals, r)
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 0.1, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000000)} {
		vals = append(vals, f, float32(f))
	}
	vals = append(vals, math.Float32frombits(0x7f800001), math.Float32frombits(0xffc00000))
	b, err := Marshal(vals...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !valuesEqual(got, vals) {
		for i := range vals {
			if !valuesEqual(got[i:i+1], vals[i:i+1]) {
				t.Errorf("value %d: %T %#v came back as %T %#v", i, vals[i], vals[i], got[i], got[i])
			}
		}
	}
	if again, _ := Marshal(got...); !bytes.Equal(again, b) {
		t.Errorf("Marshal(Unmarshal(b)) != b")
	}
}

// FuzzUnmarshal checks Unmarshal against the go/parser reference on
// arbitrary files: both accept or both reject, with the same values.
func FuzzUnmarshal(f *testing.F) {
	for _, tt := range unmarshalTests {
		f.Add([]byte(Version + "\n" + tt.line + "\n"))
	}
	f.Add([]byte(Version + "\r\nint(1)\r\n\r\nbool(true)"))
	f.Fuzz(func(t *testing.T, file []byte) {
		got, err := Unmarshal(file)
		ref, refErr := referenceUnmarshal(file)
		if (err == nil) != (refErr == nil) || err == nil && !valuesEqual(got, ref) {
			t.Fatalf("Unmarshal(%q) = %#v, %v\ngo/parser reference = %#v, %v", file, got, err, ref, refErr)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 {
				t.Fatalf("error %v is not a *SyntaxError with a line", err)
			}
		}
	})
}

// FuzzRoundTrip checks that Unmarshal(Marshal(v)) == v bit for bit and that
// Marshal(Unmarshal(b)) == b for the canonical file b.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("a\x00"), "s\xff☺", true, int64(-1), uint64(1), 1.5, float32(-0.5), int32(-1), byte(0xff), uint32(0x7fc00001), uint64(0x7ff8000000000002))
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, i int64, u uint64, f64 float64, f32 float32, r int32, c byte, nan32 uint32, nan64 uint64) {
		vals := []any{b, s, ok, int(i), int8(i), int16(i), r, i, uint(u), c, uint16(u), uint32(u), u,
			f64, f32, math.Float32frombits(nan32 | 0x7f800001), math.Float64frombits(nan64 | 0x7ff0000000000001)}
		file, err := Marshal(vals...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(file)
		if err != nil {
			t.Fatalf("Unmarshal(Marshal(%#v)): %v\n%s", vals, err, file)
		}
		if !valuesEqual(got, vals) {
			t.Fatalf("Unmarshal(Marshal(%#v)) = %#v", vals, got)
		}
		if again, _ := Marshal(got...); !bytes.Equal(again, file) {
			t.Fatalf("Marshal(Unmarshal(%q)) = %q", file, again)
		}
	})
}
