package testbin_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// BenchmarkFuzzRate compares the executions per second of go test -fuzz
// on a target, as users run it (the test binary with its default flags:
// inputs with new coverage minimized), with fuzzmin fuzz's turn on it,
// whose worker runs the target through the hook (fuzzing past failures,
// a variant with the package's literals for one input in 16, inputs with
// new coverage minimized for 2 s at most): one instrumented binary, one
// target (a parser of words, microseconds a run), 2 workers, 10 s from an
// empty generated corpus each; and go test -fuzz with its minimization
// off. And fuzzmin fuzz's turn on a target whose shallow bug fires on
// most inputs, a panic (each failing input a counter) or an exit (each a
// start of the worker's child, under the shim; without it, where the
// worker protocol is not checked, a start of the toolchain's coordinator
// again), timed by the wall clock.
// Run it with -benchtime 3x.
func BenchmarkFuzzRate(b *testing.B) {
	dir, path := testbintest.BuildFuzz(b, "example.com/rate", map[string]string{
		"words.go": `package rate

import "strings"

// Words splits text into words, and lowers each that starts with "X-".
func Words(s string) []string {
	w := strings.Fields(s)
	for i, x := range w {
		if strings.HasPrefix(x, "X-") && len(x) > 4 {
			w[i] = strings.ToLower(x)
		}
	}
	return w
}
`,
		"words_test.go": `package rate

import (
	"os"
	"testing"
)

func FuzzWords(f *testing.F) {
	f.Add("a few words")
	f.Fuzz(func(t *testing.T, s string) { Words(s) })
}

// FuzzShallow fails on most inputs the fuzzer makes, as a shallow bug
// does: those of 8 bytes or more with two words. It panics, or with
// FUZZRATE_EXIT set exits.
func FuzzShallow(f *testing.F) {
	f.Add("a few")
	f.Fuzz(func(t *testing.T, s string) {
		if len(Words(s)) > 1 && len(s) >= 8 {
			if os.Getenv("FUZZRATE_EXIT") != "" {
				os.Exit(3)
			}
			panic("shallow")
		}
	})
}
`,
	})
	dict := filepath.Join(b.TempDir(), "dict")
	if err := testbin.WriteDict([]string{dir}, dict); err != nil {
		b.Fatal(err)
	}
	goroot, goversion := testbintest.GoEnv(b)
	bin := &testbin.Binary{Path: path, ModDir: dir, PkgDir: dir, Hooked: true, Dict: dict,
		Toolchain: testbin.Identify(path, goroot, goversion, filepath.Join(goroot, "src"))}
	if ok, why := bin.Toolchain.Worker(); !ok {
		b.Fatalf("no shim: %s", why)
	}
	exits := *bin
	exits.Env = append(os.Environ(), "FUZZRATE_EXIT=1")
	// The worker protocol unchecked: no shim.
	noShim, exitsNoShim := *bin, exits
	noShim.Toolchain, exitsNoShim.Toolchain = nil, nil
	for _, how := range []string{"go-test-fuzz", "go-test-fuzz-minimizetime=0", "fuzzmin-fuzz", "fuzzmin-fuzz-noshim", "fuzzmin-fuzz-shallow-panic", "fuzzmin-fuzz-shallow-exit", "fuzzmin-fuzz-shallow-exit-noshim"} {
		b.Run(how, func(b *testing.B) {
			var execs, fails int64
			var took time.Duration
			for b.Loop() {
				target, bin := "FuzzWords", bin
				switch how {
				case "fuzzmin-fuzz-shallow-panic":
					target = "FuzzShallow"
				case "fuzzmin-fuzz-shallow-exit":
					target, bin = "FuzzShallow", &exits
				case "fuzzmin-fuzz-noshim":
					bin = &noShim
				case "fuzzmin-fuzz-shallow-exit-noshim":
					target, bin = "FuzzShallow", &exitsNoShim
				}
				work, err := bin.FuzzDir(target, b.TempDir(), nil)
				if err != nil {
					b.Fatal(err)
				}
				var st testbin.FuzzStats
				switch how {
				case "go-test-fuzz":
					st = goTestFuzz(b, path, work, b.TempDir())
				case "go-test-fuzz-minimizetime=0":
					st = goTestFuzz(b, path, work, b.TempDir(), "-test.fuzzminimizetime=0")
				default:
					s := testbin.FuzzSlice{Target: target, Dir: work, CacheDir: b.TempDir(), Time: 10 * time.Second, Workers: 2, FuzzOn: b.TempDir(), Hang: 10 * time.Second}
					start := time.Now()
					out, err := bin.Fuzz(context.Background(), s)
					// FuzzShallow's turn goes past its failures, and stops
					// on one only in its last second.
					if err != nil || out.Crasher != nil && target == "FuzzWords" {
						b.Fatalf("the fuzzer: %v, stopped on %q", err, out.Crasher)
					}
					st = out.FuzzStats
					if target == "FuzzShallow" {
						// Each toolchain's coordinator the hook's ran
						// says its own time; the turn's is the whole.
						st.Elapsed = time.Since(start)
					}
					found, more, err := testbin.ReadFound(s.FuzzOn)
					if err != nil {
						b.Fatal(err)
					}
					fails += int64(more)
					for _, f := range found {
						fails += int64(f.Count)
					}
				}
				execs, took = execs+st.Execs, took+st.Elapsed
			}
			b.ReportMetric(float64(execs)/took.Seconds(), "execs/s")
			if strings.HasPrefix(how, "fuzzmin-fuzz-shallow") {
				b.ReportMetric(float64(fails)/took.Seconds(), "fails/s")
			}
		})
	}
}

// goTestFuzz runs the test binary at path as go test -fuzz=FuzzWords
// -fuzztime=10s -parallel=2 runs it, with flags, in dir, and returns its
// last line of progress.
func goTestFuzz(b *testing.B, path, dir, cache string, flags ...string) testbin.FuzzStats {
	cmd := exec.Command(path, append([]string{"-test.run=^$", "-test.fuzz=^FuzzWords$", "-test.fuzztime=10s", "-test.parallel=2",
		"-test.fuzzcachedir=" + cache, "-test.timeout=0", "-test.paniconexit0"}, flags...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("go test -fuzz: %v\n%s", err, out)
	}
	var last testbin.FuzzStats
	for _, l := range strings.Split(string(out), "\n") {
		if st, ok := testbin.ParseFuzzStatsLine(strings.TrimSpace(l)); ok {
			last = st
		}
	}
	return last
}
