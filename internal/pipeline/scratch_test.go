package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSweepScratch removes the scratch directories of runs that ended
// without removing them (their lock is free), and keeps those of live runs
// (locked), those that are not ours (no lock file) and everything else.
func TestSweepScratch(t *testing.T) {
	place := t.TempDir()
	old := scratchPlaces
	scratchPlaces = []string{place}
	defer func() { scratchPlaces = old }()
	dead, err := NewScratch(place, "run")
	if err != nil {
		t.Fatal(err)
	}
	dead.lock.Close() // as a killed process would
	live, err := NewScratch(place, "ram")
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	for _, name := range []string{"fuzzmin-123-run-x", "fuzzmin-foreign", "other-1-run", ".fuzzmin-new-1"} {
		if err := os.Mkdir(filepath.Join(place, name), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	sweepScratch()
	des, _ := os.ReadDir(place)
	var left []string
	for _, de := range des {
		left = append(left, de.Name())
	}
	want := []string{".fuzzmin-new-1", filepath.Base(live.Path), "fuzzmin-123-run-x", "fuzzmin-foreign", "other-1-run"}
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
	if !strings.HasPrefix(filepath.Base(dead.Path), "fuzzmin-run-") {
		t.Errorf("scratch directory %s: want the name fuzzmin-run-…", dead.Path)
	}
}
