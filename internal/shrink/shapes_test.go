package shrink

import (
	"testing"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shapes"
)

// TestShrink_ShapesStrictlyDecrease: on inputs shaped like real ones, every
// accepted candidate is strictly smaller than the best before it, and a
// valid UTF-8 string stays valid.
func TestShrink_ShapesStrictlyDecrease(t *testing.T) {
	t.Parallel()
	for i, s := range shapes.All() {
		fails := func(args []any) bool { return s.Check(args[0]) == s.Sig }
		checkStrictlyDecreasing(t, i, []any{s.Input}, fails)
		if str, ok := s.Input.(string); ok && utf8.ValidString(str) {
			r := Minimize(str, func(c string) bool {
				if !utf8.ValidString(c) {
					t.Fatalf("%s: candidate %q is not valid UTF-8", s.Name, c)
				}
				return fails([]any{c})
			})
			if s.Check(r) != s.Sig {
				t.Errorf("%s: the result %q does not fail", s.Name, r)
			}
		}
	}
}
