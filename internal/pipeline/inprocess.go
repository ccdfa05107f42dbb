package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// shrinkInProcess minimizes an entry of a target wrapped by fuzzshrink: the
// test binary runs the whole search (see package session). A session that
// dies or hangs charges its failure to the candidate it was running: the
// candidate is accepted if it failed the way the original does, and
// remembered as another failure otherwise; a new session goes on from the
// best candidate so far.
func (c *Run) shrinkInProcess(ctx context.Context, j *entryJob) (shrinkOutcome, error) {
	dir, err := os.MkdirTemp(j.runner.ScratchFor(int64(len(j.entry.Data))), "session-")
	if err != nil {
		return shrinkOutcome{}, err
	}
	defer os.RemoveAll(dir)
	cfg, err := c.sessionConfig(j, dir)
	if err != nil {
		return shrinkOutcome{}, err
	}
	best, accepted := j.entry.Data, false
	others := map[string]int{} // distinct failures, of all sessions, and how many candidates showed each
	outcome := func(out shrinkOutcome) shrinkOutcome {
		out.others = metFailures(others)
		out.accepted = out.accepted || accepted
		return out
	}
	for {
		end, err := sessionDir(dir).run(ctx, j.runner, j.limit(), cfg, best, func(ev session.Event) {
			if ev.Runs > 0 {
				j.runs.Store(int64(ev.Runs))
			}
			if ev.Action == session.ActionPass || ev.Action == session.ActionAccept {
				c.Rep.event(j, ev)
			}
		})
		if err != nil {
			return shrinkOutcome{}, err
		}
		if res := end.res; res != nil {
			for _, o := range res.Others {
				others[o.Want.String()] += max(o.Count, 1)
				addTuple(&j.tj.others, o.Want, o.Tuple)
			}
			return sessionOutcome(outcome, res)
		}
		// The session died: learn what it left.
		if b, ok := readBest(dir); ok {
			best, accepted = b, true
		}
		crash, cand, tuple, n, err := j.died(dir, end)
		if err != nil {
			return shrinkOutcome{}, err
		}
		cfg.Runs = n
		switch {
		case bytes.Equal(cand, best) && cfg.Want == nil:
			// The original itself kills the process: its failure can
			// only be seen from here from now on.
			cfg.Want = &j.want
			continue
		case crash == j.want:
			best, accepted = cand, true
			j.progress.size(len(best))
		default:
			others[crash.String()]++
			addTuple(&j.tj.others, crash, tuple)
			cfg.Known[session.Key(tuple)] = shrink.OtherFail
		}
		if j.tj.search.MaxRuns > 0 && n >= j.tj.search.MaxRuns || time.Now().After(cfg.Deadline) {
			// Out of budget between sessions: the best so far, spelled
			// as the native values the corpus file holds.
			out := outcome(shrinkOutcome{data: best, runs: n, stop: "budget"})
			if vals, err := encoding.Unmarshal(best); err == nil {
				out.value = gosyntax.Call("f.Add", vals, "")
			}
			return out, nil
		}
	}
}

// sessionConfig is the configuration of j's in-process sessions, whose
// files go in dir: the budgets, what is known of the failure, and the
// message templates of the package, as a file.
func (c *Run) sessionConfig(j *entryJob, dir string) (session.Config, error) {
	cfg := session.Config{
		Target:   j.target.Name,
		Verbose:  c.Verbose,
		MaxRuns:  j.tj.search.MaxRuns,
		Deadline: time.Now().Add(c.budget(j)),
		Known:    map[string]shrink.Verdict{},
		Explain:  j.tj.search.Explain,
	}
	if j.flaky != "" {
		cfg.Explain = 0 // a flaky failure's alternatives may pass by chance: no evidence
	}
	if j.want.Crash() {
		cfg.Want = &j.want
	}
	if sites := j.tj.shaper.Templates.Sites(); len(sites) > 0 {
		b, err := json.Marshal(sites)
		if err != nil {
			return cfg, err
		}
		cfg.Templates = filepath.Join(dir, "templates.json")
		if err := os.WriteFile(cfg.Templates, b, 0o666); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// tupleFile turns a candidate recorded by a session into a corpus file and
// its values.
func tupleFile(tuple []byte) ([]byte, []any, error) {
	vals, err := session.ParseTuple(tuple)
	if err != nil {
		return nil, nil, fmt.Errorf("reading a candidate recorded by the test process: %w", err)
	}
	file, err := encoding.Marshal(vals...)
	return file, vals, err
}

// sessionEnd is how a session ended: with its result, or with the failure
// that ended the process, whose message (of a panic of the user's value)
// the caller shapes, knowing the candidate.
type sessionEnd struct {
	res   *session.Result
	crash failure.Signature
	msg   string
}

// A sessionDir is the directory of the files of in-process sessions
// (package session).
type sessionDir string

// sessionOutcome is the outcome of a session that ended with its result.
func sessionOutcome(outcome func(shrinkOutcome) shrinkOutcome, res *session.Result) (shrinkOutcome, error) {
	out := outcome(shrinkOutcome{data: res.Best, value: res.Add, draws: res.Draws, accepted: res.Accepted > 0, runs: res.Runs, stop: res.Stop})
	if res.Explained != "" {
		out.explanation = &explanation{Summary: res.Explained}
	}
	if res.Error != "" {
		return out, fmt.Errorf("in the test process: %s", res.Error)
	}
	return out, nil
}

// readBest reads the best candidate a session that died recorded, if any.
func readBest(dir string) ([]byte, bool) {
	tuple, _, err := session.ReadRecord(filepath.Join(dir, session.BestFile))
	if err != nil {
		return nil, false
	}
	b, _, err := tupleFile(tuple)
	return b, err == nil
}

// died reads what a session that died left in dir: the candidate it was
// running (as a corpus file and as the session's tuple), how it died, its
// message shaped, and the runs it had made.
func (j *entryJob) died(dir string, end sessionEnd) (crash failure.Signature, cand, tuple []byte, runs int, err error) {
	crash = end.crash
	tuple, runs, err = session.ReadRecord(filepath.Join(dir, session.CurrentFile))
	if err != nil {
		return crash, nil, nil, 0, fmt.Errorf("the test process died before running a candidate: %v", crash)
	}
	cand, vals, err := tupleFile(tuple)
	if err != nil {
		return crash, nil, nil, 0, err
	}
	if end.msg != "" {
		crash.Text = j.tj.shaper.Shape(crash, end.msg, vals)
	}
	return crash, cand, tuple, runs, nil
}

// run runs one in-process session of r's target from best in the
// directory, passing its events to event, and tells how it ended; limit is
// how long the session may go without a new candidate.
func (sd sessionDir) run(ctx context.Context, r *testbin.Runner, limit time.Duration, cfg session.Config, best []byte, event func(session.Event)) (sessionEnd, error) {
	dir := string(sd)
	for _, name := range []string{session.ResultFile, session.CurrentFile, session.BestFile, session.ExplainingFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return sessionEnd{}, err
		}
	}
	cfg.Entry = testbin.InputName(0)
	b, err := json.Marshal(cfg)
	if err != nil {
		return sessionEnd{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, session.ConfigFile), b, 0o666); err != nil {
		return sessionEnd{}, err
	}
	var sessionErr string
	events := func(line []byte) bool {
		ev, ok := session.ParseEvent(line)
		if ok {
			if ev.Action == session.ActionError {
				sessionErr = ev.Error
			}
			event(ev)
		}
		return ok
	}
	// The watchdog: a session that records no new candidate for the
	// per-input time limit is hung on the one it recorded last.
	current := filepath.Join(dir, session.CurrentFile)
	last, lastChange := -1, time.Now()
	timedOut := false
	hung := func() bool {
		if _, n, err := session.ReadRecord(current); err == nil && n != last {
			last, lastChange = n, time.Now()
			event(session.Event{Runs: n})
			return false
		}
		allowed := limit
		if last < 0 {
			// Before its first candidate the process starts and runs the
			// original: that gets the full limit.
			allowed = r.Timeout
		}
		timedOut = time.Since(lastChange) > allowed
		return timedOut
	}
	end, err := r.RunSession(ctx, best, session.Env+"="+dir, events, testbin.Watch{Interval: min(limit/10, 100*time.Millisecond), Hung: hung})
	if err != nil {
		return sessionEnd{}, err
	}
	if sessionErr != "" {
		return sessionEnd{}, fmt.Errorf("in the test process: %s", sessionErr)
	}
	// A session that ends, or hangs, explaining a finished search has
	// written the search's result: a candidate of the explanation teaches
	// nothing.
	_, explaining := os.Stat(filepath.Join(dir, session.ExplainingFile))
	if b, err := os.ReadFile(filepath.Join(dir, session.ResultFile)); err == nil && (!timedOut || explaining == nil) {
		var res session.Result
		if err := json.Unmarshal(b, &res); err != nil {
			return sessionEnd{}, fmt.Errorf("reading the session's result: %w", err)
		}
		event(session.Event{Runs: res.Runs})
		return sessionEnd{res: &res}, nil
	}
	switch {
	case timedOut:
		return sessionEnd{crash: failure.Signature{Kind: failure.Timeout}}, nil
	case end.Crash.Failed():
		return sessionEnd{crash: end.Crash, msg: end.Msg}, nil
	}
	return sessionEnd{crash: failure.Signature{Kind: failure.Exit, Text: fmt.Sprintf("exit status %d", end.Exit)}}, nil
}
