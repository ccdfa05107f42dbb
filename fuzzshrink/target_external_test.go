package fuzzshrink_test

import (
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// thresholdProp fails when three numbers add up to more than 2950, which
// random cases almost never do; with target, it scores their sum.
func thresholdProp(target bool) func(*fuzzshrink.T) {
	return func(t *fuzzshrink.T) {
		a := fuzzshrink.IntRange(0, 1000).Draw(t, "a")
		b := fuzzshrink.IntRange(0, 1000).Draw(t, "b")
		c := fuzzshrink.IntRange(0, 1000).Draw(t, "c")
		if target {
			fuzzshrink.Target(t, float64(a+b+c), "sum")
		}
		if a+b+c > 2950 {
			t.Fatalf("sum %d", a+b+c)
		}
	}
}

// TestTarget_ReachesThresholds: the target phase finds failures that
// random cases miss, and shrinking ends them at the threshold.
func TestTarget_ReachesThresholds(t *testing.T) {
	t.Parallel()
	withTarget, without := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		if report := check(t, thresholdProp(true), fuzzshrink.Seed(seed)); report != "" {
			withTarget++
			if got, _ := draws(report); got != "a = 951; b = 1000; c = 1000" {
				t.Errorf("seed %d: shrunk %s", seed, got)
			}
			if !strings.Contains(report, "of the target phase, climbing \"sum\"") {
				t.Errorf("seed %d: not found by the target phase:\n%s", seed, report)
			}
		}
		if check(t, thresholdProp(false), fuzzshrink.Seed(seed)) != "" {
			without++
		}
	}
	if withTarget != seeds || without > seeds/4 {
		t.Errorf("the failure was found with seeds %d of %d with target, %d without", withTarget, seeds, without)
	}
	t.Logf("found with %d seeds of %d with target, %d without", withTarget, seeds, without)
}
