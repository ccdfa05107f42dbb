package fuzzshrink

import (
	"regexp"
	"testing"
)

// FuzzStringMatching replays any choice sequence through the generator of
// any expression that parses: the string it draws is a full match, or the
// case is not valid; it never panics.
func FuzzStringMatching(f *testing.F) {
	f.Add(`[a-z]+@[a-z]+\.(com|org)`, []byte{1, 3, 0, 4, 1})
	f.Add(`(?i)x{2,4}[^a-c]\d*$`, []byte{0, 1, 1, 0xE1, 0xFF, 0x10})
	f.Add(`\bfoo|bar\b|^.?$`, []byte{2, 1, 0x80})
	f.Fuzz(func(t *testing.T, expr string, data []byte) {
		if _, err := regexp.Compile(expr); err != nil {
			return // StringMatching panics, as documented
		}
		full := regexp.MustCompile(`^(?:` + expr + `)$`)
		g := StringMatching(expr)
		var s string
		tt := runChoices(nil, func(t *T) { s = g.Draw(t, "s") }, data, false, nil)
		switch {
		case tt.panicValue != nil:
			t.Fatalf("%q on %q: panic %v", expr, data, tt.panicValue)
		case tt.invalid == "" && !full.MatchString(s):
			t.Fatalf("%q on %q drew %q, not a full match", expr, data, s)
		}
	})
}
