package campaign

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// campaignTimes is where a campaign's time went.
type campaignTimes struct {
	building time.Duration // the instrumented test binaries
	turns    time.Duration // from the first turn to the end of the last
	after    time.Duration // the kept corpus and the coverage
}

// String says where the time went: building, the turns (fuzzing, the
// replay of each corpus that starts a turn included, and minimizing what
// stopped them), and what came after.
func (ct campaignTimes) String(targets []*campaignTarget) string {
	var minimizing time.Duration
	for _, t := range targets {
		minimizing += t.lost
	}
	r := func(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
	return fmt.Sprintf("%v in all: building %v, turns %v (of which minimizing %v), coverage and the kept corpus %v",
		r(ct.building+ct.turns+ct.after), r(ct.building), r(ct.turns), r(minimizing), r(ct.after))
}

// campaignReport reports each target's work, and the findings; a new
// failure fails the run.
func (c *campaign) campaignReport(targets []*campaignTarget, found map[failure.Signature]*campaignFinding) {
	for sig, f := range found {
		if slices.Contains(f.t.flaky, f.path) {
			delete(found, sig) // it passed later: not a new failure (passedLater)
		}
	}
	var b strings.Builder
	w := len("target")
	for _, t := range targets {
		w = max(w, len(t.pkg.ImportPath)+1+len(t.target.Name))
	}
	fmt.Fprintf(&b, "%-*s %8s %12s %9s %6s %6s %5s %6s %5s %5s %7s\n", w, "target", "time", "execs", "execs/s", "new", "cover", "fail", "first", "known", "again", "stopped")
	var fresh []string
	for _, t := range targets {
		rate := 0.0
		if t.spent > 0 {
			rate = float64(t.execs) / t.spent.Seconds()
		}
		stopped := "-"
		if t.stops > 0 || t.lost > 0 { // the failures it fuzzed past take time too
			stopped = t.lost.Round(time.Second).String()
		}
		fmt.Fprintf(&b, "%-*s %8s %12d %9.0f %6d %6s %5d %6s %5d %5d %7s\n", w, t.pkg.ImportPath+"."+t.target.Name,
			t.spent.Round(time.Second), t.execs, rate, t.found, cmp.Or(t.cover, "-"), len(t.fresh), firstAfter(t.first), t.known, t.repeats, stopped)
		fresh = append(fresh, t.fresh...)
		fuzzTarget(c.Rep, t)
	}
	c.Rep.Output(c.Rep.Out, "", "", b.String())
	for _, t := range targets {
		if note := idleNote(t, c.Fuzztime); note != "" {
			c.Rep.Infof("%s: %s", t.name(), note)
		}
	}
	if path := pipeline.EnvValue(c.Env, "GITHUB_STEP_SUMMARY"); path != "" {
		if err := pipeline.AppendFile(path, c.stepSummary(targets, found)); err != nil {
			c.Rep.Errorf("writing the job summary: %v", err)
			c.Fail(pipeline.ExitFailure)
		}
	}
	if len(fresh) > 0 {
		slices.Sort(fresh)
		var rel []string
		for _, p := range fresh {
			rel = append(rel, c.Rel(p))
		}
		c.Rep.Errorf("fuzzing found %s; the entries to commit: %s", pipeline.Plural(len(found), "new failure", "new failures"), strings.Join(rel, ", "))
		c.Fail(pipeline.ExitFailure)
	}
}

// firstAfter is the time to a target's first new failure, as the
// report's table shows it: "-" for none.
func firstAfter(d time.Duration) string {
	switch {
	case d <= 0:
		return "-"
	case d < 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// idleNote says why a target that ran no input fuzzed nothing, so that a
// row of zeros is never the whole story; "" for a target that fuzzed.
func idleNote(t *campaignTarget, budget time.Duration) string {
	switch {
	case t.execs > 0 || t.done != "":
		return ""
	case t.slices == 0:
		return fmt.Sprintf("never fuzzed: the budget (-fuzztime %v) ran out before its turn, which is %v at least", budget, minSlice)
	case t.stops == 0:
		return fmt.Sprintf("fuzzed nothing in %s (%v): the fuzzer first replays the target's corpus, its baseline, and that took each turn whole; give it more -fuzztime",
			pipeline.Plural(t.slices, "turn", "turns"), t.spent.Round(100*time.Millisecond))
	}
	return ""
}

// stepSummary is the campaign's report as Markdown, for the summary of a
// GitHub Actions job ($GITHUB_STEP_SUMMARY).
func (c *campaign) stepSummary(targets []*campaignTarget, found map[failure.Signature]*campaignFinding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### fuzzmin fuzz: %s, %s\n\n", pipeline.Plural(len(targets), "target", "targets"), pipeline.Plural(len(found), "new failure", "new failures"))
	b.WriteString("| target | time | execs | execs/s | new inputs | coverage | new failures | known | again | stops cost |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, t := range targets {
		rate := 0.0
		if t.spent > 0 {
			rate = float64(t.execs) / t.spent.Seconds()
		}
		fmt.Fprintf(&b, "| `%s` | %v | %d | %.0f | %d | %s | %d | %d | %d | %v |\n", markdownCode(t.pkg.ImportPath+"."+t.target.Name),
			t.spent.Round(time.Second), t.execs, rate, t.found, cmp.Or(t.cover, "-"), len(t.fresh), t.known, t.repeats, t.lost.Round(time.Second))
	}
	var sigs []failure.Signature
	for sig := range found {
		sigs = append(sigs, sig)
	}
	slices.SortFunc(sigs, func(a, b failure.Signature) int { return strings.Compare(found[a].path, found[b].path) })
	for i, sig := range sigs {
		if i == 0 {
			b.WriteString("\nNew failures, minimized; commit their entries:\n\n")
		}
		f := found[sig]
		fmt.Fprintf(&b, "- `%s`: %s (found after %v)\n", markdownCode(c.Rel(f.path)), markdownText(sig.String()), f.after.Round(time.Second))
	}
	return b.String()
}

// markdownCode makes s fit between backquotes on one line.
func markdownCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "|", "\\|").Replace(s)
}

// markdownText escapes what Markdown would take for markup in s.
func markdownText(s string) string {
	return strings.NewReplacer("\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "|", "\\|", "<", "&lt;", "\n", " ").Replace(pipeline.TerminalSafe(s))
}

// fuzzTargetEvent is the fuzz-target event of fuzzmin fuzz.
type fuzzTargetEvent struct {
	Time     time.Time
	Action   string
	Package  string
	Test     string  // the target
	Elapsed  float64 // seconds of fuzzing
	Slices   int     // turns
	Execs    int64
	New      int      // inputs that found new coverage
	Coverage string   `json:",omitempty"` // what its corpora cover: a percentage of the statements
	Bits     int      `json:",omitempty"` // what its corpus covered at its last turn's end, in bits of the fuzzer's coverage mask
	Failures []string `json:",omitempty"` // the entries written for new failures
	First    float64  `json:",omitempty"` // seconds from the first turn's start to its first new failure
	Known    int      `json:",omitempty"` // stops on failures the known file lists
	Repeats  int      `json:",omitempty"` // stops on failures found before in the run
	Past     int      `json:",omitempty"` // failing inputs the fuzzer went past, at least
	Stopped  float64  `json:",omitempty"` // seconds spent on the failures it stopped on
	Left     []string `json:",omitempty"` // failing seed entries left out of its turns
	Done     string   `json:",omitempty"` // why it was fuzzed no more
}

// fuzzTurnEvent is the fuzz-turn event of fuzzmin fuzz.
type fuzzTurnEvent struct {
	Time    time.Time
	Action  string
	Package string
	Test    string  // the target
	Turn    int     // the target's turns so far, this one included
	Elapsed float64 // seconds the turn took
	Execs   int64
	New     int    // inputs that found new coverage
	Corpus  int    // the inputs of the target's corpora, at the turn's end
	Bits    int    `json:",omitempty"` // what they cover, in bits of the fuzzer's coverage mask
	Stopped string `json:",omitempty"` // "failure" or "seed" if the fuzzer stopped on one; else its time was up
	// The target's failures so far: new, known, and met again.
	Failures, Known, Repeats int
}

// fuzzTurn reports a turn of t that ended, once what it found is taken:
// a line on a terminal and with -v, so that a long campaign speaks while
// it works (a turn lasts a minute at most), and a fuzz-turn event with
// -json; nothing on a stdout that is neither.
func fuzzTurn(r *pipeline.Reporter, t *campaignTarget, d sliceDone) {
	out := d.out
	stopped := ""
	switch {
	case out.Seed != "":
		stopped = "seed"
	case out.Crasher != nil || d.early:
		stopped = "failure"
	}
	if r.JSON != nil {
		r.Emit(fuzzTurnEvent{Time: time.Now(), Action: pipeline.ActionFuzzTurn, Package: t.pkg.ImportPath, Test: t.target.Name,
			Turn: t.slices, Elapsed: pipeline.Seconds(d.took), Execs: out.Execs, New: out.New, Corpus: out.Corpus, Bits: t.bits, Stopped: stopped,
			Failures: len(t.fresh), Known: t.known, Repeats: t.repeats})
		return
	}
	if !r.TTY && !r.Verbose || d.err != nil {
		return
	}
	rate := 0.0
	if d.took > 0 {
		rate = float64(out.Execs) / d.took.Seconds()
	}
	line := fmt.Sprintf("%s: turn %d, %v, %d execs (%.0f/s), %s (corpus %d", t.name(), t.slices, d.took.Round(100*time.Millisecond), out.Execs, rate,
		pipeline.Plural(out.New, "new input", "new inputs"), out.Corpus)
	if t.bits > 0 {
		line += fmt.Sprintf(", coverage %d bits", t.bits)
	}
	line += ")"
	switch stopped {
	case "failure":
		line += ", stopped on a failure"
	case "seed":
		line += ", stopped on seed entry " + out.Seed
	}
	line += fmt.Sprintf("; failures so far: %d new, %d known, %d again", len(t.fresh), t.known, t.repeats)
	r.Output(r.Out, "", "", line+"\n")
}

// fuzzTarget reports, with -json, what fuzzing t did.
func fuzzTarget(r *pipeline.Reporter, t *campaignTarget) {
	if r.JSON == nil {
		return
	}
	r.Emit(fuzzTargetEvent{Time: time.Now(), Action: pipeline.ActionFuzzTarget, Package: t.pkg.ImportPath, Test: t.target.Name,
		Elapsed: pipeline.Seconds(t.spent), Slices: t.slices, Execs: t.execs, New: t.found, Coverage: t.cover, Bits: t.bits, Failures: t.fresh, First: pipeline.Seconds(t.first), Known: t.known,
		Repeats: t.repeats, Past: t.past, Stopped: pipeline.Seconds(t.lost), Left: t.left, Done: t.done})
}
