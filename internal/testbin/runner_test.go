package testbin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// probeSrc is a fuzz target that fails in every way the runner tells apart,
// chosen by its argument.
const probeSrc = `package probe

import (
	"fmt"
	"os"
	"testing"
)

func FuzzProbe(f *testing.F) {
	f.Add(100)
	f.Fuzz(func(t *testing.T, n int) {
		fmt.Println("noise", n)
		t.Log("a log line")
		switch n {
		case 1:
			t.Fatalf("fatal %d", n) // line 16
		case 2:
			t.Errorf("error %d", n) // line 18
		case 3:
			var a []int
			_ = a[n] // line 21
		case 4:
			panic(fmt.Errorf("custom %d", n)) // line 23
		case 5:
			os.Exit(3)
		case 6:
			os.Exit(0) // line 27
		case 7:
			for {
			}
		case 8:
			select {}
		case 9:
			for i := 0; i < 20000; i++ {
				fmt.Println("a lot of output from the test, line", i)
			}
		case 10:
			// Bytes that Go 1.27 frames errors with, in the message.
			t.Fatalf("marks \x0e\x0f\x1b\x16 %d\nand a second line", n) // line 39
		case 11:
			t.Error("the error") // line 41
			t.Log("a log line after it")
		case 12:
			fmt.Print("no newline before the error ")
			t.Errorf("error %d", n) // line 45
		case 13:
			// Memory, 64 MiB at a time, touched, up to 4 GiB.
			for i := 0; i < 64; i++ {
				b := make([]byte, 64<<20)
				for j := range b {
					b[j] = 1
				}
				kept = append(kept, b)
			}
		case 14:
			kept = append(kept, make([]byte, 1<<40)) // more than the machine has
		case 15:
			slow() // and passes
		}
	})
}

var kept [][]byte

// FuzzTrivial passes every input: the benchmarks measure the runner.
func FuzzTrivial(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`

// slowSrc holds what the probe's input 15 runs: it takes a while.
const slowSrc = `package probe

import "time"

func slow() { time.Sleep(150 * time.Millisecond) }
`

// buildProbe builds the probe package's test binary once for all tests.
func buildProbe(t testing.TB) (dir, bin string) {
	t.Helper()
	return testbintest.Build(t, "fuzzmin.test/probe", map[string]string{"probe_test.go": probeSrc, "slow_test.go": slowSrc, "data.txt": "the user's file"})
}

func TestMain(m *testing.M) {
	code := m.Run()
	testbintest.Cleanup()
	os.Exit(code)
}

func probeInput(n int) []byte { return []byte(fmt.Sprintf("go test fuzz v1\nint(%d)\n", n)) }

func TestRunner_Outcomes(t *testing.T) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	// Go 1.26 does not tell an error from a log line: the failure's line
	// is the last logged. Go 1.27 marks errors.
	afterError := "fail: a log line after it at probe_test.go:42"
	// Nor does it find an error after a fmt.Print without a newline: the
	// failure's line is then the last log line before it.
	printedBefore := "fail: a log line at probe_test.go:13"
	if testbin.Framed(r.Toolchain) {
		afterError = "fail: the error at probe_test.go:41"
		printedBefore = "fail: error … at probe_test.go:45"
	}
	for _, tt := range []struct {
		n     int
		want  string
		crash bool // the process ends, so the input after it does not run
	}{
		{0, "ok", false},
		{9, "ok", false},
		{1, "fail: fatal … at probe_test.go:16", false},
		{2, "fail: error … at probe_test.go:18", false},
		{3, "panic: runtime error: index out of range [N] with length N at probe_test.go:21", true},
		{4, "panic: custom … at probe_test.go:23", true},
		{5, "exit: exit status 3: noise …", true}, // the last line printed is the exit's message
		{6, "panic: unexpected call to os.Exit(N) during test at probe_test.go:27", true},
		{7, "timeout", true},
		// A deadlock has no culprit: the first user frame is the f.Fuzz call.
		{8, "fatal error: all goroutines are asleep - deadlock! at probe_test.go:11", true},
		{10, "fail: marks \x0e\x0f\x1b\x16 … and a second line at probe_test.go:39", false},
		{11, afterError, false},
		{12, printedBefore, false},
	} {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			shape := func(_ int, _ failure.Signature, msg string) string { return failure.Shape(msg, nil) }
			res, err := r.Run(context.Background(), [][]byte{probeInput(0), probeInput(tt.n), probeInput(0)}, testbin.Judge{Shape: shape})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range res.Outcomes {
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
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", time.Minute)
	if r.Limit(0) != time.Minute {
		t.Fatalf("limit before any input passed = %v, want the full minute", r.Limit(0))
	}
	shape := func(_ int, _ failure.Signature, msg string) string { return msg }
	if _, err := r.Run(context.Background(), [][]byte{probeInput(0)}, testbin.Judge{Shape: shape}); err != nil {
		t.Fatal(err)
	}
	if slowest := testbin.Slowest(r); slowest == 0 || r.Limit(0) != max(testbin.HangFloor, testbin.HangFactor*slowest) {
		t.Fatalf("after a passing input: slowest %v, limit %v", slowest, r.Limit(0))
	}
	start := time.Now()
	res, err := r.Run(context.Background(), [][]byte{probeInput(7)}, testbin.Judge{Shape: shape})
	if err != nil || len(res.Outcomes) != 1 || res.Outcomes[0].Kind != failure.Timeout {
		t.Fatalf("a hanging input: %v, %v", res.Outcomes, err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("a hanging input took %v to be cut, limit %v: the limit did not adapt", took, r.Limit(0))
	}
	// An entry seen to be slow gives its inputs more time.
	if r.Limit(30*time.Second) != 30*time.Second {
		t.Errorf("with a floor of 30s: limit %v", r.Limit(30*time.Second))
	}
}

// TestWorker_Outcomes checks that a fuzz worker judges every failure it
// survives exactly as a process of its own does, and that RunInWorker gives
// the outcomes Run gives, failures that end the worker included. The
// exceptions are where Go 1.26 and 1.27 read errors differently: a
// worker's output has no marks (its tests are not chatty), so the worker
// takes the last line logged, where a process on Go 1.27 knows the error;
// and the output of the test does not reach the worker's report, so a
// fmt.Print before an error does not hide the error from it, as it does in
// a process on Go 1.26. WorkerAgrees tells such an entry apart.
//
// It checks both workers: the hook's batch worker, and the toolchain's.
func TestWorker_Outcomes(t *testing.T) {
	for _, batch := range []bool{true, false} {
		t.Run(fmt.Sprint("batch=", batch), func(t *testing.T) { testWorkerOutcomes(t, batch) })
	}
}

func testWorkerOutcomes(t *testing.T, batch bool) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	if ok, why := r.Toolchain.Worker(); !ok {
		t.Fatalf("no worker: %s", why)
	}
	if !batch {
		testbin.NoHook(r)
	}
	shape := func(_ int, _ failure.Signature, msg string) string { return failure.Shape(msg, nil) }
	for n := range 13 {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			inputs := [][]byte{probeInput(0), probeInput(n), probeInput(0)}
			want, err := r.Run(context.Background(), inputs, testbin.Judge{Shape: shape})
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.RunInWorker(context.Background(), inputs, testbin.Judge{Shape: shape})
			if err != nil {
				t.Fatal(err)
			}
			differs := n == 11 && testbin.Framed(r.Toolchain) || n == 12 && !testbin.Framed(r.Toolchain)
			// A panic ends a process, not a worker: the input after it
			// runs there.
			same := len(got.Outcomes) >= len(want.Outcomes) && fmt.Sprint(got.Outcomes[:len(want.Outcomes)]) == fmt.Sprint(want.Outcomes) &&
				fmt.Sprint(got.Outcomes[len(want.Outcomes):]) == fmt.Sprint(make([]failure.Signature, len(got.Outcomes)-len(want.Outcomes))) &&
				fmt.Sprint(got.Msgs) == fmt.Sprint(want.Msgs)
			if same == differs {
				t.Errorf("in a worker: %v %v\nin a process: %v %v", got.Outcomes, got.Msgs, want.Outcomes, want.Msgs)
			}
			if want.Outcomes[1].Crash() {
				return
			}
			// Judged by the worker itself, not by a process it fell back on.
			if !testbin.HasWorker(r) || r.InBatches() != batch {
				t.Fatalf("no worker runs, or not the one meant (batch: %v)", r.InBatches())
			}
			sig, msg, err := testbin.JudgeInWorker(r, context.Background(), probeInput(n), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if sig.Kind == failure.Fail || msg != "" {
				sig.Text = shape(0, sig, msg)
			}
			if (sig == want.Outcomes[1]) == differs {
				t.Errorf("the worker's own judgment: %v, the process's %v", sig, want.Outcomes[1])
			}
			agrees, why := r.WorkerAgrees(context.Background(), probeInput(n), want.Outcomes[1], testbin.Judge{Shape: shape}, probeInput(0))
			if agrees == differs {
				t.Errorf("WorkerAgrees = %v (%s), want %v", agrees, why, !differs)
			}
		})
	}
}

// TestWorkerAgrees_Passing checks that the gate runs the passing input: a
// target that fails on it in the worker is not run there.
func TestWorkerAgrees_Passing(t *testing.T) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	shape := func(_ int, _ failure.Signature, msg string) string { return failure.Shape(msg, nil) }
	want := failure.Signature{Kind: failure.Fail, Text: "fatal …", Pos: "probe_test.go:16"}
	if ok, why := r.WorkerAgrees(context.Background(), probeInput(1), want, testbin.Judge{Shape: shape}, probeInput(0)); !ok {
		t.Fatalf("WorkerAgrees with a passing input that passes: %s", why)
	}
	// An input said to pass that fails in the worker.
	ok, why := r.WorkerAgrees(context.Background(), probeInput(1), want, testbin.Judge{Shape: shape}, probeInput(2))
	if ok || !strings.Contains(why, "an input that passes in a process fails with fail at probe_test.go:18") {
		t.Errorf("WorkerAgrees with a passing input that fails = %v, %q", ok, why)
	}
}

// TestRunner_MemoryLimit checks that an input whose process grows past the
// memory limit fails as out of memory, in a process and in a fuzz worker,
// and that one the runtime cannot allocate for fails so too, without a
// limit: the kind alone is the identity.
func TestRunner_MemoryLimit(t *testing.T) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 20*time.Second)
	r.MemLimit = 256 << 20
	shape := func(_ int, _ failure.Signature, msg string) string { return msg }
	inputs := [][]byte{probeInput(100), probeInput(13), probeInput(100)}
	for _, run := range []struct {
		name string
		f    func(context.Context, [][]byte, testbin.Judge) (testbin.Result, error)
	}{{"process", r.Run}, {"worker", r.RunInWorker}} {
		// A limit of its own: on a busy machine, the 1s one learned from
		// the fast input can pass before the process reaches 256 MiB.
		res, err := run.f(context.Background(), inputs, testbin.Judge{Shape: shape, Limit: 15 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Outcomes); got != "[ok out of memory]" {
			t.Errorf("in a %s, with a limit of 256 MiB: %s, want [ok out of memory]", run.name, got)
		}
	}
	r.MemLimit = 0
	res, err := r.Run(context.Background(), [][]byte{probeInput(14)}, testbin.Judge{Shape: shape})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Outcomes); got != "[out of memory]" {
		t.Errorf("an allocation the runtime cannot make: %s, want [out of memory]", got)
	}
}

// TestWorker_Canceled checks that a call whose context ends leaves no
// answer behind for the next: the worker that still runs it is ended.
func TestWorker_Canceled(t *testing.T) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	if _, _, err := testbin.JudgeInWorker(r, context.Background(), probeInput(0), time.Second); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	// 7 runs for ever.
	if _, _, err := testbin.JudgeInWorker(r, ctx, probeInput(7), 10*time.Second); err != context.DeadlineExceeded {
		t.Fatalf("a call past its context's end: %v, want %v", err, context.DeadlineExceeded)
	}
	if testbin.HasWorker(r) {
		t.Error("the worker of a call its context ended still runs")
	}
	sig, msg, err := testbin.JudgeInWorker(r, context.Background(), probeInput(2), time.Second)
	if err != nil || sig.Kind != failure.Fail || !strings.Contains(msg, "error 2") {
		t.Errorf("the call after: %v %q %v, want error 2", sig, msg, err)
	}
}

// TestRunner_Slice checks that once slow passing inputs have taken a
// second and a quarter of the time, the next slow one is cut at the slice
// and counts as passing, in a worker and in processes; and that a judge
// that does not slice, or has a limit of its own, is not.
func TestRunner_Slice(t *testing.T) {
	t.Parallel()
	dir, bin := buildProbe(t)
	for _, inWorker := range []bool{true, false} {
		t.Run(fmt.Sprint("worker=", inWorker), func(t *testing.T) {
			r := testbintest.Runner(t, bin, dir, "FuzzProbe", 10*time.Second)
			run := r.Run
			if inWorker {
				run = r.RunInWorker
			}
			var fast [][]byte
			for range 20 {
				fast = append(fast, probeInput(0))
			}
			slice := testbin.Judge{Slice: true}
			if _, err := run(context.Background(), fast, slice); err != nil {
				t.Fatal(err)
			}
			var slow [][]byte
			for range 7 {
				slow = append(slow, probeInput(15))
			}
			start := time.Now()
			res, err := run(context.Background(), slow, slice)
			if err != nil || len(res.Outcomes) != len(slow) {
				t.Fatalf("the slow inputs: %v, %v", res.Outcomes, err)
			}
			if d := time.Since(start); d < 7*150*time.Millisecond || r.Cuts() != 0 {
				t.Fatalf("before the slice was taken: %v, %d cut", d, r.Cuts())
			}
			// A judge that does not slice, or has a limit of its own, as a
			// hang's search has, runs the input whole.
			for _, j := range []testbin.Judge{{}, {Slice: true, Limit: 5 * time.Second}} {
				res, err = run(context.Background(), [][]byte{probeInput(15)}, j)
				if err != nil || fmt.Sprint(res.Outcomes) != "[ok]" || r.Cuts() != 0 {
					t.Fatalf("%+v: %v, %v, %d cut", j, res.Outcomes, err, r.Cuts())
				}
			}
			// A process ends at the input it cut; a worker goes on.
			res, err = run(context.Background(), [][]byte{probeInput(15), probeInput(2), probeInput(15)}, slice)
			want, cuts := "[ok]", 1
			if inWorker {
				want, cuts = "[ok fail at probe_test.go:18 ok]", 2
			}
			if got := fmt.Sprint(res.Outcomes); err != nil || got != want || r.Cuts() != cuts {
				t.Fatalf("past the slice: %s, %v, %d cut; want %s, %d cut", got, err, r.Cuts(), want, cuts)
			}
		})
	}
}
