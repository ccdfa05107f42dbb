package formats

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"io"
	"testing"
)

func TestStreams(t *testing.T) {
	t.Parallel()
	content := []byte("a text, and the text again: a text, and the text again")
	var z, g bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(content)
	zw.Close()
	gw := gzip.NewWriter(&g)
	gw.Name, gw.Comment, gw.Extra = "a.txt", "a comment", []byte("ab\x02\x00xy") // the optional fields
	gw.Write(content)
	gw.Close()
	in := append(append(append([]byte("head"), z.Bytes()...), "between"...), g.Bytes()...)
	sts := Streams(in)
	if len(sts) != 2 || sts[0].gzip || !sts[1].gzip {
		t.Fatalf("Streams = %+v, want a zlib stream and a gzip member", sts)
	}
	if z0, g0 := 4, 4+z.Len()+len("between"); sts[0].Start != z0 || sts[0].End != z0+z.Len() || sts[1].Start != g0 || sts[1].End != len(in) {
		t.Errorf("streams at [%d, %d) and [%d, %d), want [%d, %d) and [%d, %d)", sts[0].Start, sts[0].End, sts[1].Start, sts[1].End, z0, z0+z.Len(), g0, len(in))
	}
	for _, st := range sts {
		if !bytes.Equal(st.Content, content) {
			t.Errorf("content %q, want %q", st.Content, content)
		}
		// Encoded again, the stream inflates to the same content, and
		// is no larger than compress/flate's.
		enc := st.Encode(in, st.Content)
		back := Streams(enc)
		if len(back) != 1 || !bytes.Equal(back[0].Content, content) || len(enc) > st.End-st.Start {
			t.Errorf("encoded again: %x (%d bytes, %d before), streams %+v", enc, len(enc), st.End-st.Start, back)
		}
	}
	// A trailer that does not hold the checksum is no stream of ours.
	in[len(in)-5] ^= 1
	if sts := Streams(in); len(sts) != 1 {
		t.Errorf("with the gzip trailer broken: %d streams, want 1", len(sts))
	}
}

// FuzzFixedLiterals checks that fixedLiterals deflates any bytes to a
// stream that inflates to them, in 3 bits, 8 or 9 bits a byte and 7.
func FuzzFixedLiterals(f *testing.F) {
	f.Add([]byte("[]"))
	f.Add([]byte{0, 143, 144, 255})
	f.Fuzz(func(t *testing.T, b []byte) {
		enc := fixedLiterals(b)
		got, err := io.ReadAll(flate.NewReader(bytes.NewReader(enc)))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("fixedLiterals(%x) = %x, inflates to %x, %v", b, enc, got, err)
		}
		nbits := 3 + 7
		for _, c := range b {
			nbits += 8
			if c >= 144 {
				nbits++
			}
		}
		if len(enc) != (nbits+7)/8 {
			t.Errorf("fixedLiterals(%x) is %d bytes, want %d", b, len(enc), (nbits+7)/8)
		}
	})
}
