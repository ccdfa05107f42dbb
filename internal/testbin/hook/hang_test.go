//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestWatchdogLimit: the hang limit is -exec-timeout until an input has
// passed, then 20 times the slowest that passed, a second at least, and
// what a worker learned is where the next one starts.
func TestWatchdogLimit(t *testing.T) {
	dir := t.TempDir()
	w := &watchdog{dir: dir, max: 10 * time.Second}
	w.start()
	if got := w.limit(); got != 10*time.Second {
		t.Errorf("before any input passed, limit = %v, want -exec-timeout", got)
	}
	sleep := func(d time.Duration, err error) func(corpusEntry) error {
		return func(corpusEntry) error { time.Sleep(d); return err }
	}
	w.run(sleep(time.Millisecond, nil), corpusEntry{})
	if got := w.limit(); got != time.Second {
		t.Errorf("after a passing input of 1ms, limit = %v, want the floor, 1s", got)
	}
	w.run(sleep(200*time.Millisecond, errors.New("failed")), corpusEntry{})
	if got := w.limit(); got != time.Second {
		t.Errorf("a failing input taught the limit: %v", got)
	}
	w.run(sleep(100*time.Millisecond, nil), corpusEntry{})
	if got := w.limit(); got < 2*time.Second || got > 3*time.Second {
		t.Errorf("after a passing input of 100ms, limit = %v, want 20 times it", got)
	}
	w.run(sleep(600*time.Millisecond, nil), corpusEntry{})
	if got := w.limit(); got != 10*time.Second {
		t.Errorf("limit = %v, want no more than -exec-timeout", got)
	}
	next := &watchdog{dir: dir, max: 10 * time.Second}
	next.start()
	if got := next.limit(); got != 10*time.Second || time.Duration(next.slowest.Load()) < 600*time.Millisecond {
		t.Errorf("a new worker starts with slowest %v, want what the last one wrote", time.Duration(next.slowest.Load()))
	}
}

// TestResidentMemory: the watchdog's measure of memory sees what an input
// keeps, touched.
func TestResidentMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the memory limit is Linux only")
	}
	before := residentMemory()
	if before <= 0 {
		t.Fatalf("residentMemory = %d", before)
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	if after := residentMemory(); after < before+32<<20 {
		t.Errorf("residentMemory went from %d to %d with 64 MiB kept", before, after)
	}
	runtime.KeepAlive(b)
}
