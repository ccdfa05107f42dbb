package pipeline

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// FuzzMixed fails as the tests want (t.Fatal) when s holds three a's and
// n > 7, and panics (another failure, which ends the process) when s holds
// "zz": the oracle's parallel runs and crashes are tested on it.
const mixedSrc = `package mixed

import (
	"strings"
	"testing"
)

func FuzzMixed(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		if strings.Count(s, "zz") > 0 {
			panic("other")
		}
		if strings.Count(s, "a") >= 3 && n > 7 {
			t.Fatal("three a's")
		}
	})
}

// FuzzTrivial passes every input: the benchmarks measure the search.
func FuzzTrivial(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`

func buildMixed(t testing.TB) (dir, bin string) {
	return testbintest.Build(t, "fuzzmin.test/mixed", map[string]string{"mixed_test.go": mixedSrc})
}

// TestOracle_IndependentOfProcs checks that the search gives the same
// result, in the same number of runs, and meets the same other failures,
// whatever the number of runners, candidates that crash the process
// included, and whether candidates run in fuzz workers or in processes.
func TestOracle_IndependentOfProcs(t *testing.T) {
	dir, bin := buildMixed(t)
	orig := []any{"xzazqaqzbzaqqza", 123456}
	want := failure.Signature{Kind: failure.Fail, Text: "three a's", Pos: "mixed_test.go:14"}
	var first string
	for _, procs := range []int{1, 2, 3} {
		var runners []*testbin.Runner
		for range procs {
			runners = append(runners, testbintest.Runner(t, bin, dir, "FuzzMixed", 10*time.Second))
		}
		for _, inWorker := range []bool{false, true} {
			var runs atomic.Int64
			var others shrink.Pool
			// parallelFrom 0: every batch is dealt out to all runners.
			o := &oracle{runners: runners, inWorker: inWorker, want: want, shaper: new(failure.Shaper), runs: &runs, met: map[string]int{}, pool: &others}
			res, err := shrink.Shrink(context.Background(), orig, o, shrink.BatchSize(16*procs))
			if err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, sig := range others.Sorted() {
				kept = append(kept, fmt.Sprintf("%v: %q", sig, others.Args(sig)))
			}
			got := fmt.Sprintf("%q in %d runs, others %v", res.Args, res.Stats.Runs, kept)
			if first == "" {
				first = got
				if res.Args[0] != "aaa" || res.Args[1] != 8 || others.Len() == 0 {
					t.Errorf("with 1 runner: %s, want aaa and 8, and another failure", got)
				}
				continue
			}
			if got != first {
				t.Errorf("with %d runners, in workers %v: %s\nwith 1, in processes: %s", procs, inWorker, got, first)
			}
		}
	}
}

// TestBudget checks the time an entry's search gets: -timeout, or the
// budget its job was given, and never past the search's deadline (a
// campaign's end) less the check's second, where it is a nanosecond: a
// search's timeout of 0 would be none.
func TestBudget(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name     string
		budget   time.Duration // the job's own
		deadline time.Time
		want     time.Duration
	}{
		{"timeout", 0, time.Time{}, time.Minute},
		{"job's budget", 10 * time.Second, time.Time{}, 10 * time.Second},
		{"deadline after", 0, now.Add(time.Hour), time.Minute},
		{"deadline first", 0, now.Add(5 * time.Second), 4 * time.Second},
		{"deadline past", 10 * time.Second, now.Add(-time.Second), time.Nanosecond},
	}
	c := &Run{}
	for _, tt := range tests {
		j := &entryJob{tj: &TargetJob{search: SearchOptions{Timeout: time.Minute, Deadline: tt.deadline}}, budget: tt.budget}
		// The time until the deadline shrinks while the test runs.
		if got := c.budget(j); got > tt.want || got < tt.want-time.Second {
			t.Errorf("%s: budget %v, want %v", tt.name, got, tt.want)
		}
	}
}
