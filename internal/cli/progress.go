package cli

import (
	"fmt"
	"sync/atomic"
	"time"
)

// A progressLine is the live status of the entry being minimized, redrawn
// in place on a terminal and never shown elsewhere.
type progressLine struct {
	r       *reporter
	name    string
	cur     atomic.Int64
	runs    *atomic.Int64
	stop    chan struct{}
	stopped chan struct{}
}

func (r *reporter) progress(name string, size int, runs *atomic.Int64) *progressLine {
	p := &progressLine{r: r, name: name, runs: runs}
	p.cur.Store(int64(size))
	if !r.tty || r.verbose {
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
				fmt.Fprint(r.out, "\r\x1b[K")
				return
			case <-t.C:
				runs := p.runs.Load()
				rate := float64(runs) / time.Since(start).Seconds()
				fmt.Fprintf(r.out, "\r\x1b[K%s: %d bytes, %d runs (%.0f/s)", p.name, p.cur.Load(), runs, rate)
			}
		}
	}()
	return p
}

func (p *progressLine) size(n int) { p.cur.Store(int64(n)) }

func (p *progressLine) done() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
	}
}
