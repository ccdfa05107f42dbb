package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// TestRelist checks that the entries listed before the corpus's lock are
// taken as the directory holds them after: one another run removed is
// skipped and said so, one it rewrote is read again, a new one is not
// selected.
func TestRelist(t *testing.T) {
	dir := t.TempDir()
	write := func(name, value string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("go test fuzz v1\nint("+value+")\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("a", "1")
	write("b", "2")
	write("c", "3")
	listed, err := corpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "a"))
	write("b", "20")
	write("d", "4")
	var out bytes.Buffer
	c := &Run{Rep: NewReporter(&out, &out, false, false)}
	got := c.relist(&TargetJob{target: &Target{Name: "FuzzX"}, dir: dir, Entries: listed, listed: true})
	var names []string
	for _, e := range got {
		names = append(names, e.Name+"="+strings.TrimSpace(string(e.Data[len("go test fuzz v1\n"):])))
	}
	if want := "b=int(20) c=int(3)"; strings.Join(names, " ") != want {
		t.Errorf("relist = %s, want %s", strings.Join(names, " "), want)
	}
	if want := "FuzzX/a: removed by another fuzzmin after this one listed it; skipped\n"; out.String() != want {
		t.Errorf("said %q, want %q", out.String(), want)
	}
	// Entries import gives, which -n does not write, are not listed.
	if got := c.relist(&TargetJob{target: &Target{Name: "FuzzX"}, dir: dir, Entries: listed}); len(got) != len(listed) {
		t.Errorf("relist of entries not listed = %d entries, want %d", len(got), len(listed))
	}
}
