package pipeline

import (
	"fmt"
	"sync/atomic"
	"time"
)

// A progressLine is the live status of the entry being minimized, redrawn
// in place on a terminal and never shown elsewhere: its size and runs while
// it shrinks, then the phase it is in (verifying with go test).
type progressLine struct {
	r       *Reporter
	name    string
	cur     atomic.Int64
	runs    *atomic.Int64
	label   atomic.Pointer[string] // the phase, if not shrinking
	stop    chan struct{}
	stopped chan struct{}
}

func (r *Reporter) progress(name string, size int, runs *atomic.Int64) *progressLine {
	p := &progressLine{r: r, name: TerminalSafe(name), runs: runs}
	p.cur.Store(int64(size))
	if !r.animated() {
		return p
	}
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.stopped)
		start := time.Now()
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				fmt.Fprint(r.Out, "\r\x1b[K")
				return
			case <-t.C:
				if label := p.label.Load(); label != nil {
					fmt.Fprintf(r.Out, "\r\x1b[K%s: %s…", p.name, *label)
					continue
				}
				runs := p.runs.Load()
				rate := float64(runs) / time.Since(start).Seconds()
				fmt.Fprintf(r.Out, "\r\x1b[K%s: %d bytes, %d runs (%.0f/s)", p.name, p.cur.Load(), runs, rate)
			}
		}
	}()
	return p
}

func (p *progressLine) size(n int) { p.cur.Store(int64(n)) }

// phase shows what the entry is waiting for instead of its size and runs.
func (p *progressLine) phase(label string) { p.label.Store(&label) }

func (p *progressLine) done() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
	}
}

// animated reports whether progress is drawn: on a terminal, unless -v or
// -json print events instead.
func (r *Reporter) animated() bool { return r.TTY && !r.Verbose && r.JSON == nil }

// Phase shows, on a terminal, what the command waits for between entries
// (a build), or erases it when label is empty.
func (r *Reporter) Phase(label string) {
	if !r.animated() {
		return
	}
	if label == "" {
		fmt.Fprint(r.Out, "\r\x1b[K")
		return
	}
	fmt.Fprintf(r.Out, "\r\x1b[K%s…", label)
}
