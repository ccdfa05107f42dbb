package fuzzshrink_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// TestCheck_Explain: Check's report says which draws of the shrunk case do
// not matter, beside the draws, over 20 seeds: the property fails on a
// string with "=" in it, whatever the number and the flag drawn before and
// after it. The budget holds: with ExplainRuns(12) it runs at most 12.
func TestCheck_Explain(t *testing.T) {
	t.Parallel()
	for seed := range uint64(seeds) {
		report := check(t, func(t *fuzzshrink.T) {
			fuzzshrink.IntRange(0, 1000).Draw(t, "n")
			s := fuzzshrink.String().Draw(t, "s")
			fuzzshrink.Bool().Draw(t, "flag")
			if strings.Contains(s, "=") {
				t.Fatalf("%q has an =", s)
			}
		}, fuzzshrink.Seed(seed+1), fuzzshrink.ExplainRuns(100))
		shrunk, _ := draws(report)
		if shrunk != `n = 0; s = "="; flag = false` {
			t.Fatalf("seed %d: shrunk to %s:\n%s", seed, shrunk, report)
		}
		if !strings.Contains(report, "    (n, flag do not matter: 6 other draws each failed the same way; ") {
			t.Errorf("seed %d: the report does not say that n and flag do not matter:\n%s", seed, report)
		}
	}
	report := check(t, func(t *fuzzshrink.T) {
		fuzzshrink.IntRange(0, 1000).Draw(t, "n")
		if strings.Contains(fuzzshrink.String().Draw(t, "s"), "=") {
			t.Fatal("an =")
		}
	}, fuzzshrink.Seed(1), fuzzshrink.ExplainRuns(12))
	if m := regexp.MustCompile(`; (\d+) runs\)`).FindStringSubmatch(report); m == nil {
		t.Errorf("ExplainRuns(12) did not explain:\n%s", report)
	} else if n, _ := strconv.Atoi(m[1]); n > 12 {
		t.Errorf("ExplainRuns(12) ran %d:\n%s", n, report)
	}
	// Draws whose random alternatives may end past their bytes cost a
	// run that tries nothing: the budget holds still.
	for budget := 12; budget <= 24; budget++ {
		for seed := uint64(1); seed <= 5; seed++ {
			report := check(t, func(t *fuzzshrink.T) {
				fuzzshrink.SliceOf(fuzzshrink.String()).Draw(t, "xs")
				fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "ys")
				if strings.Contains(fuzzshrink.String().Draw(t, "s"), "=") {
					t.Fatal("an =")
				}
			}, fuzzshrink.Seed(seed), fuzzshrink.ExplainRuns(budget))
			if m := regexp.MustCompile(`; (\d+) runs\)`).FindStringSubmatch(report); m != nil {
				if n, _ := strconv.Atoi(m[1]); n > budget {
					t.Errorf("ExplainRuns(%d), seed %d: ran %d:\n%s", budget, seed, n, report)
				}
			}
		}
	}
	if report := check(t, func(t *fuzzshrink.T) {
		fuzzshrink.IntRange(0, 1000).Draw(t, "n")
		if strings.Contains(fuzzshrink.String().Draw(t, "s"), "=") {
			t.Fatal("an =")
		}
	}, fuzzshrink.Seed(1), fuzzshrink.ExplainRuns(0)); strings.Contains(report, "not matter") {
		t.Errorf("ExplainRuns(0) explained:\n%s", report)
	}
}

// ExampleCheck_explain shows the line of the report that says which draws
// do not matter.
func ExampleCheck_explain() {
	r := &recorder{name: "TestSum"}
	fuzzshrink.Check(r, func(t *fuzzshrink.T) {
		a := fuzzshrink.IntRange(0, 100).Draw(t, "a")
		fuzzshrink.String().Draw(t, "label")
		if a > 50 {
			t.Fatalf("a = %d", a)
		}
	}, fuzzshrink.CorpusDir(""), fuzzshrink.Seed(1), fuzzshrink.ExplainRuns(100))
	for _, l := range strings.Split(r.report, "\n")[1:4] {
		fmt.Println(l)
	}
	// Output:
	//     a = 51
	//     label = ""
	//     (label does not matter: 6 other draws each failed the same way; 14 runs)
}
