package encoding

import (
	"math"
	"testing"
)

func TestTuple_RoundTrip(t *testing.T) {
	vals := []any{"", "a☺\x00", []byte{}, []byte("\xff"), true, false, math.MinInt, int8(-1), int16(7), int32(-8), int64(math.MaxInt64),
		uint(math.MaxUint), uint8(255), uint16(1), uint32(2), uint64(math.MaxUint64),
		float32(math.NaN()), math.Float32frombits(0x7fc00001), math.Copysign(0, -1), math.Float64frombits(0x7ff8000000000002)}
	b, err := AppendTuple(nil, vals)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseTuple(b)
	if err != nil || !valuesEqual(got, vals) {
		t.Errorf("ParseTuple(AppendTuple(%#v)) = %#v, %v", vals, got, err)
	}
	if _, err := AppendTuple(nil, []any{complex(1, 1)}); err == nil {
		t.Errorf("AppendTuple(complex) succeeded")
	}
	for _, bad := range []string{"\x01", "\x01\x05ab", "\x04\x01", "\x63\x00\x00\x00\x00\x00\x00\x00\x00"} {
		if v, err := ParseTuple([]byte(bad)); err == nil {
			t.Errorf("ParseTuple(%q) = %#v, want an error", bad, v)
		}
	}
}

// FuzzParseTuple checks that ParseTuple never panics and that what it
// accepts encodes back to the same bytes.
func FuzzParseTuple(f *testing.F) {
	b, _ := AppendTuple(nil, []any{"s", []byte("b"), true, 1, 1.5})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		vals, err := ParseTuple(b)
		if err != nil {
			return
		}
		again, err := AppendTuple(nil, vals)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseTuple(again)
		if err != nil || !valuesEqual(back, vals) {
			t.Fatalf("round trip of %q: %#v, %v", b, back, err)
		}
	})
}
