package fuzzshrink

import (
	"testing"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/fuzzshrink/internal/shapes"
)

// TestShrink_ShapesStrictlyDecrease: on inputs shaped like real ones, every
// accepted candidate is strictly smaller than the best before it, and a
// valid UTF-8 string stays valid.
func TestShrink_ShapesStrictlyDecrease(t *testing.T) {
	t.Parallel()
	for i, s := range shapes.All() {
		fails := func(args []any) bool { return Verdict(s.Verdict(args[0])) == Fail }
		checkStrictlyDecreasing(t, i, []any{s.Input}, fails)
		if str, ok := s.Input.(string); ok && utf8.ValidString(str) {
			r := Minimize(str, func(c string) bool {
				if !utf8.ValidString(c) {
					t.Fatalf("%s: candidate %q is not valid UTF-8", s.Name, c)
				}
				return fails([]any{c})
			})
			if Verdict(s.Verdict(r)) != Fail {
				t.Errorf("%s: the result %q does not fail", s.Name, r)
			}
		}
	}
}
