package shrink

import (
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// A Pool keeps, for each failure other than the one a search keeps, the
// smallest candidate that showed it: minimizing one bug must not erase
// another (Hypothesis keeps such a front of failures for the same reason).
// The command's oracle, fuzzshrink's in-process session and the oracle of
// choice sequences all keep theirs in one.
type Pool map[failure.Signature][]any

// Add keeps args for sig if they are the first or the smallest candidate
// of sig yet, in the order of [Compare].
func (p *Pool) Add(sig failure.Signature, args []any) {
	if *p == nil {
		*p = Pool{}
	}
	if old, ok := (*p)[sig]; !ok || Compare(args, old) < 0 {
		(*p)[sig] = args
	}
}

// Sorted returns the failures of the pool, that of the simplest candidate
// first (ties by the failure's text), so that an order of work does not
// depend on the order the failures were met in.
func (p Pool) Sorted() []failure.Signature {
	sigs := make([]failure.Signature, 0, len(p))
	for sig := range p {
		sigs = append(sigs, sig)
	}
	slices.SortFunc(sigs, func(a, b failure.Signature) int {
		if c := Compare(p[a], p[b]); c != 0 {
			return c
		}
		return strings.Compare(a.String(), b.String())
	})
	return sigs
}
