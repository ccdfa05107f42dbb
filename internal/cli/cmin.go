package cli

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
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

// cminPackage distills the corpora of the selected targets of p.
func (c *command) cminPackage(ctx context.Context, p *pkg, tmp string) {
	jobs := c.selectEntries(ctx, p)
	if len(jobs) == 0 {
		return
	}
	start := time.Now()
	bin := &testBinary{path: filepath.Join(tmp, "cover.test"), modDir: p.ModuleDir, pkgDir: p.Dir,
		goroot: c.goroot, timeout: c.opts.execTimeout, env: c.env, ram: c.ram.path}
	args := append([]string{"test", "-c", "-cover", "-covermode=set", "-coverpkg=" + p.ImportPath, "-o", bin.path}, c.tagsFlag()...)
	c.rep.phase("building " + p.ImportPath + " for coverage")
	out, err := c.goCommand(ctx, append(args, p.Args...)...).CombinedOutput()
	c.rep.phase("")
	if err != nil {
		if ctx.Err() == nil {
			c.rep.buildError(p.ImportPath, strings.TrimSpace(string(out)))
			c.fail(exitUsage)
		}
		return
	}
	c.rep.built(p.ImportPath, time.Since(start))
	for i, tj := range jobs {
		if ctx.Err() != nil {
			return
		}
		if err := c.cminTarget(ctx, p, tj, bin, filepath.Join(tmp, fmt.Sprint("work", i))); err != nil {
			if ctx.Err() == nil {
				c.rep.errorf("%s %s: %v", p.ImportPath, tj.target.Name, err)
				c.fail(exitFailure)
			}
			return
		}
	}
}

// cminTarget distills the corpus of one target.
func (c *command) cminTarget(ctx context.Context, p *pkg, tj *targetJob, bin *testBinary, work string) error {
	start := time.Now()
	var entries []*cminEntry
	for _, e := range tj.entries { // the seed corpus, with -seed
		if e.Err == nil {
			entries = append(entries, &cminEntry{Entry: e, seed: true, keep: tj.tracked[e.Name]})
		}
	}
	cacheDir := c.cacheCorpus(p, tj.target.Name)
	cached, err := corpus.Read(cacheDir)
	if err != nil {
		return err
	}
	for _, e := range cached {
		if e.Err == nil && c.opts.shard.has(p.ImportPath, tj.target.Name, e.Name) {
			entries = append(entries, &cminEntry{Entry: e})
		}
	}
	if len(entries) == 0 {
		c.rep.infof("%s %s: no entries in the fuzz cache (%s)", p.ImportPath, tj.target.Name, cacheDir)
		return nil
	}
	names, err := c.measure(ctx, tj.target.Name, bin, work, entries)
	if err != nil {
		return err
	}
	kept := distill(entries)
	covered := map[int]bool{}
	for _, e := range entries {
		for _, b := range e.blocks {
			covered[b] = true
		}
	}
	removed := 0
	for _, e := range entries {
		if kept[e] || c.opts.dryRun {
			continue
		}
		if err := corpus.Remove(e.Path); err != nil {
			return err
		}
		removed++
	}
	verb := "removed"
	if c.opts.dryRun {
		verb, removed = "would remove", len(entries)-len(kept)
	}
	c.rep.infof("%s %s: kept %d of %d entries (%d blocks of %d covered, as before), %s %d, %v",
		p.ImportPath, tj.target.Name, len(kept), len(entries), len(covered), len(names), verb, removed, time.Since(start).Round(time.Millisecond))
	return nil
}

// cacheCorpus returns the directory of the generated corpus of a target.
func (c *command) cacheCorpus(p *pkg, target string) string {
	if c.opts.fuzzcache != "" {
		return filepath.Join(c.opts.fuzzcache, filepath.FromSlash(p.ImportPath), target)
	}
	return corpus.CacheCorpus(c.gocache, p.ImportPath, target)
}

// measure runs each entry alone, on -p runners at once, and records the
// blocks it covers. It returns the names of the blocks.
func (c *command) measure(ctx context.Context, target string, bin *testBinary, work string, entries []*cminEntry) ([]string, error) {
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
	w := max(1, min(c.opts.procs, len(entries)))
	errs := make([]error, w)
	var wg sync.WaitGroup
	for k := range w {
		r, err := bin.runner(target, fmt.Sprintf("%s-%d", work, k))
		if err != nil {
			return nil, err
		}
		profile := filepath.Join(r.ram, fmt.Sprint("cover-", k))
		r.extra = []string{"-test.coverprofile=" + profile}
		wg.Go(func() {
			for i := k; i < len(entries) && errs[k] == nil; i += w {
				errs[k] = measureOne(ctx, r, profile, entries[i], intern)
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

// measureOne runs e and reads the blocks it covered from the profile.
func measureOne(ctx context.Context, r *runner, profile string, e *cminEntry, intern func(string) int) error {
	os.Remove(profile)
	shape := func(_ int, msg string) string { return failure.Shape(msg, nil) }
	res, err := r.run(ctx, [][]byte{e.Data}, shape, never)
	if err != nil {
		return err
	}
	if len(res.outcomes) != 1 || res.outcomes[0].Failed() {
		e.keep = true // failing (a regression), or stale: never dropped
		return nil
	}
	data, err := os.ReadFile(profile)
	if err != nil {
		e.keep = true // no coverage to weigh it by
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// file:start.col,end.col statements count
		line := sc.Text()
		block, count, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "mode:") {
			continue
		}
		if _, n, _ := strings.Cut(count, " "); n != "0" {
			e.blocks = append(e.blocks, intern(block))
		}
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
