package fuzzshrink

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
