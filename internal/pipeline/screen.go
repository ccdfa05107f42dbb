package pipeline

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// A target's corpus may hold thousands of entries: go test -fuzz run again
// and again leaves many inputs of one bug, and a project's corpus many
// that pass. Each entry's own replay (replay.go) runs it in fresh
// processes, eight times, to tell a flaky failure; for thousands that is
// minutes where go test takes a second. So the entries are screened first,
// all of them in as few processes as go test runs them (a process ends
// only at a crash), and those that failed once more:
//
//   - an entry that passed passes, as go test says, and is left alone
//     without more runs (a failure that shows only on later runs of an
//     entry, which the replay of a lone entry would find, is not looked
//     for among many);
//   - the entries that failed the same way twice are grouped by identity:
//     the smallest of each group goes through its replay and its search
//     first, and once its result is written and checked (or it was
//     minimal already), the rest of the group are the same bug: each is
//     removed, as the result of a search would have replaced it, without a
//     search of its own;
//   - an entry of a failure its caller counted already (a campaign's
//     failure found before, or known: TargetJob.Counted) has no search,
//     and needs one run to tell; a campaign's lone entry is screened
//     for this alone;
//   - an entry whose two runs disagree, or that the toolchain refused,
//     goes the way of any entry, which says what is wrong with it.
//
// Entries a user may have committed (tracked) are never removed this way.
// Past quietAfter of a kind, the report counts entries rather than showing
// each.

// quietAfter is how many passing entries, and how many removed as the same
// bug, of a target the report shows one by one (-v shows all).
const quietAfter = 3

// screen replays the valid entries of tj as described above and returns
// how each that settled fails (the zero signature if it passes); it
// returns nil if the replays went wrong, and each entry then goes its own
// way.
func (c *Run) screen(ctx context.Context, tj *TargetJob) map[string]failure.Signature {
	valid := validEntries(tj.Entries)
	counted := func(sig failure.Signature) bool { return sig.Failed() && tj.Counted != nil && tj.Counted(sig) }
	lone := len(valid) == 1 // screened only to be found counted: one run
	if len(valid) == 0 || lone && tj.Counted == nil {
		return nil // nothing to gain
	}
	first := c.replayAll(ctx, tj.runners[0], valid, &tj.shaper)
	if first.err != nil {
		return nil
	}
	var failed []corpus.Entry
	for _, e := range valid {
		if sig, ok := first.sigs[e.Name]; ok && sig.Failed() && !counted(sig) && !lone {
			failed = append(failed, e)
		}
	}
	again := c.replayAll(ctx, tj.runners[0], failed, &tj.shaper)
	if again.err != nil {
		return nil
	}
	for _, r := range slices.Concat(tj.runners[1:], []*testbin.Runner{tj.probe}) {
		r.Learn(tj.runners[0]) // how long passing entries run: the hang limit
	}
	settled := map[string]failure.Signature{}
	for _, e := range valid {
		sig, ok := first.sigs[e.Name]
		switch {
		case !ok:
			continue // refused: stale
		case counted(sig):
			// Once is enough: it is not searched either way.
		case lone:
			continue // its own replay tells
		default:
			if sig2, ok := again.sigs[e.Name]; sig.Failed() && (!ok || sig2 != sig) {
				continue // flaky, or did not run: its own replay tells
			}
		}
		settled[e.Name] = sig
	}
	return settled
}

// screenOrder orders the entries for minimizeTarget: by name, but each
// group of entries failing the same way (by screened) starts with its
// smallest, where the group is first met.
func screenOrder(entries []corpus.Entry, screened map[string]failure.Signature) []corpus.Entry {
	lead := map[failure.Signature]int{}
	for i, e := range entries {
		if sig, ok := screened[e.Name]; ok && sig.Failed() {
			if k, seen := lead[sig]; !seen || len(e.Data) < len(entries[k].Data) {
				lead[sig] = i
			}
		}
	}
	out := make([]corpus.Entry, 0, len(entries))
	done := make([]bool, len(entries))
	for i, e := range entries {
		if sig, ok := screened[e.Name]; ok && sig.Failed() {
			if k := lead[sig]; !done[k] {
				out, done[k] = append(out, entries[k]), true
			}
		}
		if !done[i] {
			out, done[i] = append(out, e), true
		}
	}
	return out
}

// holds reports whether the result leaves, in the corpus, a verified entry
// of the failure, as its name: the result written, or the entry itself.
func holds(res Result, e corpus.Entry) (string, bool) {
	switch res.Status {
	case statusMinimized, statusDuplicate, statusWould:
		return filepath.Base(res.Path), true
	case StatusMinimal:
		return e.Name, true
	}
	return "", false
}

// sameFailure is the result of an entry that fails as the entry keptName
// of the target, which the run has kept, does: it is removed, unless -keep
// or -n say not to.
func (c *Run) sameFailure(j *entryJob, sig failure.Signature, keptName string) Result {
	res := newResult(j)
	res.Status, res.Signature, res.Path = StatusSame, sig, j.target.Name+"/"+keptName
	switch {
	case j.tj.write.DryRun:
		res.Note = "would be removed (-n: nothing removed)"
	case j.tj.write.Keep:
		res.Note = "kept (-keep)"
	case !j.onDisk():
		res.Note = "not written"
	default:
		if err := removeEntry(j.tj.root, j.entry.Path); err != nil {
			res.Status, res.Error = statusFailed, fmt.Sprintf("it fails as %s does, but removing it failed: %v", res.Path, c.RelErr(err))
			return res
		}
		res.Note, res.Removed = "removed", c.Rel(j.entry.Path)
	}
	return res
}

// quietSummary reports the results of tj that were counted, not shown.
func (c *Run) quietSummary(tj *TargetJob, passes int, same map[string]int) {
	if c.Verbose {
		return // -v showed each
	}
	if passes > 0 {
		c.Rep.Infof("%s: %s; left alone", tj.target.Name, Plural(passes, "more entry passes", "more entries pass"))
	}
	for _, kept := range slices.Sorted(maps.Keys(same)) {
		n := same[kept]
		verb := "removed"
		switch {
		case tj.write.DryRun:
			verb = "would be removed (-n: nothing removed)"
		case tj.write.Keep:
			verb = "kept (-keep)"
		}
		c.Rep.Infof("%s: %s as %s does: %s", tj.target.Name, Plural(n, "more entry fails", "more entries fail"), kept, verb)
	}
}
