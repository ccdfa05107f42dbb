package fuzzshrink

import (
	"bytes"
	"context"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// choiceOracle judges choice sequences: it replays each candidate and
// compares its failure with the one kept. It is the oracle of Check's
// shrinking and of the fuzzmin session of a generator target.
type choiceOracle struct {
	run    func(data []byte) (failure.Signature, *T) // replays data with recording
	want   failure.Signature
	frozen [][]byte // the canonical tokens of the original's NoShrink spans, in order
	short  bool     // the original failed in a Repeat before its minimum of steps
	runs   int

	before func(data []byte) error                  // the session records each candidate first
	known  func(data []byte) (shrink.Verdict, bool) // verdicts learned by earlier sessions
	others shrink.Pool                              // the candidates that failed another way

	lastCand, lastNorm *shrink.ChoiceSeq // the last candidate judged Fail, and its normal form
}

// Run implements [shrink.Oracle].
func (o *choiceOracle) Run(ctx context.Context, batch [][]any) ([]shrink.Verdict, error) {
	vs := make([]shrink.Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		v, err := o.judge(args[0].(*shrink.ChoiceSeq))
		if err != nil {
			return vs, err
		}
		vs = append(vs, shrink.Verdict(v))
		if v == shrink.Fail {
			break
		}
	}
	return vs, nil
}

func (o *choiceOracle) judge(seq *shrink.ChoiceSeq) (shrink.Verdict, error) {
	if o.known != nil {
		if v, ok := o.known(seq.Data); ok {
			return v, nil // not Same: the session that ran it died
		}
	}
	if o.before != nil {
		if err := o.before(seq.Data); err != nil {
			return 0, err
		}
	}
	o.runs++
	sig, t := o.run(seq.Data)
	if t.invalid != "" {
		return shrink.Pass, nil
	}
	v := shrink.Classify(sig, o.want)
	switch {
	case v == shrink.OtherFail:
		o.others.Add(sig, []any{seq})
	case v == shrink.Fail && !o.keepsFrozen(&t.rec):
		v = shrink.Pass // it changed a NoShrink value: not a shrink
	case v == shrink.Fail && t.short != nil && !o.short:
		v = shrink.Pass // it fails before a Repeat ran its minimum of steps: not a shrink
	case v == shrink.Fail:
		data, rec := t.rec.Normalize()
		o.lastCand, o.lastNorm = seq, &shrink.ChoiceSeq{Data: data, Rec: rec}
	}
	return v, nil
}

// Normalize implements shrink.Normalizer.
func (o *choiceOracle) Normalize(cand []any) []any {
	if len(cand) == 1 && cand[0] == o.lastCand {
		return []any{o.lastNorm}
	}
	return nil
}

// keepsFrozen reports whether the NoShrink spans of rec are a subsequence
// of the original's: a candidate may lose some (with an enclosing span),
// never change one. Passes never edit them; this catches the candidates
// where the choices before them changed how they read.
func (o *choiceOracle) keepsFrozen(rec *shrink.Record) bool {
	if len(o.frozen) == 0 {
		return true
	}
	i := 0
	for _, k := range shrink.FrozenTokens(rec) {
		for i < len(o.frozen) && !bytes.Equal(o.frozen[i], k) {
			i++
		}
		if i == len(o.frozen) {
			return false
		}
		i++
	}
	return true
}

var _ shrink.Normalizer = (*choiceOracle)(nil)

// A choiceSearch is the one search of a failure as a choice sequence, which
// Check, Find and the fuzzmin session of a target of generators share: the
// start (the failing run's normal form, lengthened to a Repeat's minimum of
// steps, or the tokens of an entry that crashed), the greedy search, a
// last run of the result for its draws and messages, and the explanation
// of which draws do not matter.
type choiceSearch struct {
	o    *choiceOracle
	opts []shrink.Option // budgets, and an observer
	// fresh runs the property on a sequence as the last run and the
	// explanation do: with its draws kept, in memory of its own.
	fresh func(data []byte) (failure.Signature, *T)
	// explain bounds the explanation's runs (shrink.ExplainBudget: -1,
	// as many as the search took; 0: none), whose random draws come from
	// seed. explaining, if not nil, is told of the result and its last run
	// first, and may say no.
	explain    int
	seed       uint64
	explaining func(r *choiceResult) bool
}

// A choiceResult is what a choiceSearch made of a failure.
type choiceResult struct {
	start *shrink.ChoiceSeq // where the search started: the floor of a result
	best  []byte
	stats shrink.Stats
	err   error
	// simpler says that best is simpler than start; if not, the failure's
	// own sequence stays what it was.
	simpler bool
	// The last run of best (nil after a crash, which cannot be rerun),
	// and how it failed; the draws that do not matter, and the runs that
	// told.
	last        *T
	lastSig     failure.Signature
	free        []string
	explainRuns int
}

// search searches from orig, a run of the property that failed as want
// (o.want), or, if orig is nil, from the tokens of data, an entry whose
// run crashes the process and cannot be recorded.
func (s *choiceSearch) search(orig *T, data []byte) choiceResult {
	var res choiceResult
	if orig == nil {
		res.start = shrink.TokenSeq(data)
	} else {
		s.o.frozen = shrink.FrozenTokens(&orig.rec)
		norm, rec := orig.rec.Normalize()
		res.start = &shrink.ChoiceSeq{Data: norm, Rec: rec}
		if orig.short != nil {
			// It fails in a Repeat before the minimum of steps (statemachine.go).
			long, err := s.o.lengthen(res.start, orig.short)
			switch {
			case err != nil:
				res.best, res.err = res.start.Data, err
				return res
			case long != nil:
				res.start = long
			default:
				s.o.short = true
			}
		}
	}
	r, err := shrink.Shrink(context.Background(), []any{res.start}, s.o, s.opts...)
	res.best, res.stats, res.err = r.Args[0].(*shrink.ChoiceSeq).Data, r.Stats, err
	res.simpler = (&shrink.ChoiceSeq{Data: res.best}).Compare(&shrink.ChoiceSeq{Data: res.start.Data}) < 0
	if orig == nil {
		return res // a crash: no last run
	}
	res.last = s.freshRun(res.best)
	res.lastSig = res.last.sig
	if budget := shrink.ExplainBudget(s.explain, s.o.runs); res.lastSig == s.o.want && budget != 0 && (s.explaining == nil || s.explaining(&res)) {
		res.free, res.explainRuns = explainDraws(s.fresh, res.best, res.last, s.o.want, budget, s.seed)
		if res.explainRuns > 0 {
			// The explanation ran alternatives: the property runs once
			// more on the result, so that its logs, its side effects and
			// a debugger see that case last.
			res.last = s.freshRun(res.best)
			res.lastSig = res.last.sig
		}
	}
	return res
}

func (s *choiceSearch) freshRun(data []byte) *T {
	sig, t := s.fresh(data)
	t.sig = sig
	return t
}
