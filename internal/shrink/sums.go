package shrink

import (
	"iter"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// resealed seals the candidates of a byte-level pass for s: a candidate
// that is s without one stretch has the fields of s's model fixed up and
// its sums sealed, as the fields pass's removals do (a record removed with
// the lengths that count it); any other that differs from s in one
// stretch, with what is before and after it the same, has its sums
// written for the stretch's new length. A removal whose sealed form differs
// from the pass's own is followed by it, so that sealing adds candidates
// to the plain removals and never takes their place.
func resealed[S byteString](seq iter.Seq2[pos, any], s0 S, sums []formats.Sum) iter.Seq2[pos, any] {
	s := []byte(s0)
	var m *model
	seal := func(c []byte) []byte {
		if r, ok := removal(s, c); ok {
			if m == nil {
				m = newModel(s, littleFirst(s), sums)
			}
			if fixed := m.remove([]rng{r}, nil, 0, true, true); fixed != nil {
				m.seal(fixed, []rng{r})
				return fixed
			}
		}
		return formats.Reseal(s, c, sums)
	}
	return func(yield func(pos, any) bool) {
		for p, v := range seq {
			c, ok := v.(S)
			if !ok {
				if !yield(p, v) {
					return
				}
				continue
			}
			// A plain removal follows its sealed form: a stretch whose
			// sums and fields need not change (whole records) keeps the
			// failure as it is, where the fixups may break it.
			sealed := S(seal([]byte(c)))
			plain := len(c) < len(s) && string(sealed) != string(c)
			if !yield(p, sealed) || plain && !yield(p, c) {
				return
			}
		}
	}
}

// removal returns the one stretch of s that c is s without, if it is.
func removal(s, c []byte) (rng, bool) {
	d := len(s) - len(c)
	if d <= 0 {
		return rng{}, false
	}
	pre := 0
	for pre < len(c) && s[pre] == c[pre] {
		pre++
	}
	if string(s[pre+d:]) != string(c[pre:]) {
		return rng{}, false
	}
	return rng{pre, pre + d}, true
}
