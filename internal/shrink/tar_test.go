package shrink

import (
	"archive/tar"
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
)

// TestShrink_Tar shrinks an archive archive/tar wrote, of three files,
// one holding a line (testdata/three-files.tar), against archive/tar
// itself: to the smallest archive it reads, one header of zeros but for
// the size and the checksum, and the line, unpadded (519 bytes).
func TestShrink_Tar(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("testdata/three-files.tar")
	if err != nil {
		t.Fatal(err)
	}
	holds := func(b []byte, line string) bool {
		r := tar.NewReader(bytes.NewReader(b))
		for {
			if _, err := r.Next(); err != nil {
				return false
			}
			if c, err := io.ReadAll(r); err == nil && strings.Contains(string(c), line) {
				return true
			}
		}
	}
	r, err := Shrink(context.Background(), []any{in}, Predicate(func(args []any) bool { return holds(args[0].([]byte), "level=9") }))
	if err != nil {
		t.Fatal(err)
	}
	got := r.Args[0].([]byte)
	zeros := func(b []byte) bool { return bytes.Count(b, []byte{0}) == len(b) }
	// The header's size field is at 124, its checksum at 148 (POSIX ustar).
	if len(got) != 519 || !holds(got, "level=9") || string(got[512:]) != "level=9" || !zeros(got[:124]) || !zeros(got[136:148]) || !zeros(got[156:512]) {
		t.Errorf("Shrink = %q (%d bytes), want a header of zeros but for the size and the checksum, and the line", got, len(got))
	}
	t.Logf("%d → %d bytes in %d runs", len(in), len(got), r.Stats.Runs)
}
