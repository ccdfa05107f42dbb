package fuzzshrink

import (
	"bytes"
	"context"
	"testing"
)

// bestOf runs prop on data and returns its normal form with its record,
// as the engine's best.
func bestOf(prop func(*T) []any, data []byte) (*choiceSeq, bool) {
	t, _ := runProp(prop, data, nil)
	if t.invalid != "" {
		return nil, false
	}
	norm, rec := t.rec.normalize()
	return &choiceSeq{data: norm, rec: rec}, true
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
			checkChoicePasses(t, name, prop, best, cursor{}, 2)
		}
	}
}

func checkChoicePasses(t *testing.T, name string, prop func(*T) []any, best *choiceSeq, from cursor, depth int) {
	t.Helper()
	for _, p := range passes {
		n := 0
		for c, v := range p.candidates([]any{best}, from) {
			cand := v.(*choiceSeq)
			if compareChoiceSeqs(cand, best) >= 0 {
				t.Fatalf("%s: pass %s proposed %x from %x: not smaller", name, p.name, cand.data, best.data)
			}
			next, ok := bestOf(prop, cand.data)
			if !ok {
				continue
			}
			if trimmed(next.data, cand.data) && !offsetFloats(next.rec) && !boundaries(cand.data) {
				t.Fatalf("%s: pass %s proposed %x, whose normal form %x is larger", name, p.name, cand.data, next.data)
			}
			if depth > 1 && n < 2 && compareChoiceSeqs(next, best) < 0 {
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
func offsetFloats(rec *record) bool {
	for _, c := range rec.choices {
		if c.kind == kindFloat && !c.floatRange().contains(0) {
			return true
		}
	}
	return false
}

// boundaries reports whether a sequence has boundary tokens, which lowering
// a branch writes.
func boundaries(data []byte) bool {
	for pos := 0; pos < len(data); {
		tk, next := readToken(data, pos)
		if tk.first >= boundaryTokens {
			return true
		}
		pos = next
	}
	return false
}

// trimmed reports whether a, without trailing zero bytes, is larger than b
// without them.
func trimmed(a, b []byte) bool {
	return compareChoiceSeqs(&choiceSeq{data: bytes.TrimRight(a, "\x00")}, &choiceSeq{data: bytes.TrimRight(b, "\x00")}) > 0
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
		frozen := frozenTokens(best.rec)
		for _, p := range passes {
			for _, v := range p.candidates([]any{best}, cursor{}) {
				c, ok := bestOf(prop, v.(*choiceSeq).data)
				if !ok {
					continue
				}
				if got := frozenTokens(c.rec); len(got) == 0 || !bytes.Equal(got[0], frozen[0]) {
					t.Fatalf("pass %s changed a = %v: %x from %x", p.name, vals[0], v.(*choiceSeq).data, best.data)
				}
			}
		}
	}
}

// normalizing is an oracle that judges every candidate Fail and normalizes
// it to norm.
type normalizing struct{ norm []any }

func (o normalizing) Run(_ context.Context, batch [][]any) ([]Verdict, error) {
	return []Verdict{Fail}, nil
}

func (o normalizing) normalize([]any) []any { return o.norm }

// TestShrink_NormalFormMustBeSmaller checks the engine's side of
// normalization: a normal form that is not smaller than the best tuple is
// no progress, and is not accepted, so that the search still terminates.
func TestShrink_NormalFormMustBeSmaller(t *testing.T) {
	t.Parallel()
	start := &choiceSeq{data: []byte{5, 5}, rec: &record{
		choices: []choice{{kind: kindInt, lo: 0, hi: 9, val: 5, start: 0, end: 1}, {kind: kindInt, lo: 0, hi: 9, val: 5, start: 1, end: 2}},
		spans:   []span{{gen: tokenGen, first: 0, last: 1, parent: -1}, {gen: tokenGen, first: 1, last: 2, parent: -1}},
	}}
	r, err := Shrink(context.Background(), []any{start}, normalizing{[]any{&choiceSeq{data: []byte{5, 5, 5}}}}, MaxRuns(50))
	if err != nil || r.Stats.Accepted != 0 || r.Args[0].(*choiceSeq) != start {
		t.Fatalf("accepted %d normal forms larger than the best (%v)", r.Stats.Accepted, err)
	}
	small := &choiceSeq{data: []byte{1}}
	r, _ = Shrink(context.Background(), []any{start}, normalizing{[]any{small}}, MaxRuns(50))
	if r.Args[0].(*choiceSeq) != small || r.Stats.Accepted != 1 {
		t.Fatalf("the smaller normal form was not kept: %v", r.Args[0])
	}
}
