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
