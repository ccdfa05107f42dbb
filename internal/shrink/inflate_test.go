package shrink

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

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
