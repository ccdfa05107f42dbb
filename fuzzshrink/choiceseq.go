package fuzzshrink

import (
	"bytes"
	"cmp"
	"context"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// A choiceSeq is a choice sequence as an argument of the engine: a value
// type of its own, ordered shortlex on its bytes in numeric byte order
// (the order its canonical tokens preserve; not the printable-first order
// of strings and []byte, which is for values people read). Its shrink
// passes are in choicepasses.go. A choiceSeq is immutable: candidates are
// new values, so that tuples may share them.
type choiceSeq struct {
	data []byte
	rec  *record   // the run's record; set on a sequence the oracle normalized
	an   *analysis // computed from rec when a pass first needs it
}

func isChoiceSeq(v any) bool {
	_, ok := v.(*choiceSeq)
	return ok
}

// compareChoiceSeqs is shortlex on bytes.
func compareChoiceSeqs(a, b *choiceSeq) int {
	if c := cmp.Compare(len(a.data), len(b.data)); c != 0 {
		return c
	}
	return bytes.Compare(a.data, b.data)
}

// A normalizer is an oracle that can replace a candidate it judged Fail by
// its normal form: equivalent (it runs the same way) and no larger in the
// order. The engine accepts the normal form instead of the candidate, if
// it is still smaller than the best tuple.
type normalizer interface {
	normalize(cand []any) []any
}

// choiceOracle judges choice sequences: it replays each candidate and
// compares its failure with the one kept. It is the oracle of Check's
// shrinking and of the fuzzmin session of a generator target.
type choiceOracle struct {
	run    func(data []byte) (failure.Signature, *T) // replays data with recording
	want   failure.Signature
	frozen [][]byte // the canonical tokens of the original's NoShrink spans, in order
	short  bool     // the original failed in a Repeat before its minimum of steps
	runs   int

	before func(data []byte) error                     // the session records each candidate first
	known  func(data []byte) (failure.Verdict, bool)   // verdicts learned by earlier sessions
	other  func(sig failure.Signature, seq *choiceSeq) // a candidate that failed another way

	lastCand, lastNorm *choiceSeq // the last candidate judged Fail, and its normal form
}

// Run implements [Oracle].
func (o *choiceOracle) Run(ctx context.Context, batch [][]any) ([]Verdict, error) {
	vs := make([]Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		v, err := o.judge(args[0].(*choiceSeq))
		if err != nil {
			return vs, err
		}
		vs = append(vs, Verdict(v))
		if v == failure.Same {
			break
		}
	}
	return vs, nil
}

func (o *choiceOracle) judge(seq *choiceSeq) (failure.Verdict, error) {
	if o.known != nil {
		if v, ok := o.known(seq.data); ok {
			return v, nil // not Same: the session that ran it died
		}
	}
	if o.before != nil {
		if err := o.before(seq.data); err != nil {
			return 0, err
		}
	}
	o.runs++
	sig, t := o.run(seq.data)
	if t.invalid != "" {
		return failure.Pass, nil
	}
	v := failure.Classify(sig, o.want)
	switch {
	case v == failure.Other && o.other != nil:
		o.other(sig, seq)
	case v == failure.Same && !o.keepsFrozen(&t.rec):
		v = failure.Pass // it changed a NoShrink value: not a shrink
	case v == failure.Same && t.short != nil && !o.short:
		v = failure.Pass // it fails before a Repeat ran its minimum of steps: not a shrink
	case v == failure.Same:
		data, rec := t.rec.normalize()
		o.lastCand, o.lastNorm = seq, &choiceSeq{data: data, rec: rec}
	}
	return v, nil
}

// normalize implements normalizer.
func (o *choiceOracle) normalize(cand []any) []any {
	if len(cand) == 1 && cand[0] == o.lastCand {
		return []any{o.lastNorm}
	}
	return nil
}

// keepsFrozen reports whether the NoShrink spans of rec are a subsequence
// of the original's: a candidate may lose some (with an enclosing span),
// never change one. Passes never edit them; this catches the candidates
// where the choices before them changed how they read.
func (o *choiceOracle) keepsFrozen(rec *record) bool {
	if len(o.frozen) == 0 {
		return true
	}
	i := 0
	for _, k := range frozenTokens(rec) {
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

// frozenTokens returns the canonical tokens of each outermost NoShrink span
// of rec, in order.
func frozenTokens(rec *record) [][]byte {
	var out [][]byte
	inside := make([]bool, len(rec.spans)) // the span is in a NoShrink span
	for i, s := range rec.spans {
		if p := s.parent; p >= 0 {
			inside[i] = inside[p] || rec.spans[p].gen.noShrink
		}
		if !s.gen.noShrink || inside[i] || s.last < 0 {
			continue
		}
		k := []byte{}
		for _, c := range rec.choices[s.first:s.last] {
			k = c.appendToken(k)
		}
		out = append(out, k)
	}
	return out
}

// tokenSeq is a choice sequence whose record is its tokens alone: each an
// integer choice of its own span, at the top level. It lets the passes
// delete and lower tokens of a sequence that cannot be run to learn its
// choices.
func tokenSeq(data []byte) *choiceSeq {
	rec := &record{}
	for pos := 0; pos < len(data); {
		tk, next := readToken(data, pos)
		k := uint64(tk.first)
		switch {
		case tk.first >= boundaryTokens:
			k = smallTokens - 1 // lowered, it becomes a small token
		case tk.first >= smallTokens:
			k = tk.lo
		}
		i := int32(len(rec.choices))
		rec.choices = append(rec.choices, choice{kind: kindInt, lo: 0, hi: ^uint64(0), val: k,
			start: int32(pos), end: int32(min(next, len(data)))})
		rec.spans = append(rec.spans, span{gen: tokenGen, first: i, last: i + 1, parent: -1})
		pos = next
	}
	return &choiceSeq{data: data, rec: rec}
}

var tokenGen = &genInfo{name: "a token"}
