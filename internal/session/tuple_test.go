package session

import (
	"bytes"
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
	// The form is bit-exact (it holds the type tags and the float bits), so
	// encoding what was parsed must give the same bytes back.
	got, err := ParseTuple(b)
	if again, _ := AppendTuple(nil, got); err != nil || len(got) != len(vals) || !bytes.Equal(again, b) {
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
		if !bytes.Equal(again, b) {
			// Not canonical only where a varint length had a longer form.
			back, err := ParseTuple(again)
			if again2, _ := AppendTuple(nil, back); err != nil || !bytes.Equal(again2, again) {
				t.Fatalf("round trip of %q: %q, %v", b, again, err)
			}
		}
	})
}
