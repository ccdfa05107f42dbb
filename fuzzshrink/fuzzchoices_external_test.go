package fuzzshrink_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// FuzzGenerators is a fuzz target of generators. Under go test it runs its
// seeds, which check the values they were added with: by AddDraws, and as
// a choice sequence that Check or fuzzmin printed.
func FuzzGenerators(f *testing.F) {
	word := fuzzshrink.StringOf(fuzzshrink.RuneFrom([]rune("ab()")))
	// Seeds of AddDraws come after those of f.Add: Fuzz adds them.
	want := map[string]string{
		"seed#0": `n = 2; xs = []int{2, 9}; w = ""; on = false`,
		"seed#1": `n = 3; xs = []int{7, 1, 2}; w = "b(a)"; on = true`,
		"seed#2": `n = 1; xs = []int{0}; w = ""; on = false`, // draws without a value are the simplest
	}
	fuzzshrink.AddDraws(f, "n", 3, "xs", []int{7, 1, 2}, "w", "b(a)", "on", true)
	fuzzshrink.AddDraws(f, "n", int8(1))
	f.Add([]byte("\x01\x02\t\x00\x00"))
	fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
		n := fuzzshrink.IntRange(1, 5).Draw(t, "n")
		xs := fuzzshrink.SliceOfN(fuzzshrink.IntRange(0, 9), n, n).Draw(t, "xs")
		w := word.Draw(t, "w")
		on := fuzzshrink.Bool().Draw(t, "on")
		fuzzshrink.Target(t, float64(n), "n") // nothing under Fuzz
		got := fmt.Sprintf("n = %d; xs = %#v; w = %q; on = %v", n, xs, w, on)
		_, seed, _ := strings.Cut(t.Name(), "/")
		if w, ok := want[seed]; ok && got != w {
			t.Errorf("%s: %s, want %s", seed, got, w)
		}
		if len(xs) != n || strings.Trim(w, "ab()") != "" {
			t.Fatalf("invalid values %s", got)
		}
	})
}
