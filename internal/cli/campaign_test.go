package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// TestCampaign_PassedLater checks that a new failure whose entry passes a
// later replay (it depended on the time) is reported as flaky, not among
// the entries to commit, and that the counts say so: the table's and the
// closing line's.
func TestCampaign_PassedLater(t *testing.T) {
	var out, errs bytes.Buffer
	dir := t.TempDir()
	c := &command{rep: newReporter(&out, &errs, false, false)}
	c.opts.dir = dir
	p := &pkg{ImportPath: "example.com/x", Dir: dir}
	clock := &campaignTarget{pkg: p, target: &target{Name: "FuzzClock"}}
	stays := &campaignTarget{pkg: p, target: &target{Name: "FuzzStays"}}
	seeds := filepath.Join(dir, "testdata", "fuzz")
	flaky, real := filepath.Join(seeds, "FuzzClock", "aaaa"), filepath.Join(seeds, "FuzzStays", "bbbb")
	clock.fresh, stays.fresh = []string{flaky}, []string{real}
	found := map[failure.Signature]*campaignFinding{
		{Kind: failure.Fail, Text: "stale by %v", Pos: "x_test.go:9"}: {t: clock, path: flaky, count: 1},
		{Kind: failure.Panic, Text: "boom", Pos: "x.go:3"}:            {t: stays, path: real, count: 1},
	}
	c.passedLater(clock, flaky)
	c.passedLater(stays, filepath.Join(seeds, "FuzzStays", "other")) // not a new failure's: nothing
	c.campaignReport([]*campaignTarget{clock, stays}, found)

	if want := "example.com/x FuzzClock: testdata/fuzz/FuzzClock/aaaa failed when the fuzzer found it and passes now: flaky, not counted as a new failure"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	if want := "fuzzmin: fuzzing found 1 new failure; the entries to commit: testdata/fuzz/FuzzStays/bbbb\n"; errs.String() != want {
		t.Errorf("closing line %q, want %q", errs.String(), want)
	}
	for _, row := range []string{"example.com/x.FuzzClock", "example.com/x.FuzzStays"} {
		fields := strings.Fields(lineOf(out.String(), row))
		if len(fields) < 8 {
			t.Fatalf("no row for %s:\n%s", row, out.String())
		}
		want := map[string]string{"example.com/x.FuzzClock": "0", "example.com/x.FuzzStays": "1"}[row]
		if fields[6] != want { // the fail column
			t.Errorf("%s: fail column %s, want %s", row, fields[6], want)
		}
	}
}

// lineOf returns the first line of s that starts with prefix.
func lineOf(s, prefix string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
