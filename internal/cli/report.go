package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// A reporter prints what happens: a paragraph per entry for people, or
// with -json one JSON object per event, in the spirit of go test -json.
type reporter struct {
	out, errw io.Writer
	json      *json.Encoder // nil without -json
	verbose   bool
	tty       bool // out is a terminal: show a live progress line

	mu     sync.Mutex
	counts map[status]int
	order  []status
}

func newReporter(out, errw io.Writer, jsonOut, verbose bool) *reporter {
	r := &reporter{out: out, errw: errw, verbose: verbose, counts: map[status]int{}}
	if jsonOut {
		r.json = json.NewEncoder(out)
	} else if f, ok := out.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			r.tty = true
		}
	}
	return r
}

// event is a -json line other than an entry's result.
type event struct {
	Time    time.Time     `json:"time"`
	Action  string        `json:"action"`
	Package string        `json:"package,omitempty"`
	Target  string        `json:"target,omitempty"`
	Entry   string        `json:"entry,omitempty"`
	Elapsed time.Duration `json:"elapsed,omitempty"`
	Pass    string        `json:"pass,omitempty"`
	Round   int           `json:"round,omitempty"`
	Runs    int           `json:"runs,omitempty"`
	Value   string        `json:"value,omitempty"`
	Message string        `json:"message,omitempty"`
}

func (r *reporter) emit(v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.json.Encode(v)
}

func (r *reporter) errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: "error", Message: msg})
		return
	}
	fmt.Fprintf(r.errw, "fuzzmin: %s\n", msg)
}

func (r *reporter) infof(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: "info", Message: msg})
		return
	}
	fmt.Fprintln(r.out, msg)
}

func (r *reporter) buildError(pkg, output string) {
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: "build-fail", Package: pkg, Message: output})
		return
	}
	fmt.Fprintf(r.errw, "fuzzmin: building %s:\n%s\n", pkg, output)
}

func (r *reporter) built(pkg string, d time.Duration) {
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: "build", Package: pkg, Elapsed: d})
	} else if r.verbose {
		fmt.Fprintf(r.out, "built %s in %v\n", pkg, d.Round(time.Millisecond))
	}
}

func (r *reporter) start(pkg, target, entry string) {
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: "start", Package: pkg, Target: target, Entry: entry})
	} else if r.verbose {
		fmt.Fprintf(r.out, "=== %s/%s\n", target, entry)
	}
}

// trace shows the search with -v: each pass as it starts and each accepted
// candidate.
func (r *reporter) trace(ev fuzzshrink.Event) {
	if ev.Kind == fuzzshrink.Done {
		return
	}
	value := ""
	if ev.Kind == fuzzshrink.Accepted {
		value = gosyntax.Call("f.Add", ev.Args, "")
	}
	r.sessionTrace(fuzzshrink.TraceLine{Kind: ev.Kind.String(), Pass: ev.Pass, Round: ev.Round, Runs: ev.Stats.Runs, Value: value})
}

// sessionTrace shows an event of a search, run here or in a session.
func (r *reporter) sessionTrace(ev fuzzshrink.TraceLine) {
	if !r.verbose {
		return
	}
	value := shorten(ev.Value, 200)
	if r.json != nil {
		r.emit(event{Time: time.Now(), Action: ev.Kind, Pass: ev.Pass, Round: ev.Round, Runs: ev.Runs, Value: value})
		return
	}
	if ev.Kind == fuzzshrink.Accepted.String() {
		fmt.Fprintf(r.out, "    accepted (%s, run %d): %s\n", ev.Pass, ev.Runs, value)
	} else {
		fmt.Fprintf(r.out, "  round %d: %s\n", ev.Round, ev.Pass)
	}
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n/2] + " … " + s[len(s)-n/2:]
}

// result reports what became of an entry.
func (r *reporter) result(res entryResult) {
	r.mu.Lock()
	if r.counts[res.Status] == 0 {
		r.order = append(r.order, res.Status)
	}
	r.counts[res.Status]++
	r.mu.Unlock()
	if r.json != nil {
		r.emit(struct {
			Time   time.Time `json:"time"`
			Action string    `json:"action"`
			entryResult
		}{time.Now(), "result", res})
		return
	}
	name := res.Target + "/" + res.Entry
	var b strings.Builder
	switch res.Status {
	case statusMinimized, statusWould, statusMinimal:
		verb := map[status]string{statusMinimized: "minimized", statusWould: "would minimize", statusMinimal: "already minimal"}[res.Status]
		fmt.Fprintf(&b, "%s: %s %d → %d bytes, %d runs, %v: %v\n", name, verb, res.Before, res.After, res.Runs, res.Elapsed.Round(time.Millisecond), res.Signature)
		fmt.Fprintf(&b, "\t%s\n", res.Value)
		if res.Stop != "" && res.Stop != fuzzshrink.StopDone.String() {
			fmt.Fprintf(&b, "\tsearch stopped early (%s): the result may not be minimal\n", res.Stop)
		}
		for _, o := range res.Others {
			fmt.Fprintf(&b, "\tother failure met on the way, not accepted: %s\n", o)
		}
		switch res.Status {
		case statusMinimized:
			fmt.Fprintf(&b, "\twrote %s", res.Path)
			if res.Removed != "" {
				fmt.Fprintf(&b, ", removed %s", res.Removed)
			}
			b.WriteString("\n")
		case statusWould:
			fmt.Fprintf(&b, "\twould write %s (-n: nothing written)\n", res.Path)
		}
		if res.Error != "" {
			fmt.Fprintf(&b, "\t%s\n", res.Error)
		}
		fmt.Fprintf(&b, "\tTo re-run: %s\n", res.Rerun)
	case statusPasses:
		fmt.Fprintf(&b, "%s: passes; left alone\n", name)
	case statusStopped:
		fmt.Fprintf(&b, "%s: nothing smaller found, %d runs, %v: %v; left alone\n", name, res.Runs, res.Elapsed.Round(time.Millisecond), res.Signature)
		fmt.Fprintf(&b, "\tsearch stopped early (%s): the result may not be minimal\n", res.Stop)
	default:
		fmt.Fprintf(&b, "%s: %s: %s\n", name, res.Status, res.Error)
	}
	fmt.Fprint(r.out, b.String())
}

func (r *reporter) summary() {
	if r.json != nil || len(r.order) == 0 {
		return
	}
	var parts []string
	total := 0
	for _, st := range r.order {
		parts = append(parts, fmt.Sprintf("%d %s", r.counts[st], st))
		total += r.counts[st]
	}
	fmt.Fprintf(r.out, "fuzzmin: %d entries: %s\n", total, strings.Join(parts, ", "))
}

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
