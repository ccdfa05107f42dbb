package fuzzshrink

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Target tells Check how close the run of the property is to failing: a
// score to maximize, under a label (as Hypothesis' target()). When Check's
// random cases all pass, it spends a bounded number of runs climbing the
// score of each label: it mutates the choices of the best-scoring case and
// keeps the mutants that score higher, which reaches failures that random
// generation misses, those past a threshold that few cases come near:
//
//	fuzzshrink.Target(t, float64(balance-limit), "overdraft")
//	if balance > limit { t.Fatalf("overdrawn by %d", balance-limit) }
//
// Shrinking ignores scores: the order of choice sequences alone decides
// what is simpler, which guarantees that shrinking ends, and its exact
// binary searches end a failure at its threshold (x > 1000 shrinks to 1001)
// without help. Under Fuzz, Target does nothing. A label scores once per
// run: the last call counts.
func Target(t *T, value float64, label string) {
	if !t.capture {
		return
	}
	for i := range t.scores {
		if t.scores[i].label == label {
			t.scores[i].value = value
			return
		}
	}
	t.scores = append(t.scores, score{label, value})
}

// score is a labelled score of a run.
type score struct {
	label string
	value float64
}

// target is Check's target phase: for each label, starting from the case
// that scored highest, it mutates one or two choices at a time and keeps
// the mutants that score at least as high (sideways moves cross plateaus),
// for TargetRuns runs in all. It returns the failure it meets, or nil.
func (c *checker) target(best map[string]*T) *checkFailure {
	labels := make([]string, 0, len(best))
	for l := range best {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	rng := rand.New(rand.NewPCG(c.cfg.seed, 0x7A26E7))
	per := max(1, c.cfg.targetRuns/len(labels))
	for _, label := range labels {
		cur := best[label]
		data, rec := cur.rec.Normalize()
		seq := &shrink.ChoiceSeq{Data: data, Rec: rec}
		score := scoreOf(cur, label)
		for range per {
			cand := mutate(rng, seq)
			if cand == nil {
				break
			}
			t := c.newT(cand, nil, true)
			sig := runCaptured(t, c.prop)
			c.stats.targeted++
			switch {
			case t.invalid != "":
				continue
			case sig.Failed():
				return c.shrink(t, sig, fmt.Sprintf("run %d of the target phase, climbing %q", c.stats.targeted, label))
			}
			if s := scoreOf(t, label); s >= score {
				data, rec := t.rec.Normalize()
				seq, score = &shrink.ChoiceSeq{Data: data, Rec: rec}, s
			}
		}
	}
	return nil
}

// mutate returns seq with one or two of its choices changed: moved by a
// power of two, or drawn anew. It returns nil if no choice can change.
func mutate(rng *rand.Rand, seq *shrink.ChoiceSeq) []byte {
	an := seq.Analysis()
	var free []int
	for i := range seq.Rec.Choices {
		if !an.Frozen[i] {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return nil
	}
	data := seq.Data
	for range 1 + rng.IntN(2) {
		c := seq.Rec.Choices[free[rng.IntN(len(free))]]
		if int(c.End) > len(data) || len(data) != len(seq.Data) {
			break // a second change, after the first moved the tokens
		}
		var tok []byte
		if c.Kind == shrink.KindInt {
			r := c.Interval()
			v := r.Value(c.Val)
			switch rng.IntN(3) {
			case 0, 1:
				d := uint64(1) << rng.IntN(8)
				if rng.IntN(3) == 0 {
					d = uint64(1) << rng.IntN(64)
				}
				up := rng.IntN(2) == 0
				if nv, ok := shrink.Shift(&c, v, d, up); ok {
					v = nv
				} else if up {
					v = r.Hi
				} else {
					v = r.Lo
				}
			default:
				v = r.Value((&generator{rng: rng}).below(r.Size()))
			}
			tok = shrink.AppendIntToken(nil, r.Rank(v))
		} else {
			r := c.FloatInterval()
			f := c.Float() + float64(int64(1)<<rng.IntN(20))*float64(1-2*rng.IntN(2))
			if !r.Contains(f) {
				f = (&generator{rng: rng, size: 100}).float(r)
			}
			tok = shrink.AppendFloatToken(nil, f)
		}
		data = shrink.Splice(data, int(c.Start), int(c.End), tok)
	}
	return data
}
