package fuzzshrink_test

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// TestFinding: within the default number of cases, generation finds the
// failures that need a long sorted list, a rare rune repeated, or runes
// of rarer planes side by side, most of the time. The test logs how often over 20 seeds.
func TestFinding(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		prop func(t *fuzzshrink.T)
		min  int // seeds of 20 that must find it
	}{
		{"20 or more sorted elements", func(t *fuzzshrink.T) {
			if xs := fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "xs"); len(xs) >= 20 && slices.IsSorted(xs) {
				t.Fatal("long and sorted")
			}
		}, 12},
		{"a rune past the Basic Multilingual Plane, twice in a row", func(t *fuzzshrink.T) {
			s := []rune(fuzzshrink.String().Draw(t, "s"))
			for i := 1; i < len(s); i++ {
				if s[i] > 0xFFFF && s[i] == s[i-1] {
					t.Fatal("a repeated astral rune")
				}
			}
		}, 12},
		{"a letter past the Basic Multilingual Plane", func(t *fuzzshrink.T) {
			for _, r := range fuzzshrink.String().Draw(t, "s") {
				if r > 0xFFFF && unicode.IsLetter(r) {
					t.Fatal("an astral letter")
				}
			}
		}, 20},
		{"a rune of two bytes of UTF-8 next to one of four", func(t *fuzzshrink.T) {
			s := []rune(fuzzshrink.String().Draw(t, "s"))
			for i := 1; i < len(s); i++ {
				if l, r := utf8.RuneLen(s[i-1]), utf8.RuneLen(s[i]); l*r == 8 {
					t.Fatal("two planes side by side")
				}
			}
		}, 12},
	} {
		found := 0
		for seed := uint64(1); seed <= seeds; seed++ {
			if report := check(t, tt.prop, fuzzshrink.Seed(seed)); report != "" {
				found++
			}
		}
		t.Logf("%s: found with %d seeds of %d", tt.name, found, seeds)
		if found < tt.min {
			t.Errorf("%s: found with %d seeds of %d, want %d or more", tt.name, found, seeds, tt.min)
		}
	}
}
