package fuzzshrink

import (
	"regexp"
	"testing"
)

// FuzzStringMatching replays any choice sequence through the generator of
// any expression that parses: it never panics, and the same sequence draws
// the same string, valid or not, every time (shrinking replays sequences).
// Whether the string matches the generator checks itself.
func FuzzStringMatching(f *testing.F) {
	f.Add(`[a-z]+@[a-z]+\.(com|org)`, []byte{1, 3, 0, 4, 1})
	f.Add(`(?i)x{2,4}[^a-c]\d*$`, []byte{0, 1, 1, 0xE1, 0xFF, 0x10})
	f.Add(`\bfoo|bar\b|^.?$`, []byte{2, 1, 0x80})
	f.Fuzz(func(t *testing.T, expr string, data []byte) {
		if _, err := regexp.Compile(expr); err != nil {
			return // StringMatching panics, as documented
		}
		g := StringMatching(expr)
		draw := func() (string, *T) {
			var s string
			tt := runChoices(nil, func(t *T) { s = g.Draw(t, "s") }, data, false, nil)
			if tt.panicValue != nil {
				t.Fatalf("%q on %q: panic %v", expr, data, tt.panicValue)
			}
			return s, tt
		}
		s1, t1 := draw()
		s2, t2 := draw()
		if s1 != s2 || t1.invalid != t2.invalid {
			t.Fatalf("%q on %q drew %q (invalid: %q), then %q (invalid: %q)", expr, data, s1, t1.invalid, s2, t2.invalid)
		}
	})
}

// TestStringMatching_Quoted: text quoted with \Q, to its end or to \E,
// draws as it is.
func TestStringMatching_Quoted(t *testing.T) {
	for expr, want := range map[string]string{`v\Q1.2`: "v1.2", `\Q(a)\E+`: "(a)", `\Q`: ""} {
		var s string
		tt := runChoices(nil, func(t *T) { s = StringMatching(expr).Draw(t, "s") }, nil, false, nil)
		if s != want || tt.invalid != "" || tt.panicValue != nil {
			t.Errorf("StringMatching(%q) drew %q (invalid: %q, panic: %v), want %q", expr, s, tt.invalid, tt.panicValue, want)
		}
	}
}
