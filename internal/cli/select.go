package cli

import (
	"context"
	"errors"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// What a command selects entries for (selectEntries), and how.
type selecting struct {
	purpose
	seed     bool // forCmin: the seed corpus too (cmin -seed)
	dryRun   bool // nothing is written: what killed runs left stays
	tracked  bool // the entries git tracks are minimized too: git is not asked
	searches bool // forCheck: failing entries are searched (check -minimal), so git is asked
}

// A purpose is what entries are selected for.
type purpose int

const (
	forMinimize purpose = iota // to minimize: orphans are noted, what killed runs left is removed
	forCheck                   // to replay: orphans are findings (check.go), nothing is written
	forCmin                    // the generated corpora: a job per target, the seed corpus only with seed
)

// selectEntries returns the targets of p that m selects, each with its
// selected entries, and reports seed corpora without a target and targets
// without entries.
func (c *runContext) selectEntries(ctx context.Context, p *pkg, sel selecting, m *matcher) []*targetJob {
	orphans, err := c.orphans(p, m)
	if err != nil {
		c.rep.errorf("%s: %v", p.ImportPath, err)
		c.fail(exitFailure)
		return nil
	}
	if sel.purpose != forCheck { // check reports them as findings
		for _, t := range orphans {
			c.rep.infof("%s: %s has no fuzz target %s; left alone", p.ImportPath, c.rel(corpus.SeedCorpus(p.Dir, t)), t)
		}
	}
	c.noteUnbuilt(p, m)
	var jobs []*targetJob
	for _, t := range p.Targets {
		if !m.matchTarget(t.Name) {
			continue
		}
		if sel.purpose == forCmin && !sel.seed {
			// The generated corpus only: the seed corpus is not read.
			jobs = append(jobs, newTargetJob(p, t))
			continue
		}
		tj := newTargetJob(p, t)
		if sel.purpose != forCheck && !sel.dryRun {
			// What a killed run of fuzzmin left is not an entry.
			if err := corpus.RemoveTemporary(tj.dir); err != nil {
				c.rep.verbosef("%s: removing temporary files: %v", c.rel(tj.dir), err)
			}
		}
		all, err := corpus.Read(tj.dir)
		tj.listed = true
		if err == nil && len(all) > 0 && !sel.tracked && (sel.purpose != forCheck || sel.searches) {
			tj.tracked = c.trackedFiles(ctx, tj.dir)
		}
		if err != nil {
			c.rep.errorf("%s: %v", t.Name, err)
			c.fail(exitFailure)
			continue
		}
		for _, e := range all {
			switch {
			case !m.matchEntry(e.Name) || !m.shard.has(p.ImportPath, t.Name, e.Name):
			case errors.Is(e.Err, corpus.ErrIsDir):
				c.rep.infof("%s/%s: skipped: %s", t.Name, e.Name, corpus.ErrIsDir)
			default:
				tj.entries = append(tj.entries, e)
			}
		}
		c.matched += len(tj.entries)
		switch {
		case len(tj.entries) > 0 || sel.purpose == forCmin:
			jobs = append(jobs, tj)
		case len(all) > 0 && m.shard.n > 1:
			// Another shard's work.
		case len(all) > 0 && m.entry != nil:
			c.rep.infof("%s %s: no entry of %s matches -run=%s", p.ImportPath, t.Name, c.rel(tj.dir), m.pattern)
		default:
			c.rep.infof("%s %s: no corpus entries in %s", p.ImportPath, t.Name, c.rel(tj.dir))
		}
	}
	return jobs
}

// noteUnbuilt says which seed corpus directories of p that m selects
// belong to fuzz targets the build constraints leave out here: they are
// not orphans, and nothing is done with their entries.
func (c *runContext) noteUnbuilt(p *pkg, m *matcher) {
	if len(p.Unbuilt) == 0 {
		return
	}
	seedTargets, _ := corpus.Targets(p.Dir)
	for _, t := range seedTargets {
		if file := p.Unbuilt[t]; file != "" && m.matchTarget(t) {
			c.rep.infof("%s: %s is not built here: %s has build constraints this build does not meet (a GOOS, GOARCH or tag); its entries in %s are left alone",
				p.ImportPath, t, file, c.rel(corpus.SeedCorpus(p.Dir, t)))
		}
	}
}

// orphans returns the names of the seed corpus directories of p that m
// selects and whose fuzz target is gone (renamed or removed): go test never
// replays their entries. testdata/fuzz/TestXxx holds the failures
// fuzzshrink.Check saved for the test TestXxx: no fuzz target's, and not
// an orphan.
func (c *runContext) orphans(p *pkg, m *matcher) ([]string, error) {
	seedTargets, err := corpus.Targets(p.Dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, t := range seedTargets {
		if p.target(t) == nil && p.Unbuilt[t] == "" && m.matchTarget(t) && !strings.HasPrefix(t, "Test") {
			out = append(out, t)
		}
	}
	return out, nil
}
