package fuzzshrink

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The minimize session of a target of generators: the entry's one []byte
// is a choice sequence, shrunk by the choice passes. Candidates are
// recorded first, as in session.go, so that a crash is charged to the
// candidate that caused it. They run as Check runs its cases, not as
// subtests: the property reports through its T, which records what it
// reports, so a candidate's failure does not fail the seed's test, and the
// search runs at Check's speed.

// runChoices runs the session inside the test of the seed fuzzmin wrote.
func (s *minimizeSession) runChoices(f *testing.F, prop func(*T)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, entry, _ := strings.Cut(t.Name(), "/"); entry != s.cfg.Entry {
			t.SkipNow()
		}
		res := s.minimizeChoices(t, prop, data)
		if err := s.writeResult(res); err != nil {
			msg := fmt.Sprintf("writing %s: %v", session.ResultFile, err)
			os.Stdout.Write(session.AppendEvent(nil, session.Event{Action: session.ActionError, Error: msg}))
			t.Fatal(msg)
		}
	})
}

func (s *minimizeSession) minimizeChoices(t *testing.T, prop func(*T), data []byte) session.Result {
	cur, bestRec, closeRecorders, err := s.recorders()
	if err != nil {
		return session.Result{Error: err.Error()}
	}
	defer closeRecorders()
	local := funcPackage(reflect.ValueOf(prop))
	runs := s.cfg.Runs
	o := s.choiceOracle(t, prop, cur, &runs)

	var orig *T // the original's run; nil if it crashes the process
	if s.cfg.Want != nil {
		// The original crashes the process: its record cannot be had by
		// running it. Shrink on its tokens, whatever choices read them.
		o.want = *s.cfg.Want
	} else {
		orig = runChoices(t, prop, data, true, nil)
		if !orig.sig.Failed() || orig.invalid != "" {
			return session.Result{Error: "the entry does not fail when run in the session"}
		}
		o.want = orig.sig
	}
	var recErr error
	opts := s.choiceOptions(local, bestRec, &runs, &recErr)
	res := session.Result{Want: o.want, Runs: runs}
	var lines []string // the result's draws
	search := &choiceSearch{o: o, opts: opts,
		fresh: func(d []byte) (failure.Signature, *T) {
			tt := runChoices(t, prop, d, true, nil)
			return tt.sig, tt
		},
		explain: s.cfg.Explain, seed: 1,
		explaining: func(r *choiceResult) bool {
			accepted := 0
			if r.simpler {
				accepted = r.stats.Accepted
			}
			lines = drawLines(r.last, orig, accepted, r.lastSig.Failed(), local)
			return s.explaining(withDraws(res, lines))
		}}
	r := search.search(orig, data)
	// The result must be simpler than the original's normal form (or the
	// form lengthened to the minimum of steps), not than its raw bytes:
	// if it is not, the entry stays as it was (its normal form can be
	// longer, as a boundary token of the fuzzer takes one byte).
	best := data
	if r.simpler {
		best, res.Accepted = r.best, r.stats.Accepted
	}
	res.Runs, res.Elapsed, res.Stop, res.Value = runs, r.stats.Time, r.stats.Stop.String(), gosyntax.Value(best, "")
	res.Add = "f.Add(" + res.Value + ")"
	for _, sig := range o.others.Sorted() {
		res.Others = append(res.Others, session.Other{Want: sig, Tuple: choiceTuple(o.others.Args(sig)[0].(*shrink.ChoiceSeq).Data), Count: o.others.Count(sig)})
	}
	switch {
	case r.err != nil:
		res.Error = r.err.Error()
	case recErr != nil:
		res.Error = fmt.Sprintf("recording the best candidate: %v", recErr)
	}
	if res.Best, err = encoding.Marshal(best); err != nil {
		res.Error = err.Error()
	}
	if r.last != nil {
		// The draws of the result, from its last run (not after a crash).
		if lines == nil {
			lines = drawLines(r.last, orig, res.Accepted, r.lastSig.Failed(), local)
		}
		if len(r.free) > 0 {
			lines = append(lines, freeLine(r.free, r.explainRuns))
		}
		res.Draws = strings.Join(lines, "\n")
	}
	return res
}

// choiceOracle is the oracle of the session's search: candidates replay
// in t, each recorded in cur first and counted in runs; those earlier
// sessions ran are judged as they were.
func (s *minimizeSession) choiceOracle(t *testing.T, prop func(*T), cur *session.Recorder, runs *int) *choiceOracle {
	var spare shrink.Record // the memory of the last candidate's record, as in Check
	return &choiceOracle{
		run: func(data []byte) (failure.Signature, *T) {
			tt := runChoices(t, prop, data, s.cfg.Verbose, &spare)
			spare = tt.rec
			return tt.sig, tt
		},
		before: func(data []byte) error {
			*runs++
			if err := cur.Write(*runs, choiceTuple(data)); err != nil {
				return fmt.Errorf("recording a candidate: %w", err)
			}
			return nil
		},
		known: func(data []byte) (shrink.Verdict, bool) {
			if len(s.cfg.Known) == 0 {
				return 0, false
			}
			v, ok := s.cfg.Known[session.Key(choiceTuple(data))]
			return v, ok
		},
	}
}

// choiceOptions are the session search's budgets and its observer, which
// prints each pass and accepted candidate under -v and records each best
// in best (the first error in recErr).
func (s *minimizeSession) choiceOptions(local string, best *session.Recorder, runs *int, recErr *error) []shrink.Option {
	opts := []shrink.Option{shrink.Observe(func(ev shrink.Event) {
		seq := ev.Args[0].(*shrink.ChoiceSeq)
		if s.cfg.Verbose && ev.Kind != shrink.Done {
			e := session.Event{Action: session.ActionPass, Pass: ev.Pass, Round: ev.Round, Runs: *runs}
			if ev.Kind == shrink.Accepted {
				e.Action, e.Value = session.ActionAccept, formatDraws(seq.Rec.Draws, local, "; ")
			}
			os.Stdout.Write(session.AppendEvent(nil, e))
		}
		if ev.Kind == shrink.Accepted && *recErr == nil {
			*recErr = best.Write(*runs, choiceTuple(seq.Data))
		}
	})}
	if s.cfg.MaxRuns > 0 {
		opts = append(opts, shrink.MaxRuns(max(1, s.cfg.MaxRuns-s.cfg.Runs)))
	}
	if !s.cfg.Deadline.IsZero() {
		opts = append(opts, shrink.Deadline(s.cfg.Deadline))
	}
	return opts
}

// choiceTuple is the session tuple of a choice sequence: one []byte.
func choiceTuple(data []byte) []byte {
	tuple, _ := session.AppendTuple(nil, []any{data}) // a []byte always encodes
	return tuple
}

// runChoices replays data through prop in capture mode, with t the T it
// embeds, and returns the T, whose sig says how it failed. The record
// reuses the memory of spare, if not nil.
func runChoices(t *testing.T, prop func(*T), data []byte, keepDraws bool, spare *shrink.Record) *T {
	tt := newT(t, data, nil)
	tt.recording, tt.keepDraws = true, keepDraws
	if spare != nil {
		tt.rec.Choices, tt.rec.Spans = spare.Choices[:0], spare.Spans[:0]
	}
	tt.sig = runCaptured(tt, prop)
	return tt
}

// withDraws returns res with the draws lines.
func withDraws(res session.Result, lines []string) session.Result {
	res.Draws = strings.Join(lines, "\n")
	return res
}
