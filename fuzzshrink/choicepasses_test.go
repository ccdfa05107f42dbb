package fuzzshrink

import (
	"bytes"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// bestOf runs prop on data and returns its normal form with its record,
// as the engine's best.
func bestOf(prop func(*T) []any, data []byte) (*shrink.ChoiceSeq, bool) {
	t, _ := runProp(prop, data, nil)
	if t.invalid != "" {
		return nil, false
	}
	norm, rec := t.rec.Normalize()
	return &shrink.ChoiceSeq{Data: norm, Rec: rec}, true
}

// TestChoicePasses_CandidatesSmaller checks, for generated cases of many
// generators, that every candidate of every choice pass is strictly smaller
// than the best, resuming from a candidate's cursor on its normal form
// too; and that a candidate's normal form, trailing zeros aside, is no
// larger than the candidate: the passes write canonical tokens, and
// decoding never makes a token larger. (The normal form keeps the trailing
// simplest choices the property drew past the end, and the simplest value
// of a float range without 0 can have a longer token than the one it is
// read from: the engine accepts a normal form only if it is smaller than
// the best.)
func TestChoicePasses_CandidatesSmaller(t *testing.T) {
	t.Parallel()
	for name, prop := range testProps {
		for seed := range uint64(6) {
			g, _ := runProp(prop, nil, newGenerator(seed, 20))
			best, ok := bestOf(prop, g.data)
			if !ok {
				continue
			}
			checkChoicePasses(t, name, prop, best, shrink.Mark{}, 2)
		}
	}
}

func checkChoicePasses(t *testing.T, name string, prop func(*T) []any, best *shrink.ChoiceSeq, from shrink.Mark, depth int) {
	t.Helper()
	for _, p := range best.Passes() {
		n := 0
		for c, v := range p.Run(best, from) {
			cand := v.(*shrink.ChoiceSeq)
			if cand.Compare(best) >= 0 {
				t.Fatalf("%s: pass %s proposed %x from %x: not smaller", name, p.Name, cand.Data, best.Data)
			}
			next, ok := bestOf(prop, cand.Data)
			if !ok {
				continue
			}
			if trimmed(next.Data, cand.Data) && !offsetFloats(next.Rec) && !boundaries(cand.Data) {
				t.Fatalf("%s: pass %s proposed %x, whose normal form %x is larger", name, p.Name, cand.Data, next.Data)
			}
			if depth > 1 && n < 2 && next.Compare(best) < 0 {
				checkChoicePasses(t, name, prop, next, c, depth-1)
			}
			if n++; n == 25 {
				break
			}
		}
	}
}

// offsetFloats reports whether rec has a float choice whose range does not
// hold 0: a token that decodes outside the range stands for the simplest
// value inside, whose token can be longer (0 for 0.5 in [0.3, 0.7]).
func offsetFloats(rec *shrink.Record) bool {
	for _, c := range rec.Choices {
		if c.Kind == shrink.KindFloat && !c.FloatInterval().Contains(0) {
			return true
		}
	}
	return false
}

// boundaries reports whether a sequence has boundary tokens, which lowering
// a branch writes.
func boundaries(data []byte) bool {
	for pos := 0; pos < len(data); {
		tk, next := shrink.ReadToken(data, pos)
		if tk.First >= shrink.BoundaryTokens {
			return true
		}
		pos = next
	}
	return false
}

// trimmed reports whether a, without trailing zero bytes, is larger than b
// without them.
func trimmed(a, b []byte) bool {
	return (&shrink.ChoiceSeq{Data: bytes.TrimRight(a, "\x00")}).Compare(&shrink.ChoiceSeq{Data: bytes.TrimRight(b, "\x00")}) > 0
}

// TestChoicePasses_NoShrinkFrozen checks that no candidate changes the
// choices of a NoShrink span.
func TestChoicePasses_NoShrinkFrozen(t *testing.T) {
	t.Parallel()
	prop := func(t *T) []any {
		a := NoShrink(IntRange(0, 1000)).Draw(t, "a")
		xs := SliceOf(NoShrink(Int())).Draw(t, "xs")
		return []any{a, xs, Int().Draw(t, "b")}
	}
	for seed := range uint64(50) {
		g, vals := runProp(prop, nil, newGenerator(seed, 50))
		best, _ := bestOf(prop, g.data)
		frozen := shrink.FrozenTokens(best.Rec)
		for _, p := range best.Passes() {
			for _, v := range p.Run(best, shrink.Mark{}) {
				c, ok := bestOf(prop, v.(*shrink.ChoiceSeq).Data)
				if !ok {
					continue
				}
				if got := shrink.FrozenTokens(c.Rec); len(got) == 0 || !bytes.Equal(got[0], frozen[0]) {
					t.Fatalf("pass %s changed a = %v: %x from %x", p.Name, vals[0], v.(*shrink.ChoiceSeq).Data, best.Data)
				}
			}
		}
	}
}
