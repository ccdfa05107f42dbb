package fuzzshrink

import (
	"context"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// hundredInts is the choice sequence of a 100-element slice of ints, some
// small, some large.
func hundredInts(b *testing.B) []byte {
	var xs []int
	for i := range 100 {
		xs = append(xs, i*i*i*i*i*i*i*i)
	}
	s := seed{values: map[string][]any{"xs": {xs}}, order: []string{"xs"}}
	data, err := s.choices(func(t *T) { SliceOf(Int()).Draw(t, "xs") })
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkDraw_SliceOfInts measures the draws of a 100-element slice of
// ints (201 choices: a flag and an int per element, and the last flag):
// replayed as a fuzz target does (no record), replayed with the record the
// shrinker needs (in the memory of the last one, as Check's shrinker
// does), and generated as Check does (SliceOfN(Int(), 100, 100): 100
// choices).
func BenchmarkDraw_SliceOfInts(b *testing.B) {
	g, g100 := SliceOf(Int()), SliceOfN(Int(), 100, 100)
	data := hundredInts(b)
	var spare shrink.Record
	for _, bc := range []struct {
		name string
		draw func() []int
	}{
		{"fuzz", func() []int { return g.Draw(newT(nil, data, nil), "xs") }},
		{"record", func() []int {
			t := newT(nil, data, nil)
			t.recording, t.rec.Choices, t.rec.Spans = true, spare.Choices[:0], spare.Spans[:0]
			xs := g.Draw(t, "xs")
			spare = t.rec
			return xs
		}},
		{"generate", func() []int {
			t := newT(nil, nil, newGenerator(1, 100))
			t.recording, t.rec.Choices, t.rec.Spans = true, spare.Choices[:0], spare.Spans[:0]
			xs := g100.Draw(t, "xs")
			spare = t.rec
			return xs
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				if xs := bc.draw(); len(xs) != 100 {
					b.Fatalf("%d elements", len(xs))
				}
				n++
			}
			b.ReportMetric(100*float64(n)/b.Elapsed().Seconds(), "ints/s")
		})
	}
}

// BenchmarkShrinkRate measures candidates per second of the in-process
// search on choice sequences (Check's oracle: a goroutine per run, the
// record, the cache, the passes) with trivial properties: one that a
// slice of 100 ints fails when it has 50 elements or more (most
// candidates are accepted), and one that fails for the original alone
// (every candidate passes, every pass runs to its end).
func BenchmarkShrinkRate(b *testing.B) {
	data := hundredInts(b)
	for _, bc := range []struct {
		name  string
		fails func(xs []int) bool
	}{
		{"accepting", func(xs []int) bool { return len(xs) >= 50 }},
		{"passing", func(xs []int) bool { return len(xs) == 100 && xs[99] == 99*99*99*99*99*99*99*99 }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			prop := func(t *T) {
				if bc.fails(SliceOf(Int()).Draw(t, "xs")) {
					panic("fails")
				}
			}
			c := newChecker(nil, prop, []CheckOption{CorpusDir("")})
			want, t := c.replay(data)
			norm, rec := t.rec.Normalize()
			runs := 0
			for b.Loop() {
				o := &choiceOracle{run: c.replay, want: want}
				if _, err := shrink.Shrink(context.Background(), []any{&shrink.ChoiceSeq{Data: norm, Rec: rec}}, o); err != nil {
					b.Fatal(err)
				}
				runs += o.runs
			}
			b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "candidates/s")
			b.ReportMetric(float64(runs)/float64(b.N), "runs/op")
		})
	}
}

// BenchmarkSessionRate measures candidates per second of fuzzmin's minimize
// session of a target of generators, on the property of ShrinkRate whose
// candidates all pass: as Check's search, plus recording each candidate in
// the session's file before it runs.
func BenchmarkSessionRate(b *testing.B) {
	data := hundredInts(b)
	prop := func(t *T) {
		if xs := SliceOf(Int()).Draw(t, "xs"); len(xs) == 100 && xs[99] == 99*99*99*99*99*99*99*99 {
			panic("fails")
		}
	}
	runs := 0
	for b.Loop() {
		s := &minimizeSession{dir: b.TempDir(), cfg: session.Config{Target: "FuzzX", Entry: "e"}}
		res := s.minimizeChoices(nil, prop, data)
		if res.Error != "" {
			b.Fatal(res.Error)
		}
		runs += res.Runs
	}
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "candidates/s")
}
