package fuzzshrink_test

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

var (
	caseRE      = regexp.MustCompile(`from case (\d+) `)
	shrinkRunRE = regexp.MustCompile(`in (\d+) runs, (\d+) accepted`)
)

// BenchmarkAcceptance reports, for each acceptance property, the runs
// Check takes over 20 seeds: the cases generated until the first failure
// (cases/op) and the runs of the shrinker to the exact minimum
// (shrink-runs/op), on average per seed, and the largest number of shrink
// runs of a seed (max-shrink-runs).
func BenchmarkAcceptance(b *testing.B) {
	set := fuzzshrink.SliceOfDistinct(fuzzshrink.IntRange(0, 1000))
	sized := sizedList(fuzzshrink.IntRange(1, 5))
	filtered := fuzzshrink.IntRange(0, 100).Filter(func(n int) bool { return n%7 == 0 })
	ints := fuzzshrink.SliceOf(fuzzshrink.Int())
	for _, bc := range []struct {
		name string
		prop func(*fuzzshrink.T)
		want string
	}{
		{"pair", pairProp, "p = [2]int{0, 6}"},
		{"sized-list", func(t *fuzzshrink.T) {
			if xs := sized.Draw(t, "xs"); sumInts(xs) > 10 {
				t.Fatal("sum")
			}
		}, "xs = []int{2, 9}"},
		{"filter", func(t *fuzzshrink.T) {
			if filtered.Draw(t, "n") > 50 {
				t.Fatal("big")
			}
		}, "n = 56"},
		{"sum", func(t *fuzzshrink.T) {
			if sumInts(ints.Draw(t, "xs")) > 100 {
				t.Fatal("sum")
			}
		}, "xs = []int{101}"},
		{"set", func(t *fuzzshrink.T) {
			if len(set.Draw(t, "xs")) >= 3 {
				t.Fatal("long")
			}
		}, "xs = []int{0, 1, 2}"},
		{"expr", func(t *fuzzshrink.T) { expr.Draw(t, "e").eval() }, "e = Div{L: Lit(0), R: Lit(0)}"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var cases, runs, most, n int
			for b.Loop() {
				for seed := uint64(1); seed <= seeds; seed++ {
					r := &recorder{name: bc.name}
					fuzzshrink.Check(r, bc.prop, fuzzshrink.Seed(seed), fuzzshrink.CorpusDir(""))
					if got, _ := draws(r.report); got != bc.want {
						b.Fatalf("seed %d: %s", seed, got)
					}
					c, _ := strconv.Atoi(caseRE.FindStringSubmatch(r.report)[1])
					s, _ := strconv.Atoi(shrinkRunRE.FindStringSubmatch(r.report)[1])
					cases, runs, most, n = cases+c, runs+s, max(most, s), n+1
				}
			}
			b.ReportMetric(float64(cases)/float64(n), "cases/op")
			b.ReportMetric(float64(runs)/float64(n), "shrink-runs/op")
			b.ReportMetric(float64(most), "max-shrink-runs")
		})
	}
}
