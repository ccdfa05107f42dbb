package pipeline

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// fuzzmin cmin distills the generated corpus of a fuzz target, the inputs go
// test -fuzz keeps in $GOCACHE/fuzz because each covered something new, to
// a small subset that covers as much, as libFuzzer's -merge=1 and afl-cmin
// do: it runs each entry alone with the test binary built for coverage (go
// test -cover, set mode), reads the blocks it covered (-test.coverprofile),
// and keeps, greedily, the entry that covers the most blocks not yet
// covered, the smaller first among equals, until every block covered by any
// entry is. Failing entries are always kept (a regression is never
// dropped), and so is an entry whose coverage could not be read. With
// -seed, the passing entries of the seed corpus that git does not track
// take part too; the committed ones are kept.

// A cminEntry is an entry and what running it covered.
type cminEntry struct {
	corpus.Entry
	blocks []int // the covered blocks, as indices into the target's block names
	keep   bool  // failing, or unmeasured: kept whatever it covers
	seed   bool  // of the seed corpus, not the cache
}

// CminPackage distills the corpora under root, as $GOCACHE/fuzz lays them
// out, of the targets of p that m selects; sel says whether the seed
// corpus takes part and whether anything is removed.
func (c *Run) CminPackage(ctx context.Context, p *Package, tmp string, m *Matcher, root string, sel Selecting) {
	jobs := c.SelectEntries(ctx, p, sel, m)
	if len(jobs) == 0 {
		return
	}
	cov, ok := c.BuildCoverage(ctx, p, tmp)
	if !ok {
		return
	}
	for i, tj := range jobs {
		if ctx.Err() != nil {
			return
		}
		if err := c.cminTarget(ctx, p, tj, cov, filepath.Join(tmp, fmt.Sprint("work", i)), root, m.Shard, sel.dryRun); err != nil {
			if ctx.Err() == nil {
				c.Rep.Errorf("%s %s: %v", p.ImportPath, tj.target.Name, err)
				c.Fail(ExitFailure)
			}
			return
		}
	}
}

// BuildCoverage builds p's test binary for the set coverage of the
// packages of the main module it links, in tmp.
func (c *Run) BuildCoverage(ctx context.Context, p *Package, tmp string) (*CoverBuild, bool) {
	start := time.Now()
	cov := &CoverBuild{bin: &testbin.Binary{Path: filepath.Join(tmp, "cover.test"), ModDir: p.ModuleDir, PkgDir: p.Dir,
		Timeout: c.ExecTimeout, MemLimit: int64(c.MemLimit), Env: c.Env, RAM: c.RAM.Path, Disk: c.Disk.Path, Note: c.VerboseNote}}
	c.Rep.Phase("building " + p.ImportPath + " for coverage")
	var err error
	var stamp string
	if cov.pkgs, err = c.linkedPackages(ctx, p); err == nil {
		goCmd := func(args ...string) *exec.Cmd { return c.GoCommand(ctx, args...) }
		flags := append(c.BuildFlags(), p.Args...)
		cov.bin.Path = c.HoldBinary(p, "cover", append(slices.Clip(flags), cov.pkgs...), cov.bin.Path)
		stamp = BinaryStamp(cov.bin.Path, c.Verbose)
		err = testbin.BuildCover(goCmd, cov.bin.Path, cov.pkgs, flags)
	}
	c.Rep.Phase("")
	if err != nil {
		c.BuildFailed(ctx, p, err)
		return nil, false
	}
	c.Rep.Built(p.ImportPath, time.Since(start), UpToDate(cov.bin.Path, stamp))
	cov.bin.Toolchain = c.Toolchain(cov.bin.Path)
	return cov, true
}

// A CoverBuild is a test binary built for coverage, and the packages whose
// coverage it measures: those of the main module it links.
type CoverBuild struct {
	bin  *testbin.Binary
	pkgs []string
}

// cminTarget distills the corpus of one target under root: the entries of
// the shard sh, removing nothing if dryRun.
func (c *Run) cminTarget(ctx context.Context, p *Package, tj *TargetJob, cov *CoverBuild, work, root string, sh Shard, dryRun bool) error {
	start := time.Now()
	var entries []*cminEntry
	for _, e := range tj.Entries { // the seed corpus, with -seed
		if e.Err == nil {
			entries = append(entries, &cminEntry{Entry: e, seed: true, keep: tj.tracked.has(e.Name)})
		}
	}
	cacheDir := filepath.Join(root, filepath.FromSlash(p.ImportPath), tj.target.Name)
	cached, err := corpus.Read(cacheDir)
	if err != nil {
		return err
	}
	for _, e := range cached {
		if e.Err == nil && sh.Has(p.ImportPath, tj.target.Name, e.Name) {
			entries = append(entries, &cminEntry{Entry: e})
		}
	}
	if len(entries) == 0 {
		c.Rep.Infof("%s %s: no entries in the fuzz cache (%s)", p.ImportPath, tj.target.Name, cacheDir)
		return nil
	}
	names, err := c.measure(ctx, tj.target.Name, cov.bin, work, entries)
	if err != nil {
		return err
	}
	covered := map[int]bool{}
	for _, e := range entries {
		for _, b := range e.blocks {
			covered[b] = true
		}
	}
	if len(covered) == 0 {
		// Nothing to weigh the entries by: distilling would remove every
		// entry that is not kept for another reason.
		return fmt.Errorf("coverage of %s counted no block for any of the %d entries; nothing was removed (does the target reach code of the main module?)",
			packageList(cov.pkgs), len(entries))
	}
	kept := distill(entries)
	removed := 0
	for _, e := range entries {
		if kept[e] || dryRun {
			continue
		}
		confine := root
		if e.seed {
			confine = tj.root
		}
		if err := removeEntry(confine, e.Path); err != nil {
			return err
		}
		removed++
	}
	verb := "removed"
	if dryRun {
		verb, removed = "would remove", len(entries)-len(kept)
	}
	c.Rep.Infof("%s %s: kept %d of %d entries (%d blocks of %d covered, as before, in %s), %s %d, %v",
		p.ImportPath, tj.target.Name, len(kept), len(entries), len(covered), len(names), packageList(cov.pkgs), verb, removed, time.Since(start).Round(time.Millisecond))
	return nil
}

// packageList names the packages coverage was measured in, the first few.
func packageList(pkgs []string) string {
	if len(pkgs) > 3 {
		return fmt.Sprintf("%s and %d more packages", strings.Join(pkgs[:3], ", "), len(pkgs)-3)
	}
	return strings.Join(pkgs, ", ")
}

// CacheRoot is the directory of the generated corpora of all targets.
func (c *Run) CacheRoot() string {
	if c.fuzzCache != "" {
		return c.fuzzCache
	}
	return filepath.Join(c.goenv.cache, "fuzz")
}

// CacheCorpus returns the directory of the generated corpus of a target.
func (c *Run) CacheCorpus(p *Package, target string) string {
	if c.fuzzCache != "" {
		return filepath.Join(c.fuzzCache, filepath.FromSlash(p.ImportPath), target)
	}
	return corpus.CacheCorpus(c.goenv.cache, p.ImportPath, target)
}

// measure runs each entry alone, on -p runners at once, and records the
// blocks it covers. It returns the names of the blocks.
func (c *Run) measure(ctx context.Context, target string, bin *testbin.Binary, work string, entries []*cminEntry) ([]string, error) {
	var mu sync.Mutex
	index := map[string]int{}
	var names []string
	intern := func(b string) int {
		mu.Lock()
		defer mu.Unlock()
		i, ok := index[b]
		if !ok {
			i = len(names)
			index[b] = i
			names = append(names, b)
		}
		return i
	}
	w := max(1, min(c.Procs, len(entries)))
	errs := make([]error, w)
	var wg sync.WaitGroup
	for k := range w {
		r, err := bin.Runner(target, fmt.Sprintf("%s-%d", work, k))
		if err != nil {
			return nil, err
		}
		wg.Go(func() {
			for i := k; i < len(entries) && errs[k] == nil; i += w {
				errs[k] = measureOne(ctx, r, entries[i], intern)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return names, nil
}

// measureOne runs e and records the blocks it covered.
func measureOne(ctx context.Context, r *testbin.Runner, e *cminEntry, intern func(string) int) error {
	shape := func(_ int, _ failure.Signature, msg string) string { return failure.Shape(msg, nil) }
	res, blocks, err := r.Cover(ctx, e.Data, testbin.Judge{Shape: shape})
	switch {
	case err != nil:
		return err
	case len(res.Outcomes) != 1 || res.Outcomes[0].Failed():
		e.keep = true // failing (a regression), or stale: never dropped
		return nil
	case blocks == nil:
		e.keep = true // no coverage to weigh it by
	}
	for _, b := range blocks {
		e.blocks = append(e.blocks, intern(b))
	}
	return nil
}

// distill returns the entries to keep: those that must be kept, then
// greedily the entry that covers the most blocks not yet covered (the
// smaller file, then the lower name, among equals), until all blocks that
// any entry covers are.
func distill(entries []*cminEntry) map[*cminEntry]bool {
	kept := map[*cminEntry]bool{}
	covered := map[int]bool{}
	take := func(e *cminEntry) {
		kept[e] = true
		for _, b := range e.blocks {
			covered[b] = true
		}
	}
	for _, e := range entries {
		if e.keep {
			take(e)
		}
	}
	rest := slices.Clone(entries)
	slices.SortFunc(rest, func(a, b *cminEntry) int {
		if c := cmp.Compare(len(a.Data), len(b.Data)); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	for {
		var best *cminEntry
		gain := 0
		for _, e := range rest {
			if kept[e] {
				continue
			}
			n := 0
			for _, b := range e.blocks {
				if !covered[b] {
					n++
				}
			}
			if n > gain {
				best, gain = e, n
			}
		}
		if best == nil {
			return kept
		}
		take(best)
	}
}

// Cmin is fuzzmin cmin: it distills the generated corpora, under
// fuzzcache if it is set, of the targets m selects; with seed their seed
// corpora too; with dryRun it removes nothing.
func (c *Run) Cmin(ctx context.Context, patterns []string, m *Matcher, fuzzcache string, seed, dryRun bool) int {
	c.fuzzCache = fuzzcache
	return c.WithPackages(ctx, patterns, WritesSeeds|WritesCache, m, func(pkgs []*Package) {
		root := c.CacheRoot()
		c.ended(ctx, c.eachPackage(ctx, pkgs, savesNothing(func(ctx context.Context, p *Package, tmp string) {
			c.CminPackage(ctx, p, tmp, m, root, Selecting{Purpose: ForCmin, seed: seed, dryRun: dryRun})
		})), m)
	})
}
