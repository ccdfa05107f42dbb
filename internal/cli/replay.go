package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// The original is run before shrinking, in a fresh process and then
// againRuns times in another (and in a third, after a run that ends the
// process): a failure that does not repeat the same way is flaky, and the
// runs tell how often it fails. (A target that fails on half its runs
// passes or fails all of eight runs once in 128 entries; all of two runs,
// once in two.)
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
func (c *command) replay(ctx context.Context, j *entryJob) (status, error) {
	runners := append([]*testbin.Runner{j.probe}, j.runners...)
	for _, r := range runners {
		r.MinLimit = 0 // the target's runners serve its entries in turn
	}
	zeroVals := zeroValues(j.entry.Values)
	zero, err := encoding.Marshal(zeroVals...)
	if err != nil {
		return statusFailed, err
	}
	isZero := bytes.Equal(zero, j.entry.Data)
	var zeroSig failure.Signature
	var zeroMsg string // shaped once the original's message decides how
	if !isZero {
		out, err := j.probe.Run(ctx, [][]byte{zero}, testbin.Judge{Shape: func(_ int, _ failure.Signature, msg string) string { zeroMsg = msg; return msg }})
		if err != nil {
			return statusFailed, err
		}
		if len(out.Outcomes) > 0 { // none if the entry is stale: its replay says so
			zeroSig = out.Outcomes[0]
		}
		for _, r := range j.runners {
			r.Learn(j.probe)
		}
	}
	sigs, st, err := c.replayRuns(ctx, j, j.judge())
	if st != "" || err != nil {
		return st, err
	}
	if timeouts := timeouts(sigs); timeouts > 0 && j.runner.Limit() < j.runner.Timeout {
		// A run that timed out under the limit learned from a fast input
		// may only have been slow (a busy machine, a process growing
		// towards the memory limit): judge the runs again by
		// -exec-timeout before calling the entry flaky, or, if every run
		// timed out, once they are seen to be slow: one run by
		// -exec-timeout does not time out.
		judge := j.judge()
		judge.Limit = j.runner.Timeout
		slow := timeouts < len(sigs)
		if !slow {
			out, err := j.runner.Run(ctx, [][]byte{j.entry.Data}, judge)
			if err != nil {
				return statusFailed, err
			}
			slow = len(out.Outcomes) == 1 && out.Outcomes[0].Kind != failure.Timeout
		}
		if slow {
			if sigs, st, err = c.replayRuns(ctx, j, judge); st != "" || err != nil {
				return st, err
			}
			// Its candidates, as slow, get the same time.
			for _, r := range runners {
				r.MinLimit = r.Timeout
			}
		}
	}
	j.want = sigs[0]
	if j.want.Kind == failure.Memory {
		// A candidate that fails as the original grows until the limit
		// kills it, which takes what its allocations take, not what a
		// passing input does: on a busy machine the learned limit cuts
		// it first, a timeout, and the search cannot move.
		for _, r := range runners {
			r.MinLimit = r.Timeout
		}
	}
	if i := slices.IndexFunc(sigs, func(s failure.Signature) bool { return s != sigs[0] }); i > 0 {
		if !j.want.Failed() {
			j.want = sigs[i]
		}
		fails := 0
		for _, s := range sigs {
			if s == j.want {
				fails++
			}
		}
		j.flaky = fmt.Sprintf("fails with %v in %d of %d runs (first run: %s; then: %s)", j.want, fails, len(sigs), describe(sigs[0]), describe(sigs[i]))
		if !c.opts.flaky {
			return statusFlaky, errors.New(j.flaky + "; use -flaky to minimize against the failure")
		}
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
		return statusPasses, nil
	case isZero:
		return "", nil
	case !zeroSig.Failed():
		j.passing = zero
	case zeroMsg != "":
		zeroSig.Text = j.tj.shaper.Shape(zeroSig, zeroMsg, zeroVals)
	}
	j.zero = zeroSig.Failed() && zeroSig == j.want
	return "", nil
}

// replayRuns runs the original 1+againRuns times, the first run alone in
// a fresh process, judged by judge, and returns how each run failed, or
// the entry's status if that ends the job (it is stale, or no input ran).
func (c *command) replayRuns(ctx context.Context, j *entryJob, judge testbin.Judge) ([]failure.Signature, status, error) {
	var sigs []failure.Signature
	for procs := 0; procs < 3 && len(sigs) < 1+againRuns; procs++ {
		n := 1 // the first run alone, in a fresh process
		if len(sigs) > 0 {
			n = 1 + againRuns - len(sigs)
		}
		out, err := j.runner.Run(ctx, slices.Repeat([][]byte{j.entry.Data}, n), judge)
		switch {
		case err != nil:
			return nil, statusFailed, err
		case out.Stale != "":
			return nil, statusStale, errors.New(c.staleReason(out.Stale, j))
		case len(out.Outcomes) == 0:
			return nil, statusFailed, fmt.Errorf("the test binary ran no input for %s; it said:\n%s", j.target.Name, out.Tail)
		}
		j.target.Wrapped = j.target.Wrapped || out.Wrapped
		sigs = append(sigs, out.Outcomes...)
	}
	return sigs, "", nil
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
