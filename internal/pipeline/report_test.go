package pipeline

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the progress goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgressLine checks that on a terminal the progress line is redrawn
// in place and erased when the entry is done, and that it never shows
// otherwise.
func TestProgressLine(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var out syncBuffer
		r := &Reporter{Out: &out, TTY: tty, counts: map[status]int{}}
		var runs atomic.Int64
		runs.Store(42)
		p := r.progress("FuzzX/e1", 1000, &runs)
		p.size(31)
		deadline := time.Now().Add(5 * time.Second)
		for tty && !strings.Contains(out.String(), "runs") && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		p.done()
		got := out.String()
		if !tty {
			if got != "" {
				t.Errorf("not a terminal: progress wrote %q", got)
			}
			continue
		}
		if !strings.HasPrefix(got, "\r\x1b[KFuzzX/e1: 31 bytes, 42 runs (") || !strings.HasSuffix(got, "\r\x1b[K") {
			t.Errorf("on a terminal: progress wrote %q, want a line redrawn in place and erased", got)
		}
	}
}

// TestProgressLine_Phase checks that a phase (the build, the verification)
// replaces the size and runs on the line while it lasts, and that nothing
// is drawn when stdout is not a terminal.
func TestProgressLine_Phase(t *testing.T) {
	var out syncBuffer
	r := &Reporter{Out: &out, TTY: true, counts: map[status]int{}}
	r.Phase("building example.com/x")
	r.Phase("")
	if got := out.String(); got != "\r\x1b[Kbuilding example.com/x…\r\x1b[K" {
		t.Errorf("phase wrote %q", got)
	}
	out = syncBuffer{}
	var runs atomic.Int64
	p := r.progress("FuzzX/e1", 10, &runs)
	p.phase("verifying with go test")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "verifying") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p.done()
	if got := out.String(); !strings.Contains(got, "\r\x1b[KFuzzX/e1: verifying with go test…") || strings.Contains(got, "runs") {
		t.Errorf("progress in a phase wrote %q", got)
	}
	quiet := &Reporter{Out: &out, counts: map[status]int{}}
	out = syncBuffer{}
	quiet.Phase("building")
	if out.String() != "" {
		t.Errorf("not a terminal: phase wrote %q", out.String())
	}
}

func TestChangedRegion(t *testing.T) {
	for _, tt := range []struct{ prev, cur, want string }{
		{`f.Add(string("[{\"a\":1},{\"id\":-1}]"))`, `f.Add(string("[{\"id\":-1}]"))`, `f.Add(string("[{\"⟨a\":1},{\" → ⟩id\":-1}]"))`},
		{`f.Add(int(1000))`, `f.Add(int(500))`, `f.Add(int(⟨10 → 5⟩00))`},
		{strings.Repeat("x", 100) + "abc" + strings.Repeat("y", 100), strings.Repeat("x", 100) + "b" + strings.Repeat("y", 100),
			"…" + strings.Repeat("x", 24) + "⟨abc → b⟩" + strings.Repeat("y", 24) + "…"},
		{"héllo", "hallo", "h⟨é → a⟩llo"},
	} {
		if got := changedRegion(tt.prev, tt.cur); got != tt.want {
			t.Errorf("changedRegion(%q, %q) = %q, want %q", tt.prev, tt.cur, got, tt.want)
		}
	}
}

// TestWriteOthers checks that a result names each other failure once,
// the most often met first, with its count, and counts the rest in one
// line past maxOthersShown.
func TestWriteOthers(t *testing.T) {
	counts := map[string]int{"fail: b": 3, "fail: a": 3, "panic: c": 7}
	for i := range 6 {
		counts[fmt.Sprintf("fail: z%d", i)] = 1
	}
	var b strings.Builder
	writeOthers(&b, metFailures(counts))
	want := "\tother failure met on the way, not accepted (7 candidates): panic: c\n" +
		"\tother failure met on the way, not accepted (3 candidates): fail: a\n" +
		"\tother failure met on the way, not accepted (3 candidates): fail: b\n" +
		"\tother failure met on the way, not accepted (1 candidate): fail: z0\n" +
		"\tother failure met on the way, not accepted (1 candidate): fail: z1\n" +
		"\tand 4 more, met by 4 candidates\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestQuietSummary checks the lines that count the results not shown, one
// and many.
func TestQuietSummary(t *testing.T) {
	for _, tc := range []struct {
		passes int
		same   map[string]int
		want   string
	}{
		{1, nil, "FuzzX: 1 more entry passes; left alone\n"},
		{147, nil, "FuzzX: 147 more entries pass; left alone\n"},
		{0, map[string]int{"FuzzX/b": 1, "FuzzX/a": 36}, "FuzzX: 36 more entries fail as FuzzX/a does: removed\nFuzzX: 1 more entry fails as FuzzX/b does: removed\n"},
	} {
		var out bytes.Buffer
		c := &Run{Rep: NewReporter(&out, &out, false, false)}
		c.quietSummary(&TargetJob{target: &Target{Name: "FuzzX"}}, tc.passes, tc.same)
		if out.String() != tc.want {
			t.Errorf("quietSummary(%d, %v) said\n%s\nwant\n%s", tc.passes, tc.same, out.String(), tc.want)
		}
	}
}
