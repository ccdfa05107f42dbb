package cli

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
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

// A pool holds, for each other failure, the smallest candidate met.
type pool map[signature][]any

// add remembers vals for sig if it is the smallest candidate of sig yet.
func (p *pool) add(sig signature, vals []any) {
	if *p == nil {
		*p = pool{}
	}
	if old, ok := (*p)[sig]; !ok || shrink.Compare(vals, old) < 0 {
		(*p)[sig] = vals
	}
}

// addTuple adds a candidate a session recorded as a tuple.
func (p *pool) addTuple(sig signature, tuple []byte) {
	if vals, err := session.ParseTuple(tuple); err == nil {
		p.add(sig, vals)
	}
}

// minimizeOthers minimizes, checks and writes the other failures met
// while minimizing the entries of tj.
func (c *command) minimizeOthers(ctx context.Context, p *pkg, tj *targetJob, runners []*testbin.Runner) []result {
	done := 0
	var results []result
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
		if c.opts.others == othersReport || done == maxOthers {
			why := "-others=report"
			if done == maxOthers {
				why = "more than " + plural(maxOthers, "other failure", "other failures") + " in one target"
			}
			c.rep.infof("%s: also found, not written (%s): %v\n\t%s", tj.target.Name, why, sig, preview(gosyntax.Call("f.Add", vals, "")))
			continue
		}
		done++
		e := corpus.Entry{Name: corpus.Name(data), Path: filepath.Join(tj.dir, corpus.Name(data)), Data: data, Values: vals}
		results = append(results, c.minimizeEntry(ctx, &entryJob{pkg: p, tj: tj, target: tj.target, entry: e, runner: runners[0], runners: runners, found: sig}))
	}
	return results
}

// next returns the other failure to minimize next: one that no entry of the
// target has, the simplest candidate first, so that the order does not
// depend on the order the failures were met in.
func (tj *targetJob) next() (signature, []any, bool) {
	var sigs []signature
	for sig := range tj.others {
		if !tj.seen[sig] {
			sigs = append(sigs, sig)
		}
	}
	if len(sigs) == 0 {
		return signature{}, nil, false
	}
	slices.SortFunc(sigs, func(a, b signature) int {
		if c := shrink.Compare(tj.others[a], tj.others[b]); c != 0 {
			return c
		}
		return strings.Compare(a.String(), b.String())
	})
	return sigs[0], tj.others[sigs[0]], true
}
