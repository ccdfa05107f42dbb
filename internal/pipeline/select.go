package pipeline

import (
	"context"
	"errors"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// What a command selects entries for (SelectEntries), and how.
type Selecting struct {
	Purpose
	seed     bool // forCmin: the seed corpus too (cmin -seed)
	dryRun   bool // nothing is written: what killed runs left stays
	tracked  bool // the entries git tracks are minimized too: git is not asked
	searches bool // forCheck: failing entries are searched (check -minimal), so git is asked
}

// A Purpose is what entries are selected for.
type Purpose int

const (
	ForMinimize Purpose = iota // to minimize: orphans are noted, what killed runs left is removed
	forCheck                   // to replay: orphans are findings (check.go), nothing is written
	ForCmin                    // the generated corpora: a job per target, the seed corpus only with seed
)

// SelectEntries returns the targets of p that m selects, each with its
// selected entries, and reports seed corpora without a target and targets
// without entries.
func (c *Run) SelectEntries(ctx context.Context, p *Package, sel Selecting, m *Matcher) []*TargetJob {
	orphans, err := c.orphans(p, m)
	if err != nil {
		c.Rep.Errorf("%s: %v", p.ImportPath, err)
		c.Fail(ExitFailure)
		return nil
	}
	if sel.Purpose != forCheck { // check reports them as findings
		for _, t := range orphans {
			c.Rep.Infof("%s: %s has no fuzz target %s; left alone", p.ImportPath, c.Rel(corpus.SeedCorpus(p.Dir, t)), t)
		}
	}
	c.noteUnbuilt(p, m)
	var jobs []*TargetJob
	for _, t := range p.Targets {
		if !m.MatchTarget(t.Name) {
			continue
		}
		if sel.Purpose == ForCmin && !sel.seed {
			// The generated corpus only: the seed corpus is not read.
			jobs = append(jobs, NewTargetJob(p, t))
			continue
		}
		tj := NewTargetJob(p, t)
		if sel.Purpose != forCheck && !sel.dryRun {
			// What a killed run of fuzzmin left is not an entry.
			if err := corpus.RemoveTemporary(tj.dir); err != nil {
				c.Rep.Verbosef("%s: removing temporary files: %v", c.Rel(tj.dir), err)
			}
		}
		all, err := corpus.Read(tj.dir)
		tj.listed = true
		if err == nil && len(all) > 0 && !sel.tracked && (sel.Purpose != forCheck || sel.searches) {
			tj.tracked = c.trackedFiles(ctx, tj.dir)
		}
		if err != nil {
			c.Rep.Errorf("%s: %v", t.Name, err)
			c.Fail(ExitFailure)
			continue
		}
		for _, e := range all {
			switch {
			case !m.matchEntry(e.Name) || !m.Shard.Has(p.ImportPath, t.Name, e.Name):
			case errors.Is(e.Err, corpus.ErrIsDir):
				c.Rep.Infof("%s/%s: skipped: %s", t.Name, e.Name, corpus.ErrIsDir)
			default:
				tj.Entries = append(tj.Entries, e)
			}
		}
		c.matched += len(tj.Entries)
		switch {
		case len(tj.Entries) > 0 || sel.Purpose == ForCmin:
			jobs = append(jobs, tj)
		case len(all) > 0 && m.Shard.N > 1:
			// Another shard's work.
		case len(all) > 0 && m.entry != nil:
			c.Rep.Infof("%s %s: no entry of %s matches -run=%s", p.ImportPath, t.Name, c.Rel(tj.dir), m.Pattern)
		default:
			c.Rep.Infof("%s %s: no corpus entries in %s", p.ImportPath, t.Name, c.Rel(tj.dir))
		}
	}
	return jobs
}

// noteUnbuilt says which seed corpus directories of p that m selects
// belong to fuzz targets the build constraints leave out here: they are
// not orphans, and nothing is done with their entries.
func (c *Run) noteUnbuilt(p *Package, m *Matcher) {
	if len(p.Unbuilt) == 0 {
		return
	}
	seedTargets, _ := corpus.Targets(p.Dir)
	for _, t := range seedTargets {
		if file := p.Unbuilt[t]; file != "" && m.MatchTarget(t) {
			c.Rep.Infof("%s: %s is not built here: %s has build constraints this build does not meet (a GOOS, GOARCH or tag); its entries in %s are left alone",
				p.ImportPath, t, file, c.Rel(corpus.SeedCorpus(p.Dir, t)))
		}
	}
}

// orphans returns the names of the seed corpus directories of p that m
// selects and whose fuzz target is gone (renamed or removed): go test never
// replays their entries. testdata/fuzz/TestXxx holds the failures
// fuzzshrink.Check saved for the test TestXxx: no fuzz target's, and not
// an orphan.
func (c *Run) orphans(p *Package, m *Matcher) ([]string, error) {
	seedTargets, err := corpus.Targets(p.Dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range seedTargets {
		if p.Target(t) == nil && p.Unbuilt[t] == "" && m.MatchTarget(t) && !strings.HasPrefix(t, "Test") {
			out = append(out, t)
		}
	}
	return out, nil
}
