package campaign

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// TestCampaign_PassedLater checks that a new failure whose entry passes a
// later replay (it depended on the time) is reported as flaky, not among
// the entries to commit, and that the counts say so: the table's and the
// closing line's.
func TestCampaign_PassedLater(t *testing.T) {
	var out, errs bytes.Buffer
	dir := t.TempDir()
	c := &campaign{Run: &pipeline.Run{Rep: pipeline.NewReporter(&out, &errs, false, false)}}
	c.Dir = dir
	p := &pipeline.Package{ImportPath: "example.com/x", Dir: dir}
	clock := &campaignTarget{pkg: p, target: &pipeline.Target{Name: "FuzzClock"}}
	stays := &campaignTarget{pkg: p, target: &pipeline.Target{Name: "FuzzStays"}}
	seeds := filepath.Join(dir, "testdata", "fuzz")
	flaky, real := filepath.Join(seeds, "FuzzClock", "aaaa"), filepath.Join(seeds, "FuzzStays", "bbbb")
	clock.fresh, stays.fresh = []string{flaky}, []string{real}
	found := map[failure.Signature]*campaignFinding{
		{Kind: failure.Fail, Text: "stale by %v", Pos: "x_test.go:9"}: {t: clock, path: flaky},
		{Kind: failure.Panic, Text: "boom", Pos: "x.go:3"}:            {t: stays, path: real},
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

// TestCopyCorpus checks what -corpus takes into the fuzz cache: each
// content once, under the toolchain's name, and neither a file that is not
// a corpus file, one that fits refuses, nor one too large for the fuzzer's
// workers (a sparse file: its size is what counts).
func TestCopyCorpus(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	ok := []byte("go test fuzz v1\n[]byte(\"a\")\n")
	files := map[string][]byte{
		"one":     ok,
		"again":   ok,
		"random":  []byte("\x00\x01 not a corpus file"),
		"strings": []byte("go test fuzz v1\nstring(\"a\")\n"),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "huge"), ok, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(src, "huge"), maxFuzzInput+1); err != nil {
		t.Fatal(err)
	}
	fits := func(vals []any) error {
		if _, ok := vals[0].([]byte); !ok {
			return errors.New("not []byte")
		}
		return nil
	}
	n, refused, err := copyCorpus(src, dst, fits)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(refused)
	want := []string{
		"huge: 104856577 bytes, more than the toolchain's fuzz workers hold (100 MB)",
		"random: ",
		"strings: not []byte",
	}
	if n != 1 || len(refused) != len(want) {
		t.Fatalf("copied %d, refused %q; want 1 copied, %d refused", n, refused, len(want))
	}
	for i, r := range refused {
		if !strings.HasPrefix(r, want[i]) {
			t.Errorf("refused[%d] = %q, want it to start %q", i, r, want[i])
		}
	}
	if _, err := os.Stat(filepath.Join(dst, corpus.Name(ok))); err != nil {
		t.Errorf("the entry is not in the fuzz cache under the toolchain's name: %v", err)
	}
}

// TestCampaign_FuzzOnRefused checks the fallback when the hook cannot fuzz
// past failures (the test binaries' testing package is not the one it
// knows): every target's turns stop at each failure from then on, and the
// reason is said once.
func TestCampaign_FuzzOnRefused(t *testing.T) {
	var out, errs bytes.Buffer
	c := &campaign{Run: &pipeline.Run{Rep: pipeline.NewReporter(&out, &errs, false, false)}}
	a, b := &campaignTarget{fuzzOn: "a/found"}, &campaignTarget{fuzzOn: "b/found"}
	c.targets = []*campaignTarget{a, b}
	err := fmt.Errorf("%w: testing.F has no name", testbin.ErrFuzzOnRefused)
	c.fuzzOnRefused(err)
	c.fuzzOnRefused(err)
	if a.fuzzOn != "" || b.fuzzOn != "" {
		t.Errorf("after the refusal, the targets record in %q and %q", a.fuzzOn, b.fuzzOn)
	}
	const want = "fuzzmin fuzz: the hook cannot fuzz past failures: testing.F has no name; the targets stop at each failure, as go test -fuzz does\n"
	if out.String() != want {
		t.Errorf("said %q, want %q once", out.String(), want)
	}
}

// TestCampaign_NoShim checks that where the worker protocol is not
// checked, the campaign says once that an input that ends a worker stops
// the toolchain's coordinator (the workers are no shims).
func TestCampaign_NoShim(t *testing.T) {
	var out, errs bytes.Buffer
	c := &campaign{Run: &pipeline.Run{Rep: pipeline.NewReporter(&out, &errs, false, false)}}
	const why = "fuzzmin knows go1.26 and go1.27, not go1.28, which built the test binary"
	c.noShim(why)
	c.noShim(why)
	want := "fuzzmin fuzz: " + why + "; an input that ends a fuzz worker (an exit, a fatal error, a hang) stops the toolchain's coordinator, which starts again\n"
	if out.String() != want {
		t.Errorf("said %q, want %q once", out.String(), want)
	}
}

// TestNextTarget checks the order of turns: a target's first turn, then
// one that fell below half its even share, then the fastest finder.
func TestNextTarget(t *testing.T) {
	tg := func(name string, slices int, spent time.Duration, last float64) *campaignTarget {
		return &campaignTarget{target: &pipeline.Target{Name: name}, slices: slices, spent: spent, last: last}
	}
	for _, tc := range []struct {
		name    string
		targets []*campaignTarget
		want    string
	}{
		{"a first turn first", []*campaignTarget{tg("A", 3, time.Minute, 9), tg("B", 0, 0, 0)}, "B"},
		{"the fastest finder", []*campaignTarget{tg("A", 3, time.Minute, 0.1), tg("B", 3, 50*time.Second, 2)}, "B"},
		{"the floor share", []*campaignTarget{tg("A", 9, 4*time.Minute, 2), tg("B", 9, 4*time.Minute, 1), tg("C", 1, 30*time.Second, 0.01)}, "C"},
		{"above the floor", []*campaignTarget{tg("A", 9, 4*time.Minute, 2), tg("B", 9, 4*time.Minute, 1), tg("C", 3, 100*time.Second, 0.01)}, "A"},
	} {
		if got := nextTarget(tc.targets); got == nil || got.target.Name != tc.want {
			t.Errorf("%s: nextTarget = %v, want %s", tc.name, got, tc.want)
		}
	}
	done := tg("A", 1, 0, 0)
	done.done = "its seed fails"
	if got := nextTarget([]*campaignTarget{done}); got != nil {
		t.Errorf("with every target done, nextTarget = %v", got)
	}
}

// TestWatchFirst: a turn is ended once a worker has recorded its first
// failure (a .first file), not before; and the watch ends with its turn.
func TestWatchFirst(t *testing.T) {
	dir := t.TempDir()
	ended := make(chan bool)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go watchFirst(ctx, dir, func() { close(ended) })
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("1"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("slowest.ns")
	write("ab12-7.input")
	select {
	case <-ended:
		t.Fatal("ended before a failure's .first file was written")
	case <-time.After(3 * firstPoll):
	}
	write("ab12-7.first")
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("not ended a minute after a failure's .first file was written")
	}

	// Its turn over, the watch stops and ends nothing.
	ctx2, cancel2 := context.WithCancel(context.Background())
	stopped := make(chan bool)
	go func() {
		watchFirst(ctx2, t.TempDir(), func() { t.Error("ended with no failure") })
		close(stopped)
	}()
	cancel2()
	<-stopped
}

// TestMinimizing checks the time one failure's minimization gets:
// -timeout, within an eighth of the budget or 20s, and never past the
// budget's end; and the end of the budget the turns leave to it.
func TestMinimizing(t *testing.T) {
	tests := []struct {
		budget, timeout, want, reserve time.Duration
	}{
		{300 * time.Second, 2 * time.Minute, 37500 * time.Millisecond, minMinimize},
		{60 * time.Second, 2 * time.Minute, minMinimize, 7500 * time.Millisecond},
		{8 * time.Second, 2 * time.Minute, minMinimize, time.Second},
		{time.Hour, 2 * time.Minute, 2 * time.Minute, minMinimize},
		{300 * time.Second, 10 * time.Second, 10 * time.Second, minMinimize},
	}
	for _, tt := range tests {
		end := time.Now().Add(tt.budget / 2)
		c := &campaign{Config: Config{Fuzztime: tt.budget}, deadline: end}
		c.Minimizing.Search.Timeout = tt.timeout
		mz := c.minimizing()
		if mz.Search.Timeout != tt.want || !mz.Search.Deadline.Equal(end) {
			t.Errorf("budget %v, -timeout %v: %v until %v, want %v until the budget's end %v",
				tt.budget, tt.timeout, mz.Search.Timeout, mz.Search.Deadline, tt.want, end)
		}
		if got := reserve(tt.budget); got != tt.reserve {
			t.Errorf("reserve(%v) = %v, want %v", tt.budget, got, tt.reserve)
		}
	}
}

// TestTurnTime checks a slice's length: a target's first is 5s at most,
// none runs past the budget, and all are whole seconds.
func TestTurnTime(t *testing.T) {
	tests := []struct {
		slices      int
		slice, left time.Duration
		want        time.Duration
	}{
		{0, 19 * time.Second, 300 * time.Second, 5 * time.Second},
		{1, 19 * time.Second, 300 * time.Second, 19 * time.Second},
		{0, 5 * time.Second, 300 * time.Second, 5 * time.Second},
		{0, 19 * time.Second, 3 * time.Second, 3 * time.Second},
		{2, 19 * time.Second, 7400 * time.Millisecond, 7 * time.Second},
	}
	for _, tt := range tests {
		if got := turnTime(&campaignTarget{slices: tt.slices}, tt.slice, tt.left); got != tt.want {
			t.Errorf("turnTime(%d slices so far, slice %v, %v left) = %v, want %v", tt.slices, tt.slice, tt.left, got, tt.want)
		}
	}
}
