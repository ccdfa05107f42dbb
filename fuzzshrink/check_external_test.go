package fuzzshrink_test

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// TestCheck_PersistedFailureRunsFirst: a failure is written to
// testdata/fuzz/<test name>/, and the next run fails on its first case,
// the persisted one, before generating anything.
func TestCheck_PersistedFailureRunsFirst(t *testing.T) {
	t.Chdir(t.TempDir())
	runs, firstFailure := 0, 0
	prop := func(t *fuzzshrink.T) {
		runs++
		if xs := fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "xs"); sumInts(xs) > 100 {
			if firstFailure == 0 {
				firstFailure = runs
			}
			t.Fatalf("sum %d", sumInts(xs))
		}
	}
	r := &recorder{name: "TestSum/sub"}
	fuzzshrink.Check(r, prop, fuzzshrink.Seed(1))
	if got, _ := draws(r.report); got != "xs = []int{101}" {
		t.Fatalf("first run: %s\n%s", got, r.report)
	}
	dir := filepath.Join("testdata", "fuzz", "TestSum", "sub")
	files, err := os.ReadDir(dir)
	if err != nil || len(files) != 1 {
		t.Fatalf("testdata: %v, %v", files, err)
	}
	path := filepath.Join(dir, files[0].Name())
	if !regexp.MustCompile(`^[0-9a-f]{16}$`).MatchString(files[0].Name()) || !strings.Contains(r.report, "Written to "+path) {
		t.Errorf("the file %s, the report:\n%s", path, r.report)
	}
	b, _ := os.ReadFile(path)
	if vals, err := encoding.Unmarshal(b); err != nil || len(vals) != 1 || string(vals[0].([]byte)) != "\x01\xc9\x00" {
		t.Errorf("the file holds %q (%v), want the sequence of [101]", b, err)
	}

	runs, firstFailure = 0, 0
	r = &recorder{name: "TestSum/sub"}
	fuzzshrink.Check(r, prop, fuzzshrink.Seed(2))
	if firstFailure != 1 || !strings.Contains(r.report, "Shrunk from the persisted failure "+path) {
		t.Errorf("the second run failed first at run %d:\n%s", firstFailure, r.report)
	}
	if got, _ := draws(r.report); got != "xs = []int{101}" {
		t.Errorf("second run: %s", got)
	}
	// No seed generated it: the report says where it came from, and gives
	// no seed.
	if !strings.Contains(r.report, "TestSum/sub failed (replaying "+path+")") ||
		!strings.Contains(r.report, "The failure came from the saved file "+path+", not from a seed") || strings.Contains(r.report, "-fuzzshrink.seed") {
		t.Errorf("the report of a replayed failure names a seed:\n%s", r.report)
	}
	if files, _ := os.ReadDir(dir); len(files) != 1 {
		t.Errorf("the second run wrote another file: %v", files)
	}

	// A file that is not a choice sequence is reported and skipped.
	os.WriteFile(filepath.Join(dir, "bad"), []byte("go test fuzz v1\nint(1)\n"), 0o666)
	r = &recorder{name: "TestSum/sub"}
	fuzzshrink.Check(r, prop, fuzzshrink.Seed(2))
	if len(r.logs) != 1 || !strings.Contains(r.logs[0], "want one []byte") {
		t.Errorf("logs %q", r.logs)
	}
}

var seedLine = regexp.MustCompile(`failed \(seed (\d+)\)`)

// TestCheck_SeedReproduces: the seed a report prints generates the same
// cases again, as an option or as the -fuzzshrink.seed flag.
func TestCheck_SeedReproduces(t *testing.T) {
	prop := func(t *fuzzshrink.T) {
		if xs := fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 1000)).Draw(t, "xs"); sumInts(xs) > 900 {
			t.Fatalf("sum %d", sumInts(xs))
		}
	}
	first := check(t, prop)
	m := seedLine.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("no seed in\n%s", first)
	}
	var seed uint64
	for _, c := range m[1] {
		seed = seed*10 + uint64(c-'0')
	}
	if again := check(t, prop, fuzzshrink.Seed(seed)); again != first {
		t.Errorf("seed %d gave\n%s\nthen\n%s", seed, first, again)
	}
	if err := flag.Set("fuzzshrink.seed", m[1]); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("fuzzshrink.seed", "0")
	if again := check(t, prop, fuzzshrink.Seed(seed+1)); again != first {
		t.Errorf("-fuzzshrink.seed=%d gave\n%s\nthen\n%s", seed, first, again)
	}
	if got, _ := draws(first); got != "xs = []int{901}" {
		t.Errorf("shrunk %s", got)
	}
}

func TestCheck_Passes(t *testing.T) {
	t.Parallel()
	runs := 0
	report := check(t, func(t *fuzzshrink.T) {
		runs++
		x := fuzzshrink.Int().Draw(t, "x")
		if x != x {
			t.Fatal("impossible")
		}
	}, fuzzshrink.Cases(37))
	if report != "" || runs != 37 {
		t.Errorf("%d runs, report %q", runs, report)
	}
}

// TestCheck_WithATest runs Check in a real test, whose T the property's T
// embeds.
func TestCheck_WithATest(t *testing.T) {
	t.Parallel()
	fuzzshrink.Check(t, func(ft *fuzzshrink.T) {
		if ft.T != t || ft.Name() != t.Name() || ft.TempDir() == "" {
			ft.Fatalf("T %p, want %p", ft.T, t)
		}
		ft.Cleanup(func() {})
		fuzzshrink.Bool().Draw(ft, "b")
	}, fuzzshrink.Cases(5), fuzzshrink.CorpusDir(""))
}

// TestCheck_SkipsAreNotFailures: cases the property skips, or a filter
// rejects, are not failures; when almost all are, Check says so.
func TestCheck_SkipsAreNotFailures(t *testing.T) {
	t.Parallel()
	report := check(t, func(t *fuzzshrink.T) {
		if fuzzshrink.IntRange(0, 10).Draw(t, "n")%2 == 1 {
			t.Skip("odd")
		}
	})
	if report != "" {
		t.Errorf("skips failed the test:\n%s", report)
	}
	report = check(t, func(t *fuzzshrink.T) {
		fuzzshrink.Int().Draw(t, "n")
		t.Skip("always")
	})
	if !strings.Contains(report, "cases generated were not valid") {
		t.Errorf("a property that always skips: %q", report)
	}
}

func TestCheck_FilterRejectingEverything(t *testing.T) {
	t.Parallel()
	g := fuzzshrink.IntRange(0, 1000).Filter(func(n int) bool { return n > 1000 }) // never
	report := check(t, func(t *fuzzshrink.T) { g.Draw(t, "n") })
	for _, want := range []string{"cannot generate cases: IntRange(0, 1000).Filter: the predicate rejected 100 values in a row",
		"(0.0%)", "generate values that satisfy it instead of filtering them"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

// TestCheck_OtherFailures: a failure that is not the one shrunk is
// reported apart.
func TestCheck_OtherFailures(t *testing.T) {
	t.Parallel()
	report := check(t, func(t *fuzzshrink.T) {
		switch xs := fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 100)).Draw(t, "xs"); {
		case len(xs) >= 3:
			t.Fatalf("too long: %d", len(xs))
		case len(xs) == 2:
			panic("two") // met when shrinking removes an element
		}
	}, fuzzshrink.Seed(2))
	if got, _ := draws(report); got != "xs = []int{0, 0, 0}" {
		t.Errorf("shrunk %s", got)
	}
	for _, want := range []string{"Other failures met while shrinking (check them once this one is fixed):\n    panic: two at check_external_test.go:",
		`by the choice sequence []byte("\x01\x00\x01\x00\x00")`} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
}

// indexOf panics deep in the user's code, for TestCheck_PanicPosition.
func indexOf(xs []int, i int) int { return xs[i] } // the panic's line

// TestCheck_PanicPosition: a panic is reported with its position in the
// user's code and the user's frames of its stack, innermost first.
func TestCheck_PanicPosition(t *testing.T) {
	t.Parallel()
	report := check(t, func(t *fuzzshrink.T) {
		xs := fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 9)).Draw(t, "xs")
		indexOf(xs, 3)
	}, fuzzshrink.Seed(1))
	line := func(fn any) int {
		_, l := runtime.FuncForPC(reflect.ValueOf(fn).Pointer()).FileLine(reflect.ValueOf(fn).Pointer())
		return l
	}
	want := fmt.Sprintf("    panic: runtime error: index out of range [3] with length 0 at check_external_test.go:%d\n"+
		"        github.com/fuzzmin/fuzzmin/fuzzshrink_test.indexOf\n"+
		"        \t", line(indexOf))
	if !strings.Contains(report, want) || !strings.Contains(report, "fuzzshrink_test.TestCheck_PanicPosition.func1\n") {
		t.Errorf("the report lacks the panic's position and stack, %q:\n%s", want, report)
	}
	if strings.Contains(report, "runtime.gopanic") || strings.Contains(report, "fuzzshrink.runCaptured") {
		t.Errorf("the report's stack holds frames that are not the user's:\n%s", report)
	}
}

// TestCheck_Report checks the whole report of a failure.
func TestCheck_Report(t *testing.T) {
	t.Parallel()
	report := check(t, func(t *fuzzshrink.T) {
		n := fuzzshrink.IntRange(1, 10).Draw(t, "n")
		s := fuzzshrink.StringN(n, n).Draw(t, "s")
		t.Logf("n = %d", n)
		if strings.ContainsRune(s, 'z') {
			t.Errorf("%q has a z", s)
		}
	}, fuzzshrink.Seed(7), fuzzshrink.Cases(1000))
	want := regexp.MustCompile(`^fuzzshrink: TestCheck_Report failed \(seed 7\)
    n = 1
    s = "z"
    \(n does not matter: 6 other draws each failed the same way; \d+ runs\)
    check_external_test.go:\d+: n = 1
    check_external_test.go:\d+: "z" has a z
Shrunk from case \d+ \(size \d+\) of seed 7 in \d+ runs, \d+ accepted, \d+ rounds? of passes; the original:
    n = \d+
    s = ".*"
Choice sequence: \[\]byte\("\\x00#"\)
To generate the same cases: go test -run='\^TestCheck_Report\$' -fuzzshrink.seed=7$`)
	if !want.MatchString(report) {
		t.Errorf("report:\n%s", report)
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	if xs, ok := fuzzshrink.Find(fuzzshrink.SliceOf(fuzzshrink.Int()), func(xs []int) bool { return sumInts(xs) > 100 }); !ok || len(xs) != 1 || xs[0] != 101 {
		t.Errorf("Find = %v, %v", xs, ok)
	}
	if x, ok := fuzzshrink.Find(fuzzshrink.IntRange(0, 10), func(x int) bool { return x > 10 }); ok {
		t.Errorf("Find of an impossible value = %v", x)
	}
	// Floats with fewer significant bits are simpler: 1024.5 = 2¹⁰ + 2⁻¹.
	for seed := uint64(1); seed <= seeds; seed++ {
		if f, ok := fuzzshrink.Find(fuzzshrink.Float64Range(0, 1e6), func(f float64) bool { return f > 1000 && f != math.Trunc(f) },
			fuzzshrink.Seed(seed)); !ok || f != 1024.5 {
			t.Errorf("seed %d: the simplest fraction above 1000: %v, %v", seed, f, ok)
		}
	}
}

// TestCheck_LastRunIsMinimal checks that the property's last run is on the
// shrunk case, also when an explanation ran alternatives after shrinking:
// a test that keeps what it saw last sees the counterexample it is shown.
func TestCheck_LastRunIsMinimal(t *testing.T) {
	t.Parallel()
	var lastN int
	var lastS string
	report := check(t, func(t *fuzzshrink.T) {
		n := fuzzshrink.IntRange(1, 10).Draw(t, "n")
		s := fuzzshrink.StringN(n, n).Draw(t, "s")
		lastN, lastS = n, s
		if strings.ContainsRune(s, 'z') {
			t.Errorf("%q has a z", s)
		}
	}, fuzzshrink.Seed(7), fuzzshrink.Cases(1000))
	if !strings.Contains(report, "n does not matter") {
		t.Fatalf("no explanation ran; report:\n%s", report)
	}
	if lastN != 1 || lastS != "z" {
		t.Errorf("the last run drew n = %d, s = %q; want the shrunk case, n = 1, s = \"z\"", lastN, lastS)
	}
}
