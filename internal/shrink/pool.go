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
// choice sequences all keep theirs in one, and count how many candidates
// showed each failure, for reports. Its zero value is empty and ready.
type Pool struct {
	best  map[failure.Signature][]any
	count map[failure.Signature]int
}

// Add counts a candidate args that failed with sig, and keeps it if it is
// the first or the smallest candidate of sig yet, in the order of
// [Compare].
func (p *Pool) Add(sig failure.Signature, args []any) {
	if p.best == nil {
		p.best, p.count = map[failure.Signature][]any{}, map[failure.Signature]int{}
	}
	p.count[sig]++
	if old, ok := p.best[sig]; !ok || Compare(args, old) < 0 {
		p.best[sig] = args
	}
}

// Args returns the smallest candidate that failed with sig, or nil.
func (p *Pool) Args(sig failure.Signature) []any { return p.best[sig] }

// Count returns how many candidates failed with sig.
func (p *Pool) Count(sig failure.Signature) int { return p.count[sig] }

// Len returns how many failures the pool holds.
func (p *Pool) Len() int { return len(p.best) }

// Sorted returns the failures of the pool, that of the simplest candidate
// first (ties by the failure's text), so that an order of work does not
// depend on the order the failures were met in.
func (p *Pool) Sorted() []failure.Signature {
	sigs := make([]failure.Signature, 0, len(p.best))
	for sig := range p.best {
		sigs = append(sigs, sig)
	}
	slices.SortFunc(sigs, func(a, b failure.Signature) int {
		if c := Compare(p.best[a], p.best[b]); c != 0 {
			return c
		}
		return strings.Compare(a.String(), b.String())
	})
	return sigs
}
