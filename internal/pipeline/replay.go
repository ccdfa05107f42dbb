package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// The original is run before shrinking, each run in a fresh process, until
// the outcome is clear: two runs that fail the same way settle it (what
// differs between their messages is a value: see failure.Shaper.Vary),
// and a hang is one of them: the first run under the limit, the second
// under the short limit of a hang's search. Runs that disagree go on, to
// 1+againRuns in all, to tell how often the entry fails: it is flaky.
const againRuns = 7

// replay runs the original in fresh processes to learn how it fails
// (j.want), and the zero input once (j.zero), first, on the probe runner,
// whose working directory is not the others': a zero input that passes
// tells how long a passing input runs, so an original that hangs is judged
// by the limit that follows from it (see testbin.Runner.Limit), not by
// -exec-timeout, and a test that keeps state in its working directory
// meets the original first. It returns the entry's
// status if that ends the job: it passes, is stale or flaky, or (an entry
// made of another failure) does not fail as that failure did.
func (c *Run) replay(ctx context.Context, j *entryJob) (status, error) {
	z, err := replayZero(ctx, j)
	if err != nil {
		return statusFailed, err
	}
	sigs, msg, st, err := c.replayRuns(ctx, j, j.judge())
	if st != "" || err != nil {
		return st, err
	}
	if timeouts := timeouts(sigs); timeouts > 0 && timeouts < len(sigs) && j.runner.Limit(j.floor) < j.runner.Timeout {
		// A run that timed out under the limit learned from a fast input,
		// where another did not, may only have been slow (a cold cache, a
		// busy machine): judge the runs again by -exec-timeout before
		// calling the entry flaky.
		judge := j.judge()
		judge.Limit = j.runner.Timeout
		if sigs, msg, st, err = c.replayRuns(ctx, j, judge); st != "" || err != nil {
			return st, err
		}
		// Its candidates, as slow, get the same time.
		j.floor = j.runner.Timeout
	}
	j.want = sigs[0]
	if j.want.Kind == failure.Timeout {
		j.hang = j.runner.Limit(j.floor)
	}
	if c.Verbose && j.want.Failed() && msg != "" {
		if text, ok := j.tj.shaper.Templates.Match(j.want.Pos, msg, nil); ok {
			c.Rep.Verbosef("  identity: the template %q", text)
		} else {
			c.Rep.Verbosef("  identity: no template explains the message: masked")
		}
	}
	if j.want.Kind == failure.Memory {
		// A candidate that fails as the original grows until the limit
		// kills it, which takes what its allocations take, not what a
		// passing input does: on a busy machine the learned limit cuts
		// it first, a timeout, and the search cannot move.
		j.floor = j.runner.Timeout
	}
	if j.judgeFlaky(sigs) && !j.tj.search.Flaky {
		return statusFlaky, errors.New(j.flaky + "; use -flaky to minimize against the failure")
	}
	if j.isFound() {
		// In the test process some failures are known less precisely (a
		// t.Error by its kind alone): the replay says what it is.
		switch {
		case !j.want.Failed():
			return statusFailed, fmt.Errorf("another failure met while shrinking, %v, does not reproduce alone: the candidate that showed it passes", j.found)
		case j.want != j.found && j.tj.seen[j.want]:
			return statusSeen, nil
		}
		j.found = j.want
	}
	switch {
	case !j.want.Failed():
		return StatusPasses, nil
	case z.same:
		return "", nil
	case !z.sig.Failed():
		j.passing = z.data
	case z.msg != "":
		z.sig.Text = j.tj.shaper.Shape(z.sig, z.msg, z.vals)
	}
	j.zero = z.sig.Failed() && z.sig == j.want
	return "", nil
}

// A zeroRun is how the zero input of an entry ran.
type zeroRun struct {
	data []byte // the zero input, as a corpus file
	vals []any
	same bool              // the entry is the zero input: it did not run
	sig  failure.Signature // its Text is set once the original's failure decides how
	msg  string
}

// replayZero runs the zero input of j's entry once on the probe runner,
// unless the entry is the zero input, and has j's runners learn from how
// long it ran.
func replayZero(ctx context.Context, j *entryJob) (zeroRun, error) {
	z := zeroRun{vals: zeroValues(j.entry.Values)}
	var err error
	if z.data, err = encoding.Marshal(z.vals...); err != nil {
		return z, err
	}
	if z.same = bytes.Equal(z.data, j.entry.Data); z.same {
		return z, nil
	}
	out, err := j.probe.Run(ctx, [][]byte{z.data}, testbin.Judge{Shape: func(_ int, _ failure.Signature, msg string) string { z.msg = msg; return msg }})
	if err != nil {
		return z, err
	}
	if len(out.Outcomes) > 0 { // none if the entry is stale: its replay says so
		z.sig = out.Outcomes[0]
	}
	for _, r := range j.runners {
		r.Learn(j.probe)
	}
	return z, nil
}

// judgeFlaky reports whether the replays sigs of j's original disagree,
// and if so sets j.flaky to how often it fails (and j.want to the failure
// if the first run passed).
func (j *entryJob) judgeFlaky(sigs []failure.Signature) bool {
	i := slices.IndexFunc(sigs, func(s failure.Signature) bool { return s != sigs[0] })
	if i <= 0 {
		return false
	}
	if !j.want.Failed() {
		j.want = sigs[i]
	}
	fails, passes := 0, 0
	for _, s := range sigs {
		switch {
		case s == j.want:
			fails++
		case !s.Failed():
			passes++
		}
	}
	if j.want.Kind == failure.Race && passes == 1 && fails == len(sigs)-1 {
		// The race detector misses a race now and then, by design (it
		// trades a few misses for speed): one run that passed where all
		// the others met the race is such a miss, not a flaky entry.
		return false
	}
	j.flaky = fmt.Sprintf("fails with %v in %d of %d runs (first run: %s; then: %s)", j.want, fails, len(sigs), describe(sigs[0]), describe(sigs[i]))
	return true
}

// replayRuns runs the original, judged by judge, as the comment on
// againRuns says: the first two runs each alone in a fresh process, then,
// if they disagree, the rest in one more (or a few, where runs end the
// process). It returns how each run failed and the first run's message,
// or the entry's status if that ends the job (it is stale, or no input
// ran).
func (c *Run) replayRuns(ctx context.Context, j *entryJob, judge testbin.Judge) ([]failure.Signature, string, status, error) {
	var sigs []failure.Signature
	var msgs []string
	for procs := 0; procs < 4 && len(sigs) < 1+againRuns; procs++ {
		n := 1
		if len(sigs) >= 2 {
			n = 1 + againRuns - len(sigs)
		}
		jn := judge
		if len(sigs) == 1 && sigs[0].Kind == failure.Timeout && judge.Limit == 0 {
			// The second run of a hang only has to hang too: the short
			// limit of a hang's search tells, where the first run's
			// limit would cost as much again. (An input only slow the
			// first time passes or fails at once; one slow every time
			// is told by the search's confirmation under the limit.)
			jn.Limit = j.runner.ShortLimit(j.floor)
		}
		out, err := j.runner.Run(ctx, slices.Repeat([][]byte{j.entry.Data}, n), jn)
		switch {
		case err != nil:
			return nil, "", statusFailed, err
		case out.Stale != "":
			return nil, "", statusStale, errors.New(c.staleReason(out.Stale, j))
		case len(out.Outcomes) == 0:
			return nil, "", statusFailed, fmt.Errorf("the test binary ran no input for %s; it said:\n%s", j.target.Name, out.Tail)
		}
		j.target.Wrapped = j.target.Wrapped || out.Wrapped
		for i, sig := range out.Outcomes {
			sigs, msgs = append(sigs, sig), append(msgs, out.Msgs[i])
		}
		if len(sigs) == 2 {
			if a, b := sigs[0], sigs[1]; a != b && a.Kind == b.Kind && a.Pos == b.Pos && msgs[0] != "" && msgs[1] != "" {
				// One failure whose message changes from run to run
				// (a time, a pointer, a map's order): what differs is
				// a value.
				text := j.tj.shaper.Vary(a, msgs[0], msgs[1], j.entry.Values)
				if a.Kind == failure.Exit { // "exit status 1: " and the message
					status, _, _ := strings.Cut(a.Text, ": ")
					text = status + ": " + text
				}
				sigs[0].Text, sigs[1].Text = text, text
			}
			if sigs[0] == sigs[1] {
				break
			}
		}
	}
	return sigs, msgs[0], "", nil
}

// timeouts returns how many runs of an entry timed out.
func timeouts(sigs []failure.Signature) int {
	n := 0
	for _, s := range sigs {
		if s.Kind == failure.Timeout {
			n++
		}
	}
	return n
}

// zeroOutcome is the result of a search that starts at the zero input of
// vals' types, which fails as the original does: it is the minimum.
func zeroOutcome(vals []any) shrinkOutcome {
	zero := zeroValues(vals)
	data, _ := encoding.Marshal(zero...) // replay marshalled it already
	return shrinkOutcome{data: data, value: gosyntax.Call("f.Add", zero, ""), accepted: true, stop: shrink.StopDone.String()}
}

// describe says how an input fared, for messages.
func describe(sig failure.Signature) string {
	if !sig.Failed() {
		return "passes"
	}
	return "fails with " + sig.String()
}

// zeroValues returns the zero values of the types of vals: empty strings
// and slices, zeros, false.
func zeroValues(vals []any) []any {
	zero := make([]any, len(vals))
	for i, v := range vals {
		switch v.(type) {
		case []byte:
			zero[i] = []byte{}
		default:
			zero[i] = reflect.Zero(reflect.TypeOf(v)).Interface()
		}
	}
	return zero
}
