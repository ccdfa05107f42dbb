package shrink

import (
	"context"
	"testing"
)

// normalizing is an oracle that judges every candidate Fail and normalizes
// it to norm.
type normalizing struct{ norm []any }

func (o normalizing) Run(_ context.Context, batch [][]any) ([]Verdict, error) {
	return []Verdict{Fail}, nil
}

func (o normalizing) Normalize([]any) []any { return o.norm }

// TestShrink_NormalFormMustBeSmaller checks the engine's side of
// normalization: a normal form that is not smaller than the best tuple is
// no progress, and is not accepted, so that the search still terminates.
func TestShrink_NormalFormMustBeSmaller(t *testing.T) {
	t.Parallel()
	start := &ChoiceSeq{Data: []byte{5, 5}, Rec: &Record{
		Choices: []Choice{{Kind: KindInt, Lo: 0, Hi: 9, Val: 5, Start: 0, End: 1}, {Kind: KindInt, Lo: 0, Hi: 9, Val: 5, Start: 1, End: 2}},
		Spans:   []Span{{Drawer: tokenGen, First: 0, Last: 1, Parent: -1}, {Drawer: tokenGen, First: 1, Last: 2, Parent: -1}},
	}}
	r, err := Shrink(context.Background(), []any{start}, normalizing{[]any{&ChoiceSeq{Data: []byte{5, 5, 5}}}}, MaxRuns(50))
	if err != nil || r.Stats.Accepted != 0 || r.Args[0].(*ChoiceSeq) != start {
		t.Fatalf("accepted %d normal forms larger than the best (%v)", r.Stats.Accepted, err)
	}
	small := &ChoiceSeq{Data: []byte{1}}
	r, _ = Shrink(context.Background(), []any{start}, normalizing{[]any{small}}, MaxRuns(50))
	if r.Args[0].(*ChoiceSeq) != small || r.Stats.Accepted != 1 {
		t.Fatalf("the smaller normal form was not kept: %v", r.Args[0])
	}
}

// TestTokenSeq checks the record of a sequence's tokens alone.
func TestTokenSeq(t *testing.T) {
	t.Parallel()
	s := TokenSeq([]byte{5, 0xE1, 1, 2, 0xF0, 0})
	if len(s.Rec.Choices) != 4 || s.Rec.Choices[1].Val != 0x102 || s.Rec.Choices[2].Val != SmallTokens-1 {
		t.Fatalf("%+v", s.Rec.Choices)
	}
	for _, p := range s.Passes() {
		for _, v := range p.Run(s, Mark{}) {
			if v.Compare(s) >= 0 {
				t.Fatalf("pass %s: %x is not smaller than %x", p.Name, v.(*ChoiceSeq).Data, s.Data)
			}
		}
	}
}
