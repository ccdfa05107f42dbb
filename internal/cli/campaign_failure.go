package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// leaveOutSeed takes a seed entry that failed out of t's slices: the
// fuzzer stops on it before it fuzzes (go test reports it, and fuzzmin
// check). An f.Add seed cannot be left out: the target is done.
func (c *command) leaveOutSeed(t *campaignTarget, out testbin.FuzzOutcome) {
	path := filepath.Join(t.work, corpus.SeedDir, t.target.Name, out.Seed)
	if strings.HasPrefix(out.Seed, "seed#") || os.Remove(path) != nil {
		t.done = fmt.Sprintf("its seed %s fails, so the fuzzer never starts:\n%s", out.Seed, out.Output)
		c.rep.errorf("%s: %s", t.name(), t.done)
		c.fail(exitFailure)
		return
	}
	t.left = append(t.left, out.Seed)
	c.rep.verbosef("%s: its seed entry %s fails; fuzzing without it (fuzzmin check reports it)", t.name(), out.Seed)
}

// campaignFailure writes the input a slice of t stopped on into t's seed
// corpus and minimizes it there, with what else minimizing it finds, and
// counts each failure: listed as known (its entry is removed), found before
// in this run or failing a seed entry already (a repeat: its entry is
// removed), or new. The seed entries left out of t's slices are minimized
// with it, as the command minimizes a corpus: one of them that fails the
// same way keeps the failure, and the new entry goes as the same.
func (c *command) campaignFailure(ctx context.Context, t *campaignTarget, data []byte, found map[failure.Signature]*campaignFinding) (fresh bool) {
	dir := corpus.SeedCorpus(t.pkg.Dir, t.target.Name)
	// An input the seed corpus holds already (a failure found before,
	// found again as it was) is counted as any other, and stays.
	existing := filepath.Join(dir, corpus.Name(data))
	if _, err := os.Stat(existing); err != nil {
		existing = ""
	}
	var made []string
	for d := dir; d != t.pkg.Dir; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append(made, d)
	}
	if len(made) > len(t.made) {
		t.made = made
	}
	known, err := c.knownOf(t.pkg.ModuleDir) // read before the run: see readKnownFiles
	var path string
	if err == nil {
		path, err = corpus.WriteFile(dir, data)
	}
	if err == nil {
		for _, res := range c.minimizeFound(ctx, t, filepath.Base(path)) {
			fresh = c.countFailure(t, res, known, found, existing) || fresh
		}
		if _, err := os.Stat(path); err == nil && ctx.Err() != nil && existing == "" {
			t.raw = append(t.raw, path) // interrupted before its result replaced it
		}
		return fresh
	}
	c.rep.errorf("%s: %v", t.name(), err)
	c.fail(exitFailure)
	return false
}

// minimizeFound minimizes the entry name of t, which a slice stopped on,
// and t's failing seed entries, and returns what became of each.
func (c *command) minimizeFound(ctx context.Context, t *campaignTarget, name string) []result {
	names := []string{regexp.QuoteMeta(name)}
	for _, n := range t.left {
		names = append(names, regexp.QuoteMeta(n))
	}
	saved := c.match
	c.match = &matcher{target: regexp.MustCompile("^" + regexp.QuoteMeta(t.target.Name) + "$"), entry: regexp.MustCompile("^(" + strings.Join(names, "|") + ")$")}
	defer func() { c.match = saved }()
	jobs := c.selectEntries(ctx, t.pkg, forMinimize)
	if len(jobs) == 0 {
		return nil
	}
	tmp, err := os.MkdirTemp(c.disk.path, "found")
	if err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitFailure)
		return nil
	}
	defer os.RemoveAll(tmp)
	b, ok := c.build(ctx, t.pkg, tmp, targetNames(jobs))
	if !ok {
		return nil
	}
	var results []result
	c.minimizeJobs(ctx, t.pkg, b, jobs, func(res result) {
		if e := strings.TrimPrefix(res.Test, t.target.Name+"/"); e != name && !res.found {
			// A failing seed entry's: reported if it changed, as the
			// command reports it.
			if res.Path != "" || res.Status.failure() {
				c.report(res)
			}
			if res.Status == statusPasses {
				c.passedLater(t, filepath.Join(corpus.SeedCorpus(t.pkg.Dir, t.target.Name), e))
			}
			if i := slices.Index(t.left, e); i >= 0 && res.Path != "" {
				t.left[i] = filepath.Base(res.Path) // minimized: its result fails as it did
			}
			return
		}
		results = append(results, res)
	})
	return results
}

// countFailure counts the failure of res, the result of an input a slice
// of t stopped on (or of another failure met minimizing it), and reports
// whether it is new. The entry existing, if not "", was there before the
// stop: it is not removed.
func (c *command) countFailure(t *campaignTarget, res result, known *knownFailures, found map[failure.Signature]*campaignFinding, existing string) bool {
	kept := c.abs(res.Path)
	if kept == "" && (res.Status == statusMinimal || res.Status == statusStopped) {
		kept = filepath.Join(corpus.SeedCorpus(t.pkg.Dir, t.target.Name), strings.TrimPrefix(res.Test, t.target.Name+"/"))
	}
	sig := res.Signature
	switch f := found[sig]; {
	case !sig.Failed():
		c.report(res) // it passes, or is flaky: as the command reports it
	case known.has(sig):
		t.known++
		if res.Status != statusSame && kept != existing {
			c.forget(t, kept)
		}
		if t.once(sig) {
			c.rep.infof("%s: stopped on a known failure (%s): %v", t.name(), c.rel(known.path), sig)
		}
	case res.Status == statusSame:
		t.repeats++
		if t.once(sig) {
			c.rep.infof("%s: stopped on %v, which seed entry %s fails with too", t.name(), sig, c.rel(res.Path))
		}
	case f != nil:
		f.count++
		t.repeats++
		if kept != existing && kept != f.path {
			c.forget(t, kept)
		}
		if t.once(sig) {
			c.rep.infof("%s: stopped on %v again, found before in %s: %s", t.name(), sig, f.t.target.Name, c.rel(f.path))
		}
	case kept == "":
		c.report(res)
	default:
		found[sig] = &campaignFinding{t: t, path: kept, count: 1}
		t.fresh = append(t.fresh, kept)
		c.report(res)
		return true
	}
	return false
}

// passedLater takes an entry that failed a turn and passed a later replay
// out of t's new failures, if it is one: its failure does not repeat (it
// depends on the time, on state), so it is flaky, not a bug to commit.
func (c *command) passedLater(t *campaignTarget, path string) {
	i := slices.Index(t.fresh, path)
	if i < 0 {
		return
	}
	t.fresh = slices.Delete(t.fresh, i, i+1)
	t.flaky = append(t.flaky, path)
	c.rep.infof("%s: %s failed when the fuzzer found it and passes now: flaky, not counted as a new failure (fuzzmin -flaky -run=%s %s minimizes it as it fails)",
		t.name(), c.rel(path), t.target.Name, t.pkg.ImportPath)
}

// forget removes an entry the campaign wrote into t's seed corpus for a
// failure it counts elsewhere, and the directories writing it made, if
// they are empty again.
func (c *command) forget(t *campaignTarget, path string) {
	if err := corpus.Remove(path); err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitFailure)
	}
	delete(c.written, path)
	for _, d := range t.made {
		os.Remove(d) // only if empty
	}
}
