//go:build darwin || freebsd || linux || openbsd

package testbin_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// shimModule is the module of the shim's tests.
var shimModule = map[string]string{"x_test.go": `package shim

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

func FuzzExit(f *testing.F) {
	f.Add([]byte("ab"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 0 && b[0] == 'e' {
			os.Exit(3)
		}
		if len(b) > 1 && b[0] == 'p' {
			panic("p")
		}
	})
}

// FuzzMinimize finds new coverage on inputs of 4 bytes or more that start
// with 'a', and exits on shorter ones: the toolchain's minimization of
// such an input (to a shorter one that keeps its coverage) ends the
// worker.
func FuzzMinimize(f *testing.F) {
	f.Add([]byte("aaaa"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != 'a' {
			return
		}
		if len(b) < 4 {
			os.Exit(5)
		}
		switch b[1] {
		case 'b':
			println()
		case 'c':
			println()
		case 'd':
			println()
		case 'e':
			println()
		}
	})
}

// FuzzFork starts a child that outlives its inputs and holds the output of
// its worker, and writes the child's process id to $FORK_PID.
func FuzzFork(f *testing.F) {
	var once sync.Once
	f.Fuzz(func(t *testing.T, n int) {
		once.Do(func() {
			cmd := exec.Command("sleep", "120")
			cmd.Stdout = os.Stdout
			if cmd.Start() == nil {
				os.WriteFile(os.Getenv("FORK_PID"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o666)
			}
		})
	})
}
`}

// shimBinary is the shim module's fuzz binary with the hook, run with env
// added to the environment: its workers shims if shim is set, which needs
// the worker protocol checked (why says why it is not; bin is then nil).
func shimBinary(t *testing.T, shim bool, env ...string) (bin *testbin.Binary, why string) {
	dir, path := testbintest.BuildFuzz(t, "example.com/shim", shimModule)
	bin = &testbin.Binary{Path: path, ModDir: dir, PkgDir: dir, Hooked: true, Env: append(os.Environ(), env...)}
	if shim {
		goroot, goversion := testbintest.GoEnv(t)
		bin.Toolchain = testbin.Identify(path, goroot, goversion, filepath.Join(goroot, "src"))
		if ok, why := bin.Toolchain.Worker(); !ok {
			return nil, why
		}
	}
	return bin, ""
}

// shimTurn is a turn of bin's target of d with that many workers, in
// directories of its own.
func shimTurn(t *testing.T, bin *testbin.Binary, target string, d time.Duration, workers int) testbin.FuzzSlice {
	work, err := bin.FuzzDir(target, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return testbin.FuzzSlice{Target: target, Dir: work, CacheDir: t.TempDir(), Time: d, Workers: workers, FuzzOn: t.TempDir(), Hang: 10 * time.Second}
}

// TestFuzz_Overdue: a target's child that holds its worker's pipes keeps
// the toolchain's coordinator from ending. With the shim the child holds
// the shim's, and the turn ends on time; without, the turn is ended past
// its time by its grace, and says so (Overdue). Either way the child is
// ended with it.
func TestFuzz_Overdue(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("the target starts sleep")
	}
	const grace = 4 * time.Second // a shim's turn ends well within, on a busy machine too
	defer testbin.SetTurnGrace(grace)()
	for _, shim := range []bool{true, false} {
		pidFile := filepath.Join(t.TempDir(), "pid")
		bin, why := shimBinary(t, shim, "FORK_PID="+pidFile)
		if bin == nil {
			t.Logf("no shim: %s", why)
			continue
		}
		s := shimTurn(t, bin, "FuzzFork", time.Second, 1)
		start := time.Now()
		out, err := bin.Fuzz(context.Background(), s)
		took := time.Since(start)
		if err != nil {
			t.Fatalf("shim %v: %v", shim, err)
		}
		t.Logf("shim %v: the turn took %v, overdue %v", shim, took.Round(time.Millisecond), out.Overdue)
		if out.Overdue == shim {
			t.Errorf("shim %v: Overdue = %v", shim, out.Overdue)
		}
		if !shim && took < s.Time+grace {
			t.Errorf("without the shim, the turn took %v, before its grace ended: the test no longer shows an overdue turn", took)
		}
		data, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatalf("shim %v: the target did not start its child: %v", shim, err)
		}
		pid, err := strconv.Atoi(string(data))
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil {
			if time.Now().After(deadline) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("shim %v: the target's child %d outlived the turn", shim, pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// TestFuzz_Shim: a turn that fuzzes past failures goes on past inputs
// that end their worker without a stop of the toolchain's coordinator
// where the worker protocol is checked (each worker a shim, which starts
// the worker that runs the inputs again), and with one where it is not.
// Either way each crash is recorded with its input, and nothing is left
// behind.
func TestFuzz_Shim(t *testing.T) {
	tmp := t.TempDir()
	if _, why := shimBinary(t, true); why != "" {
		t.Skipf("no shim: %s", why)
	}
	for _, shim := range []bool{true, false} {
		bin, _ := shimBinary(t, shim, "TMPDIR="+tmp)
		s := shimTurn(t, bin, "FuzzExit", 3*time.Second, 2)
		out, err := testbin.FuzzerCmd(bin, s).CombinedOutput()
		// Without the shim, a crash in the last second stops the turn.
		if err != nil && (shim || !strings.Contains(string(out), "Failing input written to ")) {
			t.Fatalf("shim %v: the turn: %v\n%s", shim, err, out)
		}
		restarts := strings.Count(string(out), "fuzzmin: fuzzing on past ")
		switch {
		case shim && restarts > 0:
			t.Errorf("with the shim, the toolchain's coordinator stopped %d times:\n%s", restarts, out)
		case !shim && restarts == 0:
			t.Errorf("without the shim, the toolchain's coordinator never stopped: the test no longer tells the two apart\n%s", out)
		}
		found, _, err := testbin.ReadFound(s.FuzzOn)
		if err != nil {
			t.Fatal(err)
		}
		var exits, panics int
		for _, f := range found {
			switch in := string(f.Input); {
			case f.Crash && strings.HasPrefix(in, "go test fuzz v1\n[]byte(\"e"):
				exits += f.Count
			case f.Variant && !shim:
				// A variant running when a worker ended, as a turn with
				// no shim records it.
			case !f.Crash && strings.HasPrefix(in, "go test fuzz v1\n[]byte(\"p"):
				panics += f.Count
			default:
				t.Errorf("shim %v: recorded %+v", shim, f)
			}
		}
		t.Logf("shim %v: %d exits and %d panics fuzzed past", shim, exits, panics)
		switch {
		case shim && (exits < 2 || panics < 1):
			t.Errorf("with the shim, %d exits and %d panics fuzzed past, want 2 and 1 at least", exits, panics)
		case !shim && exits < 1:
			// Each exit costs a start of the coordinator: on a busy
			// machine, 3 s may see one.
			t.Errorf("without the shim, %d exits fuzzed past, want 1 at least", exits)
		}
		for _, d := range []string{s.FuzzOn, tmp} {
			if des, _ := os.ReadDir(d); len(des) > 0 && !(d == s.FuzzOn && len(des) == 1 && des[0].Name() == "slowest.ns") {
				t.Errorf("shim %v: left in %s: %v", shim, d, des)
			}
		}
	}
}

// TestFuzz_ShimMinimize: a worker that ends while the toolchain minimizes
// an input with new coverage (FuzzMinimize's shorter inputs exit) leaves
// the shared memory holding a candidate; the shim puts the input back and
// answers with it, as a minimization that kept the whole input. The
// coordinator goes on, with the input in its corpus: a memory left as the
// worker left it would stop it (its value no longer decodes).
func TestFuzz_ShimMinimize(t *testing.T) {
	bin, why := shimBinary(t, true)
	if bin == nil {
		t.Skipf("no shim: %s", why)
	}
	s := shimTurn(t, bin, "FuzzMinimize", 3*time.Second, 2)
	out, err := testbin.FuzzerCmd(bin, s).CombinedOutput()
	if err != nil || strings.Contains(string(out), "fuzzmin: fuzzing on past ") {
		t.Fatalf("the turn: %v\n%s", err, out)
	}
	kept, _ := filepath.Glob(filepath.Join(s.CacheDir, "*", "*"))
	found, _, err := testbin.ReadFound(s.FuzzOn)
	if err != nil {
		t.Fatal(err)
	}
	exits := 0
	for _, f := range found {
		if f.Crash {
			exits += f.Count
		}
	}
	t.Logf("%d inputs kept with new coverage, %d exits fuzzed past", len(kept), exits)
	if len(kept) == 0 || exits == 0 {
		t.Errorf("%d inputs kept with new coverage, %d exits fuzzed past: want both", len(kept), exits)
	}
}
