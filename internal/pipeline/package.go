package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// A TargetJob is a fuzz target, its selected entries, and what minimizing
// them learns.
type TargetJob struct {
	target  *Target
	dir     string // the seed corpus directory
	root    string // the module's root: what is written stays inside it
	Entries []corpus.Entry
	listed  bool // the entries were read from dir (not given by import)
	// Pending names the entries not yet in dir: a campaign's new inputs,
	// held in memory until their results are written there.
	Pending map[string]bool
	// Counted, if set, tells the failures the caller has counted already
	// (a campaign's, found before or known): an entry the screening
	// shows failing so is not minimized (StatusCounted).
	Counted func(failure.Signature) bool
	// Slowest, if not 0, is the slowest passing run of the target that
	// the caller has seen (a campaign's fuzz workers): the hang limit of
	// the first runs, before any input has passed here.
	Slowest time.Duration
	// QuietPasses says nothing of the entries that pass, not even how
	// many (a campaign's replays of a seed corpus for its failures).
	QuietPasses bool
	tracked     tracking // entries git tracks: regression tests somebody kept
	// writeErr says why dir cannot be written, found before any search.
	writeErr error
	runners  []*testbin.Runner // the target's in the test binary, -p of them
	probe    *testbin.Runner   // one more, in a directory of its own, for the zero inputs (see replay)
	build    *testbin.Build    // the go test run that checks what is written
	report   func(Result)      // what happens to each entry's result
	// others holds the other failures met while shrinking, each with the
	// smallest candidate that showed it; seen, the failures of the entries.
	others shrink.Pool
	seen   map[failure.Signature]bool
	// shaper gives the target's failures their identity texts: one for
	// the replays, the searches and go test's checks of all its entries.
	shaper failure.Shaper
	// deadline is when the target's time is up: -timeout for each of its
	// entries, from its first. The other failures share what the entries
	// left (others.go), so that a run on n entries takes about n times
	// -timeout, however many other failures they meet.
	deadline time.Time
	search   SearchOptions // how its entries are searched
	write    WriteOptions  // how their results are written
}

// Minimizing is what the minimize stage serves: the search of each entry
// and the writing of its result, as the command's flags have them.
type Minimizing struct {
	Search SearchOptions
	Write  WriteOptions
}

func NewTargetJob(p *Package, t *Target) *TargetJob {
	return &TargetJob{target: t, dir: corpus.SeedCorpus(p.Dir, t.Name), root: p.ModuleDir, seen: map[failure.Signature]bool{}}
}

// Minimize is the command itself: it minimizes the failing entries of the
// targets m selects, as mz says, after a run of go test -fuzz on the
// target the regexp fuzz matches, for fuzztime, if fuzz is set.
func (c *Run) Minimize(ctx context.Context, patterns []string, m *Matcher, mz Minimizing, fuzz, fuzztime string) int {
	return c.WithPackages(ctx, patterns, WritesSeeds, m, func(pkgs []*Package) {
		var fuzzFound []string // -fuzz: the failing entries go test -fuzz wrote
		if fuzz != "" {
			var err error
			fuzzFound, m, err = c.fuzzFirst(ctx, pkgs, fuzz, fuzztime)
			if err != nil {
				c.Rep.Errorf("%v", err)
				if _, ok := err.(usageError); ok {
					c.Fail(ExitUsage)
				} else {
					c.Fail(ExitFailure)
				}
				return
			}
			if len(fuzzFound) == 0 {
				return
			}
		}
		saved := c.eachPackage(ctx, pkgs, func(ctx context.Context, p *Package, tmp string) string {
			return c.minimizePackage(ctx, p, tmp, m, mz)
		})
		if ctx.Err() == nil && len(fuzzFound) > 0 {
			// A new failure is a failure of the run, as it is for go test
			// -fuzz: the job goes red, with the entries to commit.
			c.Rep.Errorf("go test -fuzz found %s; the entries to commit: %s", Plural(len(fuzzFound), "new failure", "new failures"), strings.Join(c.holding(fuzzFound), ", "))
			c.Fail(ExitFailure)
		} else {
			c.ended(ctx, saved, m)
		}
		c.Rep.summary()
	})
}

// minimizePackage builds the package's test binary once and minimizes the
// failing entries of its targets that m selects, as mz says. tmp is a
// directory for its files, which the caller removes.
func (c *Run) minimizePackage(ctx context.Context, p *Package, tmp string, m *Matcher, mz Minimizing) (saved string) {
	jobs := c.SelectEntries(ctx, p, Selecting{Purpose: ForMinimize, dryRun: mz.Write.DryRun, tracked: mz.Search.Tracked}, m)
	if len(jobs) == 0 {
		if len(p.Targets) == 0 {
			c.Rep.Infof("?   \t%s\t[no fuzz targets]", p.ImportPath)
		}
		return
	}
	b, ok := c.Build(ctx, p, tmp, TargetNames(jobs))
	if !ok {
		return
	}
	return c.MinimizeJobs(ctx, p, b, jobs, mz, c.Report)
}

// MinimizeJobs minimizes the entries of jobs, targets of p, with the test
// binary b, as mz says, and passes what became of each entry to report as soon as it
// is final: written and checked by go test, or not (nothing for the entry
// an interrupt stopped). It ends b's go test run.
func (c *Run) MinimizeJobs(ctx context.Context, p *Package, b *built, jobs []*TargetJob, mz Minimizing, report func(Result)) (saved string) {
	defer b.finish(ctx)
	for i, tj := range jobs {
		if ctx.Err() != nil {
			break
		}
		runners := make([]*testbin.Runner, c.Procs+1)
		var err error
		for k := range runners {
			if runners[k], err = b.bin.Runner(tj.target.Name, filepath.Join(b.dir, fmt.Sprintf("work%d-%d", i, k))); err != nil {
				break
			}
		}
		if err != nil {
			c.Rep.Errorf("%s: %v", p.ImportPath, err)
			c.Fail(ExitFailure)
			break
		}
		for _, r := range runners {
			r.LearnSlowest(tj.Slowest)
		}
		tj.runners, tj.probe, tj.build, tj.report = runners[:c.Procs], runners[c.Procs], b.s, report
		tj.search, tj.write = mz.Search, mz.Write
		tj.shaper.Templates = c.templatesOf(ctx, p)
		saved = c.minimizeTarget(ctx, p, tj)
		for _, r := range runners {
			r.Close()
		}
	}
	return saved
}

// minimizeTarget minimizes the entries of one target, then the other
// failures met on the way, as one transaction of its corpus directory: it
// holds the directory's lock from the first replay until the last
// original is removed (or the run is abandoned), and reports each entry
// as it is done.
func (c *Run) minimizeTarget(ctx context.Context, p *Package, tj *TargetJob) (saved string) {
	unlock, err := lockDir(tj.dir)
	if err != nil {
		c.Rep.Errorf("%s: %v; its entries were left alone", c.Rel(tj.dir), err)
		c.Fail(ExitFailure)
		return
	}
	defer unlock()
	tj.Entries = c.relist(tj)
	tj.deadline = time.Now().Add(tj.search.Timeout * time.Duration(max(1, len(tj.Entries))))
	if d := tj.search.Deadline; !d.IsZero() && d.Before(tj.deadline) {
		tj.deadline = d
	}
	if !tj.write.DryRun {
		if err := writable(tj.dir); err != nil {
			tj.writeErr = fmt.Errorf("%s cannot be written: %w", c.Rel(tj.dir), err)
		}
	}
	screened := c.screen(ctx, tj)
	kept := map[failure.Signature]string{} // the entry of each failure the run has kept
	// Past quietAfter of each, passing entries, and those of each failure
	// removed for its kept entry, are counted rather than shown.
	shownPasses, shownSame := 0, map[string]int{}
	quietPasses, quietSame := 0, map[string]int{}
	defer func() { c.quietSummary(tj, quietPasses, quietSame) }()
	for _, e := range screenOrder(tj.Entries, screened) {
		j := tj.job(p, e)
		sig, settled := screened[e.Name]
		var res Result
		switch {
		case settled && !sig.Failed():
			res = newResult(j)
			res.Status = StatusPasses
			switch shownPasses++; {
			case tj.QuietPasses:
				res.quiet = true
			case shownPasses > quietAfter:
				res.quiet, quietPasses = true, quietPasses+1
			}
		case settled && sig.Failed() && tj.Counted != nil && tj.Counted(sig):
			res = newResult(j)
			res.Status, res.Signature = StatusCounted, sig
		case settled && kept[sig] != "" && (tj.search.Tracked || !tj.tracked.has(e.Name)):
			res = c.sameFailure(j, sig, kept[sig])
			if res.Status == StatusSame && j.onDisk() { // a campaign's pending input: its repeat, counted there
				if shownSame[res.Path]++; shownSame[res.Path] > quietAfter {
					res.quiet, quietSame[res.Path] = true, quietSame[res.Path]+1
				}
			}
		default:
			res = c.minimizeEntry(ctx, j)
			if name, ok := holds(res, e); ok && settled && res.Signature == sig {
				kept[sig] = name
			}
		}
		if !tj.done(ctx, res) {
			return res.saved
		}
	}
	return c.minimizeOthers(ctx, p, tj)
}

// job is the entry e of the target on its way through the pipeline.
func (tj *TargetJob) job(p *Package, e corpus.Entry) *entryJob {
	return &entryJob{pkg: p, tj: tj, target: tj.target, entry: e, runner: tj.runners[0], runners: tj.runners, probe: tj.probe, dryRun: tj.write.DryRun}
}

// done reports an entry's result, and whether to go on: not once an
// interrupt stopped the entry, which is then left as it was, or replaced
// by the smallest value found, verified, which is reported, as is an
// other failure's written that way.
func (tj *TargetJob) done(ctx context.Context, res Result) bool {
	if ctx.Err() != nil {
		if res.Status == statusMinimized || res.Status == statusDuplicate || res.Status == statusFound {
			tj.report(res)
		}
		return false
	}
	tj.report(res)
	return true
}

// Report reports an entry's result and raises the exit code for it.
func (c *Run) Report(res Result) {
	if res.Status == statusSeen {
		return
	}
	c.Rep.result(res)
	if res.Status.Failure() || res.Error != "" {
		c.Fail(ExitFailure)
	}
}

// relist returns tj's entries as its directory holds them now that its
// lock is held: between the listing and the lock, another run may have
// rewritten or removed some.
func (c *Run) relist(tj *TargetJob) []corpus.Entry {
	if !tj.listed {
		return tj.Entries
	}
	now, err := corpus.Read(tj.dir)
	if err != nil {
		return tj.Entries // the replays will say what is wrong
	}
	var kept []corpus.Entry
	for _, e := range tj.Entries {
		i := slices.IndexFunc(now, func(n corpus.Entry) bool { return n.Name == e.Name })
		if tj.Pending[e.Name] {
			kept = append(kept, e) // not a file yet
			continue
		}
		if i < 0 {
			c.Rep.Infof("%s/%s: removed by another fuzzmin after this one listed it; skipped", tj.target.Name, e.Name)
			continue
		}
		kept = append(kept, now[i])
	}
	return kept
}

// lockDir locks the corpus directory dir, so that two runs of fuzzmin never
// rewrite one corpus at once (a missing directory needs no lock).
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if err := lockFile(f, false); err != nil {
		f.Close()
		if errors.Is(err, errNoLocks) {
			return func() {}, nil
		}
		return nil, errors.New("another fuzzmin is minimizing this corpus")
	}
	return func() { f.Close() }, nil
}
