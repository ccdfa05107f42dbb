package cli

import (
	"bytes"
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
		r := &reporter{out: &out, tty: tty, counts: map[status]int{}}
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
