package pipeline

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Every bug is kept: a candidate that fails another way than the entry
// being minimized is not accepted, but its failure is remembered with the
// smallest candidate that showed it (as Hypothesis keeps a Pareto front of
// distinct failures). Once the target's entries are done, each failure that
// none of them has is minimized against its own signature, verified, and
// written as an entry of its own (-others=write), or only reported
// (-others=report).

// maxOthers bounds the other failures minimized per target: each costs a
// search, and a target that fails in many ways has bigger problems.
const maxOthers = 8

// addTuple adds to p a candidate a session recorded as a tuple.
func addTuple(p *shrink.Pool, sig failure.Signature, tuple []byte) {
	if vals, err := session.ParseTuple(tuple); err == nil {
		p.Add(sig, vals)
	}
}

// minimizeOthers minimizes, checks and writes the other failures met
// while minimizing the entries of tj.
func (c *Run) minimizeOthers(ctx context.Context, p *Package, tj *TargetJob) (saved string) {
	done, over, overRuns, late, lateRuns := 0, 0, 0, 0, 0
	defer func() {
		if over > 0 {
			c.Rep.Infof("%s: %s, met by %s, not written: at most %d are minimized and written a run",
				tj.target.Name, Plural(over, "more other failure", "more other failures"), Plural(overRuns, "candidate", "candidates"), maxOthers)
		}
		if late > 0 {
			c.Rep.Infof("%s: %s, met by %s, not written: the target's time ran out (-timeout=%v for each entry, shared with the failures they meet)",
				tj.target.Name, Plural(late, "other failure", "other failures"), Plural(lateRuns, "candidate", "candidates"), tj.search.Timeout)
		}
	}()
	for ctx.Err() == nil {
		sig, vals, ok := tj.next()
		if !ok {
			break
		}
		tj.seen[sig] = true
		data, err := encoding.Marshal(vals...)
		if err != nil {
			continue
		}
		if done == maxOthers {
			over, overRuns = over+1, overRuns+tj.others.Count(sig)
			continue
		}
		if tj.search.Others == othersReport {
			c.Rep.Infof("%s: also found, not written (-others=report): %v\n\t%s", tj.target.Name, sig, preview(gosyntax.Call("f.Add", vals, "")))
			continue
		}
		left := time.Until(tj.deadline)
		if left < minOtherTime {
			late, lateRuns = late+1, lateRuns+tj.others.Count(sig)
			continue
		}
		done++
		e := corpus.Entry{Name: corpus.Name(data), Path: filepath.Join(tj.dir, corpus.Name(data)), Data: data, Values: vals}
		j := tj.job(p, e)
		j.found, j.budget = sig, left
		if res := c.minimizeEntry(ctx, j); !tj.done(ctx, res) {
			return res.saved
		}
	}
	return ""
}

// minOtherTime is the least time worth minimizing another failure in.
const minOtherTime = time.Second

// next returns the other failure to minimize next: one that no entry of the
// target has, the simplest candidate first, so that the order does not
// depend on the order the failures were met in.
func (tj *TargetJob) next() (failure.Signature, []any, bool) {
	for _, sig := range tj.others.Sorted() {
		if !tj.seen[sig] {
			return sig, tj.others.Args(sig), true
		}
	}
	return failure.Signature{}, nil, false
}
