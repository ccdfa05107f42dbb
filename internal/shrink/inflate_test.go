package shrink

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"os"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

func TestFindStreams(t *testing.T) {
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
	sts := findStreams(in)
	if len(sts) != 2 || sts[0].gzip || !sts[1].gzip {
		t.Fatalf("findStreams = %+v, want a zlib stream and a gzip member", sts)
	}
	if z0, g0 := 4, 4+z.Len()+len("between"); sts[0].start != z0 || sts[0].end != z0+z.Len() || sts[1].start != g0 || sts[1].end != len(in) {
		t.Errorf("streams at [%d, %d) and [%d, %d), want [%d, %d) and [%d, %d)", sts[0].start, sts[0].end, sts[1].start, sts[1].end, z0, z0+z.Len(), g0, len(in))
	}
	for _, st := range sts {
		if !bytes.Equal(st.content, content) {
			t.Errorf("content %q, want %q", st.content, content)
		}
		// Encoded again, the stream inflates to the same content, and
		// is no larger than compress/flate's.
		enc := st.encode(in, st.content)
		back := findStreams(enc)
		if len(back) != 1 || !bytes.Equal(back[0].content, content) || len(enc) > st.end-st.start {
			t.Errorf("encoded again: %x (%d bytes, %d before), streams %+v", enc, len(enc), st.end-st.start, back)
		}
	}
	// A trailer that does not hold the checksum is no stream of ours.
	in[len(in)-5] ^= 1
	if sts := findStreams(in); len(sts) != 1 {
		t.Errorf("with the gzip trailer broken: %d streams, want 1", len(sts))
	}
}

// TestShrink_XZ shrinks an xz stream the xz command wrote (12 KB of Go
// source in 3.7 KB of LZMA, a CRC-64 check) whose content holds a line,
// to the smallest stream of that line: no check, uncompressed, no sizes.
// Each candidate's content is encoded again in LZMA, or no move would
// make the stream smaller until it had lost two thirds of its content.
func TestShrink_XZ(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("../xz/testdata/text.xz")
	if err != nil {
		t.Fatal(err)
	}
	const line = "func Count("
	fails := func(args []any) bool {
		b := args[0].([]byte)
		s, ok := xz.Read(b, 1<<20)
		return ok && s.Len == len(b) && bytes.Contains(s.Content, []byte(line))
	}
	r, err := Shrink(context.Background(), []any{in}, Predicate(fails))
	if err != nil {
		t.Fatal(err)
	}
	if want := xz.Encode([]byte(line), xz.CheckNone, false); !bytes.Equal(r.Args[0].([]byte), want) {
		t.Errorf("Shrink = %q, want %q", r.Args[0], want)
	}
	t.Logf("%d → %d bytes in %d runs", len(in), len(r.Args[0].([]byte)), r.Stats.Runs)
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
