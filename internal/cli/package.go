package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
)

// A targetJob is a fuzz target and its selected entries.
type targetJob struct {
	target  *target
	entries []corpus.Entry
}

// minimizePackage builds the package's test binary once and minimizes the
// selected failing entries of its targets. tmp is a directory for its
// files, which the caller removes.
func (c *command) minimizePackage(ctx context.Context, p *pkg, tmp string) {
	jobs := c.selectEntries(p)
	if len(jobs) == 0 {
		if len(p.Targets) == 0 {
			c.rep.infof("?   \t%s\t[no fuzz targets]", p.ImportPath)
		}
		return
	}
	if !p.Writable && !c.opts.dryRun {
		c.rep.errorf("%s: not in the main module (%s): its testdata cannot be rewritten; run fuzzmin in its own module", p.ImportPath, p.Dir)
		c.fail(exitFailure)
		return
	}
	bin, ok := c.build(ctx, p, tmp)
	if !ok {
		return
	}
	for i, j := range jobs {
		r, err := bin.runner(j.target.Name, filepath.Join(tmp, fmt.Sprint("work", i)))
		if err != nil {
			c.rep.errorf("%s: %v", p.ImportPath, err)
			c.fail(exitFailure)
			return
		}
		defer r.close()
		for _, e := range j.entries {
			if ctx.Err() != nil {
				return
			}
			res := c.minimizeEntry(ctx, &entryJob{pkg: p, target: j.target, entry: e, runner: r})
			if ctx.Err() != nil {
				return
			}
			c.rep.result(res)
			if res.Status.failure() {
				c.fail(exitFailure)
			}
		}
	}
}

// selectEntries returns the targets of p that -run selects, each with its
// selected entries, and reports seed corpora without a target and targets
// without entries.
func (c *command) selectEntries(p *pkg) []targetJob {
	seedTargets, err := corpus.Targets(p.Dir)
	if err != nil {
		c.rep.errorf("%s: %v", p.ImportPath, err)
		c.fail(exitFailure)
		return nil
	}
	for _, t := range seedTargets {
		if p.target(t) == nil && c.match.matchTarget(t) {
			c.rep.infof("%s: %s has no fuzz target %s; left alone", p.ImportPath, c.rel(corpus.SeedCorpus(p.Dir, t)), t)
		}
	}
	var jobs []targetJob
	for _, t := range p.Targets {
		if !c.match.matchTarget(t.Name) {
			continue
		}
		dir := corpus.SeedCorpus(p.Dir, t.Name)
		all, err := corpus.Read(dir)
		if err != nil {
			c.rep.errorf("%s: %v", t.Name, err)
			c.fail(exitFailure)
			continue
		}
		var entries []corpus.Entry
		for _, e := range all {
			switch {
			case !c.match.matchEntry(e.Name):
			case errors.Is(e.Err, corpus.ErrIsDir):
				c.rep.infof("%s/%s: skipped: %s", t.Name, e.Name, corpus.ErrIsDir)
			default:
				entries = append(entries, e)
			}
		}
		c.matched += len(entries)
		if len(entries) == 0 {
			c.rep.infof("%s %s: no corpus entries in %s", p.ImportPath, t.Name, c.rel(dir))
			continue
		}
		jobs = append(jobs, targetJob{t, entries})
	}
	return jobs
}

// build builds the package's test binary in dir.
func (c *command) build(ctx context.Context, p *pkg, dir string) (*testBinary, bool) {
	start := time.Now()
	bin := &testBinary{
		path: filepath.Join(dir, "pkg.test"), modDir: p.ModuleDir, pkgDir: p.Dir,
		goroot: c.goroot, timeout: c.opts.execTimeout, env: c.env,
	}
	args := append([]string{"test", "-c", "-o", bin.path}, c.tagsFlag()...)
	if out, err := c.goCommand(ctx, append(args, p.ImportPath)...).CombinedOutput(); err != nil {
		if ctx.Err() == nil {
			c.rep.buildError(p.ImportPath, strings.TrimSpace(string(out)))
			c.fail(exitUsage)
		}
		return nil, false
	}
	c.rep.built(p.ImportPath, time.Since(start))
	return bin, true
}
