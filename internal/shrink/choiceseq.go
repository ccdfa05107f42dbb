package shrink

import (
	"bytes"
	"cmp"
)

// A ChoiceSeq is a choice sequence as an argument of the engine, a
// [Value]: ordered shortlex on its bytes in numeric byte order (the order
// its canonical tokens preserve; not the printable-first order of strings
// and []byte, which is for values people read), with the passes of
// choicepasses.go, which work on the record of the run that drew it.
type ChoiceSeq struct {
	Data []byte
	Rec  *Record   // the run's record; set on a sequence the oracle normalized
	an   *Analysis // computed from Rec when a pass first needs it
}

// Size implements [Value]: the sequence's bytes.
func (s *ChoiceSeq) Size() int { return len(s.Data) }

// Compare implements [Value]: shortlex on bytes.
func (s *ChoiceSeq) Compare(other Value) int {
	o := other.(*ChoiceSeq)
	if c := cmp.Compare(len(s.Data), len(o.Data)); c != 0 {
		return c
	}
	return bytes.Compare(s.Data, o.Data)
}

// Key implements [Value]: the bytes.
func (s *ChoiceSeq) Key() []byte { return s.Data }

// Passes implements [Value].
func (s *ChoiceSeq) Passes() []ValuePass { return choicePasses }

// A Normalizer is an oracle that can replace a candidate it judged Fail by
// its normal form: equivalent (it runs the same way) and no larger in the
// order. The engine accepts the normal form instead of the candidate, if
// it is still smaller than the best tuple. The oracle of choice sequences
// is one: a sequence's normal form holds the canonical tokens of the
// choices its run drew, and the run's record, which the passes need.
type Normalizer interface {
	Normalize(cand []any) []any
}

// FrozenTokens returns the canonical tokens of each outermost NoShrink span
// of rec, in order.
func FrozenTokens(rec *Record) [][]byte {
	var out [][]byte
	inside := make([]bool, len(rec.Spans)) // the span is in a NoShrink span
	for i, s := range rec.Spans {
		if p := s.Parent; p >= 0 {
			inside[i] = inside[p] || rec.Spans[p].Drawer.NoShrink
		}
		if !s.Drawer.NoShrink || inside[i] || s.Last < 0 {
			continue
		}
		k := []byte{}
		for _, c := range rec.Choices[s.First:s.Last] {
			k = c.AppendToken(k)
		}
		out = append(out, k)
	}
	return out
}

// TokenSeq is a choice sequence whose record is its tokens alone: each an
// integer choice of its own span, at the top level. It lets the passes
// delete and lower tokens of a sequence that cannot be run to learn its
// choices.
func TokenSeq(data []byte) *ChoiceSeq {
	rec := &Record{}
	for pos := 0; pos < len(data); {
		tk, next := ReadToken(data, pos)
		k := uint64(tk.First)
		switch {
		case tk.First >= BoundaryTokens:
			k = SmallTokens - 1 // lowered, it becomes a small token
		case tk.First >= SmallTokens:
			k = tk.lo
		}
		i := int32(len(rec.Choices))
		rec.Choices = append(rec.Choices, Choice{Kind: KindInt, Lo: 0, Hi: ^uint64(0), Val: k,
			Start: int32(pos), End: int32(min(next, len(data)))})
		rec.Spans = append(rec.Spans, Span{Drawer: tokenGen, First: i, Last: i + 1, Parent: -1})
		pos = next
	}
	return &ChoiceSeq{Data: data, Rec: rec}
}

var tokenGen = &Drawer{Name: "a token"}
