package campaign

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// fuzzmin fuzz fuzzes every target of its packages with the toolchain's
// own fuzzer under one budget: the targets take turns (slices) of go test
// -fuzz, run from a binary built once per package, -p at a time; each
// slice after the first goes to the target that found new coverage
// fastest in its last one. When a slice stops on a failure, the input is
// minimized, checked by go test and written like any other entry, and the
// target fuzzes on in later slices. A failure is one finding however often
// and in however many targets it is found; one the module's known file
// lists is counted, not reported as new.

// A campaignTarget is a fuzz target of the campaign and what fuzzing it
// has found.
type campaignTarget struct {
	pkg     *pipeline.Package
	target  *pipeline.Target
	bin     *testbin.Binary // the instrumented binary of its package
	work    string          // the working directory of its slices (testbin.Binary.FuzzDir)
	running bool
	done    string // why it is fuzzed no more, if it is not

	slices       int
	spent        time.Duration // fuzzing, summed over the slices
	lost         time.Duration // minimizing what stopped it
	execs        int64
	found        int     // inputs with new coverage
	bits         int     // what its corpus covered at its last turn's end (testbin.FuzzStats.Coverage)
	last         float64 // of its last slice: inputs with new coverage a second
	stops        int     // slices that stopped on a failure
	stuck        int     // slices in a row that stopped on a failure found before, finding nothing new
	fresh        []string
	known        int
	repeats      int
	left         []string                     // failing seed entries left out of its slices
	regressions  map[failure.Signature]string // how committed entries of its seed corpus fail, and the entries
	seedsChecked bool                         // its seed corpus was replayed for the failures it holds (checkSeeds)
	said         map[failure.Signature]bool   // the failures its stops were reported on, once each
	made         []string                     // directories its failures' entries made, the deepest first
	cover        string                       // what its corpora cover, as a percentage of the statements; "" if not measured
	raw          []string                     // inputs the fuzzer stopped on, written into the seed corpus unminimized (an interrupt, an error)
	flaky        []string                     // entries of new failures that passed a later replay
	overdue      bool                         // a turn of its fuzzer did not stop on time (said once)
	fuzzOn       string                       // where its turns record the failures they fuzz past; "" if they stop at each (testbin.FuzzSlice)
	past         int                          // inputs that failed and were fuzzed past
	kinds        map[string]bool              // the kinds of failure its turns fuzzed past and took (testbin.Found)
	first        time.Duration                // from the first turn's start to its first new failure; 0 if none
	met          bool                         // a turn met a failure: no turn of it ends early any more (sliceDone.early)
}

// once reports whether t's stops on sig are yet to be reported: the report
// says each once, and the table counts them.
func (t *campaignTarget) once(sig failure.Signature) bool {
	if t.said[sig] {
		return false
	}
	if t.said == nil {
		t.said = map[failure.Signature]bool{}
	}
	t.said[sig] = true
	return true
}

// name is the target as the report names it.
func (t *campaignTarget) name() string { return t.pkg.ImportPath + " " + t.target.Name }

// slowest is the slowest passing run t's fuzz workers have seen (0 if
// none said): the hang limit of fuzzmin's own first runs of t.
func (t *campaignTarget) slowest() time.Duration {
	if t.fuzzOn == "" {
		return 0
	}
	return testbin.ReadSlowest(t.fuzzOn)
}

// A sliceDone is a slice that ended.
type sliceDone struct {
	t    *campaignTarget
	out  testbin.FuzzOutcome
	err  error
	took time.Duration // from its start to its end
	// early says the turn was ended as its target met its first failure
	// (watchFirst), so that what fuzzing finds is reported as soon as
	// go test -fuzz reports it.
	early bool
}

// A campaignConfig is what a campaign serves, from fuzzmin fuzz's flags.
type Config struct {
	Match      *pipeline.Matcher   // the targets: -run, and -shard of the targets
	Minimizing pipeline.Minimizing // how a failure found is minimized
	Known      string              // -known
	Fuzztime   time.Duration       // -fuzztime: for all the targets
	Corpus     string              // -corpus: the directory that keeps the generated corpora
	CorpusMax  int                 // -corpus-max
}

// A campaign is one run of fuzzmin fuzz: the run context, and what the
// campaign's stages serve.
type campaign struct {
	*pipeline.Run
	Config
	targets     []*campaignTarget
	refusedOnce bool      // fuzzing past failures was refused, and said so
	noShimOnce  bool      // workers with no shim were said so
	start       time.Time // when the first turn started
	deadline    time.Time // when the budget runs out: the turns end reserve before it
}

// minMinimize is the time a failure found gets to be minimized when an
// eighth of the budget is less (minimizeShare), the end of the budget
// aside: no minimization runs past it.
const minMinimize = 20 * time.Second

// minimizeShare is the most of the budget one failure's minimization
// takes, minMinimize aside. Most failures take a fraction of a second; a
// hang takes its limit per candidate that hangs, and one found early took
// -timeout whole (two minutes by default), most of a short budget, from
// the fuzzing.
const minimizeShare = 8

// minimizing is how the campaign minimizes a failure found now: as
// -timeout says, within an eighth of the budget or minMinimize, and never
// past the budget's end, where what is left is written as it was found.
func (c *campaign) minimizing() pipeline.Minimizing {
	mz := c.Minimizing
	mz.Search.Timeout = min(mz.Search.Timeout, max(c.Fuzztime/minimizeShare, minMinimize))
	mz.Search.Deadline = c.deadline
	return mz
}

// reserve is the end of a budget that no turn fuzzes in: it is for
// minimizing what the last turns found, so that the campaign ends with
// its budget (building and the report aside). An eighth of the budget,
// minMinimize at most.
func reserve(budget time.Duration) time.Duration {
	return min(budget/minimizeShare, minMinimize)
}

// runCampaign is fuzzmin fuzz: a campaign over the packages patterns
// name, as cfg says.
func Run(ctx context.Context, rc *pipeline.Run, patterns []string, cfg Config) int {
	// What fuzzmin fuzz cannot mean, said as the campaign's error: a budget
	// of nothing (an Action's input left empty would fuzz nothing and
	// pass), a kept corpus distilled to nothing.
	switch {
	case cfg.Fuzztime <= 0:
		rc.Rep.Errorf("-fuzztime %v: want a positive duration (5m, 90s)", cfg.Fuzztime)
		return pipeline.ExitUsage
	case cfg.CorpusMax < 1:
		rc.Rep.Errorf("-corpus-max %d: want 1 or more", cfg.CorpusMax)
		return pipeline.ExitUsage
	}
	c := &campaign{Run: rc, Config: cfg}
	return c.WithPackages(ctx, patterns, pipeline.WritesSeeds|pipeline.WritesCache, cfg.Match, func(pkgs []*pipeline.Package) {
		if !c.ReadKnownFiles(pkgs, c.Known) {
			return // before any fuzzing: a failure it lists would be taken for new
		}
		var took campaignTimes
		start := time.Now()
		targets := c.campaignTargets(ctx, pkgs)
		c.targets = targets
		took.building = time.Since(start)
		if len(targets) == 0 || ctx.Err() != nil {
			return
		}
		kept := c.Abs(c.Corpus)
		if kept != "" && !c.mergeCorpus(ctx, targets, kept) {
			return
		}
		start = time.Now()
		found := c.fuzzTargets(ctx, targets)
		took.turns = time.Since(start)
		start = time.Now()
		if kept != "" {
			c.keepCorpus(ctx, targets, kept)
		}
		c.campaignCoverage(ctx, targets)
		took.after = time.Since(start)
		c.campaignReport(targets, found)
		c.Rep.Infof("fuzzmin fuzz: %s", took.String(targets))
		for _, t := range targets {
			for _, path := range t.raw {
				c.Rep.Errorf("%s: %s is the input the fuzzer stopped on, left as it was, unminimized: fuzzmin -run=%s %s minimizes it",
					t.name(), c.Rel(path), t.target.Name, t.pkg.ImportPath)
				c.Fail(pipeline.ExitFailure)
			}
		}
		if ctx.Err() != nil {
			c.Rep.Errorf("interrupted; fuzzing stopped, and every entry written so far stays")
			c.Fail(pipeline.ExitFailure)
		}
	})
}

// A campaignFinding is a failure the campaign found: the entry written for
// it, and how often it stopped a slice.
type campaignFinding struct {
	t     *campaignTarget
	path  string
	after time.Duration // from the first turn's start to its finding
}

// campaignTargets returns the targets the campaign selects (-run, and
// -shard of the targets), in order, each with the instrumented test binary of its
// package built.
func (c *campaign) campaignTargets(ctx context.Context, pkgs []*pipeline.Package) []*campaignTarget {
	m := c.Match
	var targets []*campaignTarget
	for i, p := range pkgs {
		var mine []*campaignTarget
		for _, t := range p.Targets {
			if m.MatchTarget(t.Name) && m.Shard.Has(p.ImportPath, t.Name, "") {
				mine = append(mine, &campaignTarget{pkg: p, target: t})
			}
		}
		if len(mine) == 0 {
			continue
		}
		names := make([]string, len(mine))
		for k, t := range mine {
			names[k] = t.target.Name
		}
		bin, ok := c.buildFuzz(ctx, p, filepath.Join(c.Disk.Path, fmt.Sprint("fuzz", i)), names)
		if !ok {
			continue
		}
		for k, t := range mine {
			t.bin = bin
			dir := filepath.Join(c.Disk.Path, fmt.Sprint("fuzz", i), fmt.Sprint("work", k))
			seeds, err := c.seedFiles(t)
			if err == nil {
				t.work, err = bin.FuzzDir(t.target.Name, dir, seeds)
			}
			if err == nil && bin.Hooked {
				t.fuzzOn = filepath.Join(dir, "found")
				err = os.MkdirAll(t.fuzzOn, 0o777)
			}
			if err != nil {
				c.Rep.Errorf("%s: %v", t.name(), err)
				c.Fail(pipeline.ExitFailure)
				continue
			}
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 && c.Exit == pipeline.ExitOK {
		c.Rep.Infof("fuzzmin fuzz: no fuzz target matches %s", pipeline.DescribeSelection(m.Pattern, m.Shard))
	}
	return targets
}

// buildFuzz builds p's test binary for fuzzing in dir.
func (c *campaign) buildFuzz(ctx context.Context, p *pipeline.Package, dir string, targets []string) (*testbin.Binary, bool) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(pipeline.ExitFailure)
		return nil, false
	}
	start := time.Now()
	c.Rep.Phase("building " + p.ImportPath + " for fuzzing")
	flags := append(c.BuildFlags(), p.Args...)
	// With the hook, the targets fuzz past their failures (fuzzOn).
	hook := c.Hook(p, dir, targets)
	path := c.HoldBinary(p, "fuzz", append(slices.Clip(flags), hook...), filepath.Join(dir, "fuzz.test"))
	stamp := pipeline.BinaryStamp(path, c.Verbose)
	goCmd := func(args ...string) *exec.Cmd { return c.GoCommand(ctx, args...) }
	hooked, err := c.BuildHooked(p, hook, "the hook's files; its targets stop at each failure", func(hook []string) error {
		return testbin.BuildFuzz(goCmd, path, append(slices.Clip(flags), hook...))
	})
	c.Rep.Phase("")
	if err != nil {
		c.BuildFailed(ctx, p, err)
		return nil, false
	}
	c.Rep.Built(p.ImportPath, time.Since(start), pipeline.UpToDate(path, stamp))
	// Runnable as any test binary too: -corpus asks it for its targets'
	// argument types.
	bin := &testbin.Binary{Path: path, ModDir: p.ModuleDir, PkgDir: p.Dir, Env: c.Env, Toolchain: c.Toolchain(path),
		Timeout: c.ExecTimeout, MemLimit: int64(c.MemLimit), RAM: c.RAM.Path, Disk: c.Disk.Path, Note: c.VerboseNote, Hooked: hooked}
	if ok, why := bin.Toolchain.Worker(); hooked && !ok {
		c.noShim(why)
	}
	if hooked {
		// The literals of the package and of those it imports, which
		// the hook tries in the inputs' places; without them it fuzzes
		// all the same.
		dict := filepath.Join(dir, "dict")
		dirs, err := c.LiteralDirs(ctx, p)
		if err == nil {
			err = testbin.WriteDict(dirs, dict)
		}
		if err != nil {
			c.VerboseNote(fmt.Sprintf("fuzzmin: %s: fuzzing without the package's literals: %v", p.ImportPath, err))
		} else {
			bin.Dict = dict
		}
	}
	return bin, true
}

// seedFiles returns the files of t's seed corpus that go test reads.
func (c *campaign) seedFiles(t *campaignTarget) (map[string][]byte, error) {
	dir := corpus.SeedCorpus(t.pkg.Dir, t.target.Name)
	entries, err := corpus.Read(dir)
	if err != nil {
		return nil, err
	}
	seeds := map[string][]byte{}
	for _, e := range entries {
		if e.Err == nil {
			seeds[e.Name] = e.Data
		}
	}
	return seeds, nil
}

// campaignCoverage measures what each target's corpora cover after the
// fuzzing, as fuzzmin cover does. Running every entry, it runs each new
// failure's too: one that passes now is flaky (passedLater).
func (c *campaign) campaignCoverage(ctx context.Context, targets []*campaignTarget) {
	var cov *pipeline.CoverBuild
	for i, t := range targets {
		if ctx.Err() != nil {
			return
		}
		tmp := filepath.Join(c.Disk.Path, fmt.Sprint("cover", i))
		if i == 0 || t.pkg != targets[i-1].pkg {
			var ok bool
			if cov, ok = c.BuildCoverage(ctx, t.pkg, tmp); !ok {
				cov = nil
			}
		}
		if cov == nil {
			continue
		}
		run, err := c.TargetCoverage(ctx, t.pkg, t.target, cov, filepath.Join(tmp, "work"), t.slowest())
		if err != nil {
			if ctx.Err() == nil {
				c.Rep.Errorf("%s: measuring coverage: %v", t.name(), err)
				c.Fail(pipeline.ExitFailure)
			}
			continue
		}
		t.cover = pipeline.Percent(run.Profile.Statements())
		for _, path := range slices.Clone(t.fresh) {
			if !run.Failed[path] {
				c.passedLater(t, path)
			}
		}
	}
}

// cacheCorpusRoot is the directory of the generated corpora of p's
// targets, as go test -fuzz passes it (-test.fuzzcachedir).
func (c *campaign) cacheCorpusRoot(p *pipeline.Package) string {
	return filepath.Join(c.CacheRoot(), filepath.FromSlash(p.ImportPath))
}
