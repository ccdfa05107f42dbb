package ossfuzz

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// The test vectors of the two OSS-Fuzz decoders, each checked against the
// builds' own code (go-fuzz-headers consumer.go at ced1acd with
// go-118-fuzz-build testing/f.go at a70c2aa; input/reader.go at ea38fae).

// unhex reads bytes written in hex, with spaces and | between them.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.NewReplacer(" ", "", "|", "").Replace(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// types parses a signature for the tests: "string int".
func types(t testing.TB, list string) []reflect.Type {
	t.Helper()
	var ts []reflect.Type
	for _, name := range strings.Fields(list) {
		typ, ok := encoding.NativeType(name)
		if !ok {
			t.Fatalf("no native type %s", name)
		}
		ts = append(ts, typ)
	}
	return ts
}

// sameValues reports whether a and b are the same values bit for bit (a
// NaN's payload included), of the same types.
func sameValues(a, b []any) bool {
	ea, err1 := encoding.Marshal(a...)
	eb, err2 := encoding.Marshal(b...)
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb) // the encoding names the types
}

func TestDecodeV1_Vectors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig, raw string
		want     []any // nil: the build does not call the fuzz function
		read     int   // bytes read, if not all
	}{
		{"string int", "00 00 00 03 61 62 63 | 00 00 00 00 00 00 00 2a 01", []any{"abc", 42}, 0},
		{"[]byte bool uint16", "00 00 00 02 68 69 | 00 | 34 12 02", []any{[]byte("hi"), true, uint16(4660)}, 0},
		{"int64 float64 string", "ff ff ff ff ff ff ff fe 01 | 00 00 00 00 00 00 f0 3f 00 | 00 00 00 01 78", []any{int64(-2), 1.0, "x"}, 0},
		{"string", "68 65 6c 6c 6f", nil, 0},
		{"string", "00 00 00 05 68 65 6c 6c 6f", []any{"hello"}, 0},
		{"string", "00 00 00 02 68 65 6c", []any{"he"}, 6},
		{"string", "00 00 00 00", nil, 0},
		{"string", "00 00 00 00 00", []any{""}, 4},
		{"[]byte", "00 00 00 03 61 62 63", []any{[]byte("abc")}, 0},
		{"[]byte", "00 00 00 05 61 62 63", []any{[]byte("ab")}, 6},
		{"[]byte", "00 00 00 00 61 62 63", []any{[]byte{}}, 4},
		{"[]byte", hex.EncodeToString([]byte("hello world")), []any{[]byte("o worl")}, 10},
		{"[]byte", "00 00 00 03", nil, 0},
		{"uint32 int", "00 00 01 00 | 00 00 00 00 00 00 00", nil, 0},
		{"int64", "00 00 00 00 00 00 00 01", nil, 0},
		{"int8 int16 int32 uint8 float32 bool", "ff | 80 00 01 | ff ff ff fe | 07 | db 0f 49 40 00 | 03",
			[]any{int8(-1), int16(-32768), int32(-2), uint8(7), float32(3.1415927), false}, 0},
		{"rune byte uint uint64", "00 01 f6 00 | 41 | 01 00 00 00 00 00 00 00 00 | 00 00 00 00 00 00 00 01 01",
			[]any{int32(128512), byte(0x41), uint(1), uint64(1)}, 0},
	} {
		data := unhex(t, tc.raw)
		got, n, err := DecodeV1(data, types(t, tc.sig))
		switch {
		case tc.want == nil && err == nil:
			t.Errorf("(%s) %s: got %#v, want no call", tc.sig, tc.raw, got)
		case tc.want != nil && err != nil:
			t.Errorf("(%s) %s: %v, want %#v", tc.sig, tc.raw, err, tc.want)
		case tc.want != nil && !sameValues(got, tc.want):
			t.Errorf("(%s) %s: got %#v, want %#v", tc.sig, tc.raw, got, tc.want)
		case tc.want != nil && tc.read != 0 && n != tc.read, tc.want != nil && tc.read == 0 && n != len(data):
			t.Errorf("(%s) %s: read %d bytes, want %d", tc.sig, tc.raw, n, max(tc.read, len(data)))
		}
	}
}

func TestDecodeV2_Vectors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig, raw string
		want     []any
		short    bool
	}{
		{"string int", "00 00 00 00 00 00 00 2a | 01 | 61 62 63", []any{"abc", 42}, false},
		{"[]byte bool uint16", "01 | 12 34 | ff | 68 69", []any{[]byte("hi"), true, uint16(4660)}, false},
		{"int64 float64 string", "ff ff ff ff ff ff ff fe | 3f f0 00 00 00 00 00 00 | 00 | 78", []any{int64(-2), 1.0, "x"}, false},
		{"string", hex.EncodeToString([]byte("hello")), []any{"ello"}, false},
		{"[]byte", "58 61 62 63", []any{[]byte("abc")}, false},
		{"[]byte", "", []any{[]byte{}}, true},
		{"string []byte", "01 03 | 61 62 63 64 65 66 67 68", []any{"ab", []byte("cdefgh")}, false},
		{"string string string", "00 00 00 | 61 62 63 64 65 66 67", []any{"ab", "cd", "efg"}, false},
		{"string bool string", "02 | c8 37 | 30 31 32 33 34 35 36 37 38 39", []any{"0123456", false, "789"}, false},
		{"int32 string", "00 01", []any{int32(65536), ""}, true},
		{"int8 int16 int32 uint8 float32 bool", "ff | 80 00 | ff ff ff fe | 07 | 40 49 0f db | 03",
			[]any{int8(-1), int16(-32768), int32(-2), uint8(7), float32(3.1415927), true}, false},
	} {
		got, short := DecodeV2(unhex(t, tc.raw), types(t, tc.sig))
		if !sameValues(got, tc.want) || short != tc.short {
			t.Errorf("(%s) %s: got %#v (short %v), want %#v (short %v)", tc.sig, tc.raw, got, short, tc.want, tc.short)
		}
	}
}

func TestDecodeRaw(t *testing.T) {
	t.Parallel()
	if got, err := DecodeRaw([]byte("\x00ab"), types(t, "[]byte")); err != nil || !sameValues(got, []any{[]byte("\x00ab")}) {
		t.Errorf("[]byte: got %#v, %v", got, err)
	}
	if got, err := DecodeRaw([]byte("\xffab"), types(t, "string")); err != nil || !sameValues(got, []any{"\xffab"}) {
		t.Errorf("string: got %#v, %v", got, err)
	}
	for _, sig := range []string{"int", "string int", "[]byte []byte"} {
		if _, err := DecodeRaw([]byte("x"), types(t, sig)); err == nil || !strings.Contains(err.Error(), "one []byte or string argument") {
			t.Errorf("(%s): %v, want an error", sig, err)
		}
	}
}

// TestDecode_Exhaustive decodes every byte as each one-byte type: the
// rules differ between the builds for bool.
func TestDecode_Exhaustive(t *testing.T) {
	t.Parallel()
	for b := range 256 {
		data := []byte{byte(b)}
		for _, tc := range []struct {
			sig    string
			v1, v2 any
		}{
			{"bool", b%2 == 0, b%2 == 1},
			{"int8", int8(b), int8(b)},
			{"uint8", uint8(b), uint8(b)},
		} {
			got1, _, err := DecodeV1(data, types(t, tc.sig))
			got2, _ := DecodeV2(data, types(t, tc.sig))
			if err != nil || !sameValues(got1, []any{tc.v1}) || !sameValues(got2, []any{tc.v2}) {
				t.Errorf("%s of %#02x: v1 %v (%v), v2 %v; want %v, %v", tc.sig, b, got1, err, got2, tc.v1, tc.v2)
			}
		}
	}
}

// randomTuple returns 1 to 6 values of random native types, with the edge
// cases of each type common.
func randomTuple(rng *rand.Rand) []any {
	vals := make([]any, 1+rng.IntN(6))
	bits := func() uint64 {
		switch rng.IntN(4) {
		case 0:
			return 0
		case 1:
			return math.MaxUint64 >> rng.IntN(64)
		}
		return rng.Uint64()
	}
	text := func() []byte {
		b := make([]byte, []int{0, 1, 2, 5, 17}[rng.IntN(5)])
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	for i := range vals {
		u := bits()
		vals[i] = []any{string(text()), text(), u&1 == 1, int(u), int8(u), int16(u), int32(u), int64(u),
			uint(u), uint8(u), uint16(u), uint32(u), u, math.Float32frombits(uint32(u)), math.Float64frombits(u)}[rng.IntN(15)]
	}
	return vals
}

// encodeV1 writes a testcase that a v1 build decodes to vals, by the rules
// of go-fuzz-headers, choosing at random among the encodings of each value
// (either endianness, any length prefix of a []byte that the build takes
// modulo the bytes left), followed by a few bytes the build does not read.
// It returns the testcase and the number of bytes the build reads.
func encodeV1(rng *rand.Rand, vals []any) ([]byte, int) {
	var out []byte
	type prefix struct{ at, want int }
	var prefixes []prefix // of the []byte values, set once the length is known
	order := func(b []byte, u uint64) []byte {
		le := rng.IntN(2) == 0
		var buf [8]byte
		binary.BigEndian.PutUint64(buf[:], u)
		v := buf[8-len(b):]
		if le {
			for i := range v {
				b[i] = v[len(v)-1-i]
			}
		} else {
			copy(b, v)
		}
		e := byte(rng.IntN(128)) * 2 // even: little-endian
		if !le {
			e++
		}
		return append(append(out, b...), e)
	}
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			out = binary.BigEndian.AppendUint32(out, uint32(len(x)))
			out = append(out, x...)
		case []byte:
			prefixes = append(prefixes, prefix{len(out), len(x)})
			out = append(append(out, 0, 0, 0, 0), x...)
		case bool:
			b := byte(rng.IntN(128)) * 2 // even: true
			if !x {
				b++
			}
			out = append(out, b)
		case int8:
			out = append(out, byte(x))
		case uint8:
			out = append(out, x)
		case int16:
			out = order(make([]byte, 2), uint64(uint16(x)))
		case uint16:
			out = order(make([]byte, 2), uint64(x))
		case int32:
			out = binary.BigEndian.AppendUint32(out, uint32(x))
		case uint32:
			out = binary.BigEndian.AppendUint32(out, x)
		case int:
			out = order(make([]byte, 8), uint64(x))
		case int64:
			out = order(make([]byte, 8), uint64(x))
		case uint:
			out = order(make([]byte, 8), uint64(x))
		case uint64:
			out = order(make([]byte, 8), x)
		case float32:
			out = order(make([]byte, 4), uint64(math.Float32bits(x)))
		case float64:
			out = order(make([]byte, 8), math.Float64bits(x))
		}
	}
	read := len(out)
	trail := rng.IntN(3)
	if last := reflect.ValueOf(vals[len(vals)-1]); isDynamic(last.Type()) && last.Len() == 0 {
		trail = max(trail, 1) // an empty string or []byte needs a byte after its length
	}
	for range trail {
		out = append(out, byte(rng.Uint32()))
	}
	for _, p := range prefixes {
		left := len(out) - p.at - 4
		l := p.want // exactly the bytes left, or less than them: l mod left is l
		if p.want < left {
			l += rng.IntN(3) * left
			if l == 0 || l == left { // 0 means 30, and left means left
				l = 2 * left
			}
		}
		binary.BigEndian.PutUint32(out[p.at:], uint32(l))
	}
	return out, read
}

// encodeV2 writes a testcase that a v2 build decodes to vals, by the rules
// of input.Source, or reports false if no weights give the lengths of its
// strings and byte slices.
func encodeV2(rng *rand.Rand, vals []any) ([]byte, bool) {
	var out, dyn []byte
	var lens []int
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			lens, dyn = append(lens, len(x)), append(dyn, x...)
		case []byte:
			lens, dyn = append(lens, len(x)), append(dyn, x...)
		case bool:
			b := byte(rng.IntN(128)) * 2 // even: false
			if x {
				b++
			}
			out = append(out, b)
		case float32:
			out = binary.BigEndian.AppendUint32(out, math.Float32bits(x))
		case float64:
			out = binary.BigEndian.AppendUint64(out, math.Float64bits(x))
		default:
			rv := reflect.ValueOf(v)
			u := rv.Uint
			if rv.CanInt() {
				u = func() uint64 { return uint64(rv.Int()) }
			}
			var buf [8]byte
			binary.BigEndian.PutUint64(buf[:], u())
			out = append(out, buf[8-rv.Type().Size():]...)
		}
	}
	w, err := v2Weights(lens)
	if err != nil {
		return nil, false
	}
	if len(lens) == 1 {
		w[0] = byte(rng.Uint32()) // a lone one takes all, whatever its weight
	}
	return append(append(out, w...), dyn...), true
}

// TestDecode_RoundTrip encodes random values of every native type by each
// build's rules and decodes them back, exactly.
func TestDecode_RoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	v2Multi := 0 // v2 testcases with several dynamic arguments
	for range 20000 {
		vals := randomTuple(rng)
		sig := encoding.ValueTypes(vals)
		data, read := encodeV1(rng, vals)
		got, n, err := DecodeV1(data, sig)
		if err != nil || !sameValues(got, vals) || n != read {
			t.Fatalf("v1 %s: %x decodes to %#v, %d bytes read (%v); want %#v, %d bytes", encoding.TypeList(sig), data, got, n, err, vals, read)
		}
		data, ok := encodeV2(rng, vals)
		if !ok {
			continue
		}
		got, short := DecodeV2(data, sig)
		if !sameValues(got, vals) || short {
			t.Fatalf("v2 %s: %x decodes to %#v (short %v), want %#v", encoding.TypeList(sig), data, got, short, vals)
		}
		dynamic := 0
		for _, typ := range sig {
			if isDynamic(typ) {
				dynamic++
			}
		}
		if dynamic > 1 {
			v2Multi++
		}
	}
	if v2Multi < 1000 {
		t.Errorf("only %d v2 round trips with several strings or byte slices", v2Multi)
	}
}

// fuzzSig turns fuzzed bits into a signature of 1 to 4 native types.
func fuzzSig(bits uint32) []reflect.Type {
	var all []reflect.Type
	for _, name := range []string{"string", "[]byte", "bool", "int", "int8", "int16", "int32", "int64",
		"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64"} {
		t, _ := encoding.NativeType(name)
		all = append(all, t)
	}
	sig := []reflect.Type{all[bits%15]}
	for n := (bits >> 4) % 4; n > 0; n-- {
		bits /= 15
		sig = append(sig, all[bits%15])
	}
	return sig
}

// FuzzDecodeV1 checks that the v1 decoder never panics, is deterministic,
// and gives values of the signature's types when it decodes.
func FuzzDecodeV1(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x03abc\x00\x00\x00\x00\x00\x00\x00*\x01"), uint32(0x10))
	f.Add([]byte("hello world"), uint32(1))
	f.Add([]byte{}, uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, data []byte, bits uint32) {
		sig := fuzzSig(bits)
		a, n, err := DecodeV1(data, sig)
		b, m, err2 := DecodeV1(data, sig)
		switch {
		case (err == nil) != (err2 == nil) || n != m || err == nil && !sameValues(a, b):
			t.Fatalf("%s: two decodings differ: %#v, %v; %#v, %v", encoding.TypeList(sig), a, err, b, err2)
		case err == nil && (!slices.Equal(encoding.ValueTypes(a), sig) || n > len(data)):
			t.Fatalf("%s: decoded %#v, reading %d of %d bytes", encoding.TypeList(sig), a, n, len(data))
		}
	})
}

// FuzzDecodeV2 checks that the v2 decoder never panics, is deterministic,
// and decodes every input to values of the signature's types.
func FuzzDecodeV2(f *testing.F) {
	f.Add([]byte("\x02\xc8\x370123456789"), uint32(0x3f0))
	f.Add([]byte{}, uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, data []byte, bits uint32) {
		sig := fuzzSig(bits)
		a, s1 := DecodeV2(data, sig)
		b, s2 := DecodeV2(data, sig)
		if !sameValues(a, b) || s1 != s2 || !slices.Equal(encoding.ValueTypes(a), sig) {
			t.Fatalf("%s: %#v (short %v) and %#v (short %v)", encoding.TypeList(sig), a, s1, b, s2)
		}
	})
}

// TestEncode_RoundTrip exports random values of every native type and
// decodes them back, exactly; with several strings and byte slices, most
// sets of lengths have weights.
func TestEncode_RoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	encoded, multi := 0, 0
	for range 20000 {
		vals := randomTuple(rng)
		sig := encoding.ValueTypes(vals)
		data, err := EncodeV2(vals)
		if err != nil {
			continue
		}
		encoded++
		got, short := DecodeV2(data, sig)
		if !sameValues(got, vals) || short {
			t.Fatalf("v2 %s: %#v encodes to %x, which decodes to %#v (short %v)", encoding.TypeList(sig), vals, data, got, short)
		}
		if n := slices.IndexFunc(sig, isDynamic); n >= 0 && slices.IndexFunc(sig[n+1:], isDynamic) >= 0 {
			multi++
		}
		if len(sig) == 1 && isDynamic(sig[0]) {
			raw, err := EncodeRaw(vals)
			if got, err2 := DecodeRaw(raw, sig); err != nil || err2 != nil || !sameValues(got, vals) {
				t.Fatalf("raw %#v: %x (%v) decodes to %#v (%v)", vals, raw, err, got, err2)
			}
		}
	}
	if encoded < 19000 || multi < 1000 {
		t.Errorf("%d of 20000 tuples encoded, %d with several strings or byte slices", encoded, multi)
	}
}

// FuzzEncodeV2 checks that what the v2 decoder reads from any testcase
// encodes, and back to the same values.
func FuzzEncodeV2(f *testing.F) {
	f.Add([]byte("\x02\xc8\x370123456789"), uint32(0x3f0))
	f.Add([]byte("\x01\x01\x01abc"), uint32(0x1f0))
	f.Fuzz(func(t *testing.T, data []byte, bits uint32) {
		sig := fuzzSig(bits)
		vals, _ := DecodeV2(data, sig)
		enc, err := EncodeV2(vals)
		if err != nil {
			return // lengths no byte weights give: said, not written
		}
		if got, short := DecodeV2(enc, sig); !sameValues(got, vals) || short {
			t.Fatalf("%s: %#v encodes to %x, which decodes to %#v (short %v)", encoding.TypeList(sig), vals, enc, got, short)
		}
	})
}
