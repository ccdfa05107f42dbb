package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// shrinkInProcess minimizes an entry of a target wrapped by fuzzshrink: the
// test binary runs the whole search (see fuzzshrink/session.go). A session
// that dies or hangs charges its failure to the candidate it was running:
// the candidate is accepted if it failed the way the original does, and
// remembered as another failure otherwise; a new session goes on from the
// best candidate so far.
func (s *session) shrinkInProcess(ctx context.Context, r *runner, e corpus.Entry, want signature, runs *atomic.Int64, progress *progressLine) (shrinkOutcome, error) {
	dir, err := tempDir(r.scratch(), "session")
	if err != nil {
		return shrinkOutcome{}, err
	}
	defer os.RemoveAll(dir)
	cfg := fuzzshrink.SessionConfig{
		Target:   r.target,
		Verbose:  s.opts.verbose,
		MaxRuns:  s.opts.maxRuns,
		Deadline: time.Now().Add(s.opts.timeout),
		Known:    map[string]string{},
	}
	if want.Crash() {
		cfg.Want = &want
	}
	best := e.Data
	others := map[signature]bool{} // the failures of sessions that died
	withOthers := func(out shrinkOutcome) shrinkOutcome {
		for sig := range others {
			out.others = append(out.others, sig.String())
		}
		return out
	}
	for {
		res, crash, err := r.session(ctx, dir, cfg, best, runs, s.rep.sessionTrace)
		if err != nil {
			return shrinkOutcome{}, err
		}
		if res != nil {
			out := withOthers(shrinkOutcome{data: res.Best, value: res.Add, runs: res.Runs, stop: res.Stop, others: res.Others})
			if res.Error != "" {
				return out, fmt.Errorf("in the test process: %s", res.Error)
			}
			return out, nil
		}
		// The session died: learn what it left.
		if b, err := readBest(filepath.Join(dir, "best")); err == nil {
			best = b
		}
		tuple, n, err := readCurrent(filepath.Join(dir, "current"))
		if err != nil {
			return shrinkOutcome{}, fmt.Errorf("the test process died before running a candidate: %v", crash)
		}
		cand, err := tupleFile(tuple)
		if err != nil {
			return shrinkOutcome{}, err
		}
		cfg.Runs = n
		switch {
		case bytes.Equal(cand, best) && cfg.Want == nil:
			// The original itself kills the process: its failure can
			// only be seen from here from now on.
			cfg.Want = &want
			continue
		case crash == want:
			best = cand
			progress.size(len(best))
		default:
			others[crash] = true
			cfg.Known[corpus.Name(tuple)] = "other"
		}
		if s.opts.maxRuns > 0 && n >= s.opts.maxRuns || time.Now().After(cfg.Deadline) {
			// Out of budget between sessions: the best so far, spelled
			// as the native values the corpus file holds.
			out := withOthers(shrinkOutcome{data: best, runs: n, stop: "budget"})
			if vals, err := encoding.Unmarshal(best); err == nil {
				out.value = gosyntax.Call("f.Add", vals, "")
			}
			return out, nil
		}
	}
}

// readBest reads the best candidate a session left: a 4-byte length and
// the tuple, returned as a corpus file.
func readBest(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 || len(b) < 4+int(binary.LittleEndian.Uint32(b)) {
		return nil, errors.New("no best candidate recorded")
	}
	return tupleFile(b[4 : 4+int(binary.LittleEndian.Uint32(b))])
}

// tupleFile turns a candidate recorded by a session into a corpus file.
func tupleFile(tuple []byte) ([]byte, error) {
	vals, err := encoding.ParseTuple(tuple)
	if err != nil {
		return nil, fmt.Errorf("reading a candidate recorded by the test process: %v", err)
	}
	return encoding.Marshal(vals...)
}

// readCurrent reads the record of the candidate a session was running: an
// 8-byte run count, a 4-byte length, and the tuple.
func readCurrent(path string) (tuple []byte, runs int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, err
	}
	if len(b) < 12 {
		return nil, 0, errors.New("no candidate recorded")
	}
	runs = int(binary.LittleEndian.Uint64(b))
	n := int(binary.LittleEndian.Uint32(b[8:]))
	if len(b) < 12+n {
		return nil, 0, errors.New("truncated candidate record")
	}
	return b[12 : 12+n], runs, nil
}

// session runs one in-process session from best. It returns the session's
// result, or nil and the failure that ended the process.
func (r *runner) session(ctx context.Context, dir string, cfg fuzzshrink.SessionConfig, best []byte, runs *atomic.Int64, trace func(fuzzshrink.TraceLine)) (*fuzzshrink.SessionResult, signature, error) {
	for _, name := range []string{"result.json", "current", "best"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, signature{}, err
		}
	}
	cfg.Entry = inputName(0)
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o666); err != nil {
		return nil, signature{}, err
	}
	if err := r.writeInputs([][]byte{best}); err != nil {
		return nil, signature{}, err
	}
	p := newOutputParser(r.inputIndex, r.goroot)
	proc, err := r.startTest([]string{"-test.run=^" + r.target + "$", "-test.paniconexit0"},
		fuzzshrink.SessionEnv+"="+dir, func(line []byte) {
			if rest, ok := bytes.CutPrefix(line, []byte(fuzzshrink.TracePrefix)); ok && trace != nil {
				var ev fuzzshrink.TraceLine
				if json.Unmarshal(rest, &ev) == nil {
					trace(ev)
				}
				return
			}
			p.line(line)
		})
	if err != nil {
		return nil, signature{}, err
	}
	// The watchdog: a session that records no new candidate for the
	// per-input time limit is hung on the one it recorded last.
	current := filepath.Join(dir, "current")
	last, lastChange := -1, time.Now()
	timedOut := false
	exit, err := proc.wait(ctx, min(r.timeout/10, 100*time.Millisecond), func() bool {
		if _, n, err := readCurrent(current); err == nil && n != last {
			last, lastChange = n, time.Now()
			runs.Store(int64(n))
		} else if time.Since(lastChange) > r.timeout {
			timedOut = true
		}
		return timedOut
	})
	if err != nil {
		return nil, signature{}, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, "result.json")); err == nil && !timedOut {
		var res fuzzshrink.SessionResult
		if err := json.Unmarshal(b, &res); err != nil {
			return nil, signature{}, fmt.Errorf("reading the session's result: %v", err)
		}
		runs.Store(int64(res.Runs))
		return &res, signature{}, nil
	}
	var crash signature
	switch {
	case timedOut:
		crash = signature{Kind: kindTimeout}
	case p.crash.Failed():
		crash = p.crash
	default:
		crash = signature{Kind: kindExit, Text: fmt.Sprintf("exit status %d", exit)}
	}
	return nil, crash, nil
}
