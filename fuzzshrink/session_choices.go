package fuzzshrink

import (
	"context"
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
	var spare shrink.Record // the memory of the last candidate's record, as in Check
	o := &choiceOracle{
		run: func(data []byte) (failure.Signature, *T) {
			tt := runChoices(t, prop, data, s.cfg.Verbose, &spare)
			spare = tt.rec
			return tt.sig, tt
		},
		before: func(data []byte) error {
			runs++
			if err := cur.Write(runs, choiceTuple(data)); err != nil {
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

	var start *shrink.ChoiceSeq
	var orig *T // the original's run
	if s.cfg.Want != nil {
		// The original crashes the process: its record cannot be had by
		// running it. Shrink on its tokens, whatever choices read them.
		o.want, start = *s.cfg.Want, shrink.TokenSeq(data)
	} else {
		orig = runChoices(t, prop, data, true, nil)
		tt := orig
		if !tt.sig.Failed() || tt.invalid != "" {
			return session.Result{Error: "the entry does not fail when run in the session"}
		}
		o.want, o.frozen = tt.sig, shrink.FrozenTokens(&tt.rec)
		norm, rec := tt.rec.Normalize()
		start = &shrink.ChoiceSeq{Data: norm, Rec: rec}
		if tt.short != nil {
			// It fails in a Repeat before the minimum of steps (statemachine.go).
			long, err := o.lengthen(start, tt.short)
			switch {
			case err != nil:
				return session.Result{Error: err.Error()}
			case long != nil:
				start = long
			default:
				o.short = true
			}
		}
	}
	// The result must be simpler than the original's normal form (or the
	// form lengthened to the minimum of steps), not than its raw bytes.
	floor := start.Data
	var recErr error
	opts := []shrink.Option{shrink.Observe(func(ev shrink.Event) {
		seq := ev.Args[0].(*shrink.ChoiceSeq)
		if s.cfg.Verbose && ev.Kind != shrink.Done {
			e := session.Event{Action: session.ActionPass, Pass: ev.Pass, Round: ev.Round, Runs: runs}
			if ev.Kind == shrink.Accepted {
				e.Action, e.Value = session.ActionAccept, formatDraws(seq.Rec.Draws, local, "; ")
			}
			os.Stdout.Write(session.AppendEvent(nil, e))
		}
		if ev.Kind == shrink.Accepted && recErr == nil {
			recErr = bestRec.Write(runs, choiceTuple(seq.Data))
		}
	})}
	if s.cfg.MaxRuns > 0 {
		opts = append(opts, shrink.MaxRuns(max(1, s.cfg.MaxRuns-s.cfg.Runs)))
	}
	if !s.cfg.Deadline.IsZero() {
		opts = append(opts, shrink.Deadline(s.cfg.Deadline))
	}
	r, err := shrink.Shrink(context.Background(), []any{start}, o, opts...)
	best, accepted := r.Args[0].(*shrink.ChoiceSeq).Data, r.Stats.Accepted
	if (&shrink.ChoiceSeq{Data: best}).Compare(&shrink.ChoiceSeq{Data: floor}) >= 0 {
		// Nothing simpler than the entry: keep it as it was (its normal
		// form can be longer, as a boundary token of the fuzzer takes one
		// byte). A simpler result is kept even if its bytes are more.
		best, accepted = data, 0
	}
	res := session.Result{Want: o.want, Accepted: accepted, Runs: runs, Elapsed: r.Stats.Time, Stop: r.Stats.Stop.String(),
		Value: gosyntax.Value(best, "")}
	res.Add = "f.Add(" + res.Value + ")"
	for _, sig := range o.others.Sorted() {
		res.Others = append(res.Others, session.Other{Want: sig, Tuple: choiceTuple(o.others.Args(sig)[0].(*shrink.ChoiceSeq).Data), Count: o.others.Count(sig)})
	}
	switch {
	case err != nil:
		res.Error = err.Error()
	case recErr != nil:
		res.Error = fmt.Sprintf("recording the best candidate: %v", recErr)
	}
	if res.Best, err = encoding.Marshal(best); err != nil {
		res.Error = err.Error()
	}
	if s.cfg.Want == nil || accepted == 0 {
		// The draws of the result, from a last run (not of a crashing one).
		if s.cfg.Want == nil {
			last := runChoices(t, prop, best, true, nil)
			lines := drawLines(last, orig, accepted, last.sig.Failed(), local)
			if last.sig == o.want && s.cfg.Explain != 0 && s.explaining(withDraws(res, lines)) {
				budget := shrink.ExplainBudget(s.cfg.Explain, runs)
				replay := func(d []byte) (failure.Signature, *T) {
					tt := runChoices(t, prop, d, false, nil)
					return tt.sig, tt
				}
				if free, n := explainDraws(replay, best, last, o.want, budget, 1); len(free) > 0 {
					lines = append(lines, freeLine(free, n))
				}
			}
			res.Draws = strings.Join(lines, "\n")
		}
	}
	return res
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
