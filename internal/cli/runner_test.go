package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// probeSrc is a fuzz target that fails in every way the runner tells apart,
// chosen by its argument.
const probeSrc = `package probe

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func FuzzProbe(f *testing.F) {
	f.Add(100)
	f.Fuzz(func(t *testing.T, n int) {
		fmt.Println("noise", n)
		t.Log("a log line")
		switch n {
		case 1:
			t.Fatalf("fatal %d", n) // line 17
		case 2:
			t.Errorf("error %d", n) // line 19
		case 3:
			var a []int
			_ = a[n] // line 22
		case 4:
			panic(fmt.Errorf("custom %d", n)) // line 24
		case 5:
			os.Exit(3)
		case 6:
			os.Exit(0) // line 28
		case 7:
			for {
			}
		case 8:
			select {}
		case 9:
			for i := 0; i < 100000; i++ {
				fmt.Println("a lot of output from the test, line", i)
			}
		}
	})
}

// FuzzMixed fails as the tests want (t.Fatal) when s holds three a's and
// n > 7, and panics (another failure, which ends the process) when s holds
// "zz": the oracle's parallel runs and crashes are tested on it.
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

// FuzzTrivial passes every input: the benchmarks measure the runner.
func FuzzTrivial(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`

var (
	probeOnce sync.Once
	probeDir  string
	probeBin  string
	probeErr  error
)

// buildProbe builds the probe package's test binary once for all tests.
func buildProbe(t testing.TB) (dir, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	probeOnce.Do(func() {
		probeDir, probeErr = os.MkdirTemp("", "fuzzmin-probe")
		if probeErr != nil {
			return
		}
		os.WriteFile(filepath.Join(probeDir, "go.mod"), []byte("module fuzzmin.test/probe\n\ngo 1.26\n"), 0o666)
		os.WriteFile(filepath.Join(probeDir, "probe_test.go"), []byte(probeSrc), 0o666)
		os.WriteFile(filepath.Join(probeDir, "data.txt"), []byte("the user's file"), 0o666)
		probeBin = filepath.Join(probeDir, "probe.test")
		cmd := exec.Command("go", "test", "-c", "-o", probeBin, ".")
		cmd.Dir = probeDir
		out, err := cmd.CombinedOutput()
		if err != nil {
			probeErr = fmt.Errorf("%v\n%s", err, out)
		}
	})
	if probeErr != nil {
		t.Fatal(probeErr)
	}
	return probeDir, probeBin
}

func TestMain(m *testing.M) {
	// The tests that run Main make this binary go test's -exec program.
	if len(os.Args) > 1 && os.Args[1] == execArg {
		os.Exit(runExecWrapper(os.Args[2:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	if probeDir != "" {
		os.RemoveAll(probeDir)
	}
	os.Exit(code)
}

func probeInput(n int) []byte { return []byte(fmt.Sprintf("go test fuzz v1\nint(%d)\n", n)) }

func TestRunner_Outcomes(t *testing.T) {
	dir, bin := buildProbe(t)
	r, err := testRunner(t, bin, dir, "FuzzProbe", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		n     int
		want  string
		crash bool // the process ends, so the input after it does not run
	}{
		{0, "ok", false},
		{9, "ok", false},
		{1, "fail: fatal N at probe_test.go:17", false},
		{2, "fail: error N at probe_test.go:19", false},
		{3, "panic: runtime error: index out of range [N] with length N at probe_test.go:22", true},
		{4, "panic: custom N at probe_test.go:24", true},
		{5, "exit: exit status 3", true},
		{6, "panic: unexpected call to os.Exit(N) during test at probe_test.go:28", true},
		{7, "timeout", true},
		// A deadlock has no culprit: the first user frame is the f.Fuzz call.
		{8, "fatal error: all goroutines are asleep - deadlock! at probe_test.go:12", true},
	} {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			shape := func(_ int, msg string) string { return failure.Shape(msg, nil) }
			res, err := r.run(context.Background(), [][]byte{probeInput(0), probeInput(tt.n), probeInput(0)}, shape, never)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range res.outcomes {
				got = append(got, s.String())
			}
			want := []string{"ok", tt.want, "ok"}
			if tt.crash {
				want = want[:2]
			}
			if strings.Join(got, "; ") != strings.Join(want, "; ") {
				t.Errorf("outcomes = %q, want %q", got, want)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "testdata"))
	if len(entries) != 0 {
		t.Errorf("the package's testdata has %d entries, want none: candidates must stay private", len(entries))
	}
}

// TestRunner_AdaptiveLimit checks that once inputs have passed, a hanging
// input is cut at a multiple of the slowest passing one (never below
// hangFloor), not at the full -exec-timeout.
func TestRunner_AdaptiveLimit(t *testing.T) {
	dir, bin := buildProbe(t)
	r, err := testRunner(t, bin, dir, "FuzzProbe", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.limit() != time.Minute {
		t.Fatalf("limit before any input passed = %v, want the full minute", r.limit())
	}
	shape := func(_ int, msg string) string { return msg }
	if _, err := r.run(context.Background(), [][]byte{probeInput(0)}, shape, never); err != nil {
		t.Fatal(err)
	}
	if r.slowest == 0 || r.limit() != max(hangFloor, hangFactor*r.slowest) {
		t.Fatalf("after a passing input: slowest %v, limit %v", r.slowest, r.limit())
	}
	start := time.Now()
	res, err := r.run(context.Background(), [][]byte{probeInput(7)}, shape, never)
	if err != nil || len(res.outcomes) != 1 || res.outcomes[0].Kind != kindTimeout {
		t.Fatalf("a hanging input: %v, %v", res.outcomes, err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("a hanging input took %v to be cut, limit %v: the limit did not adapt", took, r.limit())
	}
}

// TestOracle_IndependentOfProcs checks that the search gives the same
// result, in the same number of runs, and meets the same other failures,
// whatever the number of runners, candidates that crash the process
// included, and whether candidates run in fuzz workers or in processes.
func TestOracle_IndependentOfProcs(t *testing.T) {
	dir, bin := buildProbe(t)
	orig := []any{"xzazqaqzbzaqqza", 123456}
	want := signature{Kind: kindFail, Text: "three a's", Pos: "probe_test.go:51"}
	var first string
	for _, procs := range []int{1, 2, 3} {
		var runners []*runner
		for range procs {
			r, err := testRunner(t, bin, dir, "FuzzMixed", 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			runners = append(runners, r)
		}
		for _, inWorker := range []bool{false, true} {
			var runs atomic.Int64
			var others pool
			// parallelFrom 0: every batch is dealt out to all runners.
			o := &oracle{runners: runners, inWorker: inWorker, want: want, runs: &runs, met: map[string]bool{}, pool: &others}
			res, err := fuzzshrink.Shrink(context.Background(), orig, o, fuzzshrink.BatchSize(16*procs))
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprintf("%q in %d runs, others %v", res.Args, res.Stats.Runs, others)
			if first == "" {
				first = got
				if res.Args[0] != "aaa" || res.Args[1] != 8 || len(others) == 0 {
					t.Errorf("with 1 runner: %s, want aaa and 8, and another failure", got)
				}
				continue
			}
			if got != first {
				t.Errorf("with %d runners, in workers %v: %s\nwith 1, in processes: %s", procs, inWorker, got, first)
			}
		}
		for _, r := range runners {
			r.closeWorker()
		}
	}
}

// TestWorker_Outcomes checks that a fuzz worker judges every failure it
// survives exactly as a process of its own does, and that runInWorker gives
// the outcomes run gives, failures that end the worker included.
func TestWorker_Outcomes(t *testing.T) {
	dir, bin := buildProbe(t)
	r, err := testRunner(t, bin, dir, "FuzzProbe", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer r.closeWorker()
	shape := func(_ int, msg string) string { return failure.Shape(msg, nil) }
	for n := range 10 {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			inputs := [][]byte{probeInput(0), probeInput(n), probeInput(0)}
			want, err := r.run(context.Background(), inputs, shape, never)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.runInWorker(context.Background(), inputs, shape, never)
			if err != nil {
				t.Fatal(err)
			}
			// A panic ends a process, not a worker: the input after it
			// runs there.
			if len(got.outcomes) < len(want.outcomes) || fmt.Sprint(got.outcomes[:len(want.outcomes)]) != fmt.Sprint(want.outcomes) ||
				fmt.Sprint(got.outcomes[len(want.outcomes):]) != fmt.Sprint(make([]signature, len(got.outcomes)-len(want.outcomes))) ||
				fmt.Sprint(got.msgs) != fmt.Sprint(want.msgs) {
				t.Errorf("in a worker: %v %v\nin a process: %v %v", got.outcomes, got.msgs, want.outcomes, want.msgs)
			}
			if want.outcomes[1].Crash() {
				return
			}
			// Judged by the worker itself, not by a process it fell back on.
			if r.worker == nil {
				t.Fatal("no worker runs")
			}
			out, err := r.worker.run(context.Background(), probeInput(n), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			var sig signature
			var msg string
			ok := true
			if out != "" {
				sig, msg, ok = workerFailure(out, r.goroot)
			}
			if sig.Kind == kindFail || msg != "" {
				sig.Text = shape(0, msg)
			}
			if !ok || sig != want.outcomes[1] {
				t.Errorf("the worker's own judgment: %v (ok %v), want %v; it said:\n%s", sig, ok, want.outcomes[1], out)
			}
		})
	}
}

// testRunner returns a runner of target in the test binary bin of the
// package in dir, the root of its module.
func testRunner(t testing.TB, bin, dir, target string, timeout time.Duration) (*runner, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	b := &testBinary{path: bin, modDir: dir, pkgDir: dir, goroot: strings.TrimSpace(string(out)), timeout: timeout, env: os.Environ(), ram: t.TempDir()}
	return b.runner(target, t.TempDir())
}

// TestSweepScratch removes the scratch directories of runs that ended
// without removing them (their lock is free), and keeps those of live runs
// (locked), those that are not ours (no lock file) and everything else.
func TestSweepScratch(t *testing.T) {
	place := t.TempDir()
	old := scratchPlaces
	scratchPlaces = []string{place}
	defer func() { scratchPlaces = old }()
	dead, err := newScratch(place, "run")
	if err != nil {
		t.Fatal(err)
	}
	dead.lock.Close() // as a killed process would
	live, err := newScratch(place, "ram")
	if err != nil {
		t.Fatal(err)
	}
	defer live.remove()
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
	want := []string{".fuzzmin-new-1", filepath.Base(live.path), "fuzzmin-123-run-x", "fuzzmin-foreign", "other-1-run"}
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("left %v, want %v", left, want)
	}
	if !strings.HasPrefix(filepath.Base(dead.path), "fuzzmin-run-") {
		t.Errorf("scratch directory %s: want the name fuzzmin-run-…", dead.path)
	}
}
