package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// A Reporter prints what happens: a paragraph per entry for people, or
// with -json one JSON object per event, shaped like those of go test -json
// (the manual describes them).
type Reporter struct {
	Out, errw io.Writer
	JSON      *json.Encoder // nil without -json
	Verbose   bool
	TTY       bool      // out is a terminal: show a live progress line
	began     time.Time // when the command started
	NoRerun   bool      // the packages are gone when the command ends (the demo): no re-run lines

	mu       sync.Mutex
	counts   map[status]int
	order    []status
	findings int // of fuzzmin check
	// totals are the counts of the summary event that ends every run
	// under -json (end): the entries by status, or check's findings.
	totals map[status]int
}

func NewReporter(out, errw io.Writer, jsonOut, verbose bool) *Reporter {
	r := &Reporter{Out: out, errw: errw, Verbose: verbose, counts: map[status]int{}, began: time.Now()}
	if jsonOut {
		r.JSON = json.NewEncoder(out)
	} else if f, ok := out.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			r.TTY = true
		}
	}
	return r
}

// The actions of -json's events (docs/json.md). fuzzmin keeps go test
// -json's field names and types, and of its actions uses only output, for
// lines go test printed: its own events have names go test does not use,
// so that no consumer of go test -json counts a test that did not run.
const (
	actionBuild      = "build"       // a package's test binary is built
	actionBuildError = "build-error" // a package does not build
	actionEntry      = "entry"       // the work on an entry starts
	actionSearchPass = "search-pass" // -v: a pass of the search starts
	actionAccept     = "accept"      // -v: a candidate was accepted
	actionReport     = "report"      // a line of the report for people
	actionResult     = "result"      // what became of an entry
	actionFinding    = "finding"     // a finding of fuzzmin check
	actionError      = "error"       // an error of the command
	actionSummary    = "summary"     // the counts, at the end
	actionOutput     = "output"      // a line go test printed (-fuzz)
	ActionFuzzTarget = "fuzz-target" // fuzzmin fuzz: what fuzzing a target did
	ActionFuzzTurn   = "fuzz-turn"   // fuzzmin fuzz: one turn of a target
)

// event is a -json line other than an entry's result.
type event struct {
	Time    time.Time
	Action  string
	Package string         `json:",omitempty"`
	Test    string         `json:",omitempty"`
	Elapsed float64        `json:",omitempty"` // seconds
	Output  string         `json:",omitempty"`
	Pass    string         `json:",omitempty"`
	Round   int            `json:",omitempty"`
	Runs    int            `json:",omitempty"`
	Value   string         `json:",omitempty"`
	Counts  map[status]int `json:",omitempty"`
	Exit    *int           `json:",omitempty"` // of the summary: the exit code
	// Of a finding of fuzzmin check:
	Path    string `json:",omitempty"`
	Line    int    `json:",omitempty"`
	Level   string `json:",omitempty"`
	Message string `json:",omitempty"`
}

func (r *Reporter) Emit(v any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.JSON.Encode(v)
}

// Output prints the report's text for people, or with -json as report
// events of pkg and test, one per line.
func (r *Reporter) Output(w io.Writer, pkg, test, text string) {
	r.lines(w, actionReport, pkg, test, text)
}

// goOutput prints a line go test printed, or with -json an output event
// of pkg, as go test -json has it.
func (r *Reporter) goOutput(pkg, line string) {
	r.lines(r.Out, actionOutput, pkg, "", line)
}

func (r *Reporter) lines(w io.Writer, action, pkg, test, text string) {
	if r.JSON == nil {
		if action != actionOutput {
			text = TerminalSafe(text)
		}
		fmt.Fprint(w, text)
		return
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" {
			r.Emit(event{Time: time.Now(), Action: action, Package: pkg, Test: test, Output: line})
		}
	}
}

func (r *Reporter) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if r.JSON != nil {
		r.Emit(event{Time: time.Now(), Action: actionError, Output: msg + "\n"})
		return
	}
	fmt.Fprintf(r.errw, "fuzzmin: %s\n", TerminalSafe(msg))
}

func (r *Reporter) Infof(format string, args ...any) {
	r.Output(r.Out, "", "", fmt.Sprintf(format, args...)+"\n")
}

// Verbosef prints a line for people with -v.
func (r *Reporter) Verbosef(format string, args ...any) {
	if r.Verbose && r.JSON == nil {
		r.Output(r.Out, "", "", fmt.Sprintf(format, args...)+"\n")
	}
}

func (r *Reporter) buildError(pkg, output string) {
	if r.JSON != nil {
		r.Emit(event{Time: time.Now(), Action: actionBuildError, Package: pkg, Output: output + "\n"})
		return
	}
	fmt.Fprintf(r.errw, "fuzzmin: building %s:\n%s\n", pkg, output)
}

// Built reports a test binary built; cached says that the one in
// fuzzmin's cache was up to date, and nothing was linked.
func (r *Reporter) Built(pkg string, d time.Duration, cached bool) {
	switch {
	case r.JSON != nil:
		r.Emit(event{Time: time.Now(), Action: actionBuild, Package: pkg, Elapsed: Seconds(d)})
	case r.Verbose && cached:
		fmt.Fprintf(r.Out, "built %s in %v: its test binary in fuzzmin's cache was up to date\n", pkg, d.Round(time.Millisecond))
	case r.Verbose:
		fmt.Fprintf(r.Out, "built %s in %v\n", pkg, d.Round(time.Millisecond))
	}
}

func (r *Reporter) start(pkg, test string) {
	if r.JSON != nil {
		r.Emit(event{Time: time.Now(), Action: actionEntry, Package: pkg, Test: test})
	} else if r.Verbose {
		fmt.Fprintf(r.Out, "=== %s\n", test)
	}
}

// trace shows a search run here with -v: each pass as it starts and each
// accepted candidate.
func (r *Reporter) trace(j *entryJob, ev shrink.Event) {
	e := session.Event{Action: session.ActionPass, Pass: ev.Pass, Round: ev.Round, Runs: ev.Stats.Runs}
	switch ev.Kind {
	case shrink.Done:
		return
	case shrink.Accepted:
		e.Action, e.Value = session.ActionAccept, gosyntax.Call("f.Add", ev.Args, "")
	}
	r.event(j, e)
}

// event shows a step of a search, run here or in a session, with -v: a
// pass as it starts, and an accepted candidate as the region of the value
// that changed since the last one, with some context.
func (r *Reporter) event(j *entryJob, ev session.Event) {
	if !r.Verbose {
		return
	}
	value := ev.Value
	if ev.Action == session.ActionAccept {
		if j.lastValue != "" {
			value = changedRegion(j.lastValue, ev.Value)
		} else {
			value = shorten(value, 200)
		}
		j.lastValue = ev.Value
	}
	if r.JSON != nil {
		action := actionAccept
		if ev.Action != session.ActionAccept {
			action = actionSearchPass
		}
		r.Emit(event{Time: time.Now(), Action: action, Package: j.pkg.ImportPath, Test: j.target.Name + "/" + j.entry.Name,
			Pass: ev.Pass, Round: ev.Round, Runs: ev.Runs, Value: value})
		return
	}
	if ev.Action == session.ActionAccept {
		fmt.Fprintf(r.Out, "    accepted (%s, run %d): %s\n", ev.Pass, ev.Runs, value)
	} else {
		fmt.Fprintf(r.Out, "  round %d: %s\n", ev.Round, ev.Pass)
	}
}

// result reports what became of an entry.
func (r *Reporter) result(res Result) {
	r.mu.Lock()
	if r.counts[res.Status] == 0 {
		r.order = append(r.order, res.Status)
	}
	r.counts[res.Status]++
	r.mu.Unlock()
	if r.NoRerun {
		res.Rerun = ""
	}
	res.Value = preview(res.Value)
	draws := strings.Split(res.Draws, "\n")
	for i := range draws {
		draws[i] = preview(draws[i])
	}
	res.Draws = strings.Join(draws, "\n")
	if !res.quiet || r.Verbose {
		r.Output(r.Out, res.Package, res.Test, paragraph(res))
	}
	if r.JSON != nil {
		sig := ""
		if res.Signature.Failed() {
			sig = res.Signature.String()
		}
		r.Emit(struct {
			Time   time.Time
			Action string
			Result
			Signature string `json:",omitempty"`
		}{time.Now(), actionResult, res, sig})
	}
}

// finding reports a finding of fuzzmin check, also as a GitHub Actions
// annotation of file if file is not "".
func (r *Reporter) finding(pkg string, f finding, file string) {
	r.mu.Lock()
	r.findings++
	r.mu.Unlock()
	// A finding of a directory has no line.
	line := fmt.Sprintf("%s: %s\n", f.Path, f.Message)
	if f.Line > 0 {
		line = fmt.Sprintf("%s:%d: %s\n", f.Path, f.Line, f.Message)
	}
	if file != "" {
		// The message and the properties are escaped as the workflow
		// commands want.
		msg := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(f.Message)
		file = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ",", "%2C", ":", "%3A").Replace(file)
		props := "file=" + file
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		line += fmt.Sprintf("::%s %s::%s\n", f.Level, props, msg)
	}
	r.Output(r.Out, pkg, f.test, line)
	if r.JSON != nil {
		r.Emit(event{Time: time.Now(), Action: actionFinding, Package: pkg, Test: f.test, Path: f.Path, Line: f.Line, Level: f.Level, Message: f.Message})
	}
}

// checkSummary reports what fuzzmin check found in n entries.
func (r *Reporter) checkSummary(n int) {
	text := fmt.Sprintf("fuzzmin check: %s, %s\n", Plural(n, "entry", "entries"), Plural(r.findings, "finding", "findings"))
	r.Output(r.Out, "", "", text)
	r.totals = map[status]int{"findings": r.findings}
}

// summary reports the counts of entries by status.
func (r *Reporter) summary() {
	r.totals = r.counts
	if len(r.order) == 0 {
		return
	}
	var parts []string
	total := 0
	for _, st := range r.order {
		parts = append(parts, fmt.Sprintf("%d %s", r.counts[st], st))
		total += r.counts[st]
	}
	r.Output(r.Out, "", "", fmt.Sprintf("fuzzmin: %s: %s\n", Plural(total, "entry", "entries"), strings.Join(parts, ", ")))
}

// End ends a run that exits with code exit: with -json, the summary event,
// which every run has last, also one that ended early (a package that
// does not build, an interrupt, an error before any entry).
func (r *Reporter) End(exit int) int {
	if r.JSON != nil {
		r.Emit(event{Time: time.Now(), Action: actionSummary, Elapsed: Seconds(time.Since(r.began)), Counts: r.totals, Exit: &exit})
	}
	return exit
}

// Plural spells a count of things: "1 entry", "2 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
