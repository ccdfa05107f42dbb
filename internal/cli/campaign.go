package cli

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
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
	pkg     *pkg
	target  *target
	bin     *testbin.Binary // the instrumented binary of its package
	work    string          // the working directory of its slices (testbin.Binary.FuzzDir)
	running bool
	done    string // why it is fuzzed no more, if it is not

	slices  int
	spent   time.Duration // fuzzing, summed over the slices
	lost    time.Duration // minimizing what stopped it
	execs   int64
	found   int     // inputs with new coverage
	last    float64 // of its last slice: inputs with new coverage a second
	stops   int     // slices that stopped on a failure
	stuck   int     // slices in a row that stopped on a failure found before, finding nothing new
	fresh   []string
	known   int
	repeats int
	left    []string                   // failing seed entries left out of its slices
	said    map[failure.Signature]bool // the failures its stops were reported on, once each
	made    []string                   // directories its failures' entries made, the deepest first
	cover   string                     // what its corpora cover, as a percentage of the statements; "" if not measured
	raw     []string                   // inputs the fuzzer stopped on that an interrupt left unminimized in the seed corpus
	flaky   []string                   // entries of new failures that passed a later replay
	overdue bool                       // a turn of its fuzzer did not stop on time (said once)
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

// A sliceDone is a slice that ended.
type sliceDone struct {
	t    *campaignTarget
	out  testbin.FuzzOutcome
	err  error
	took time.Duration // from its start to its end
}

// A campaignFinding is a failure the campaign found: the entry written for
// it, and how often it stopped a slice.
type campaignFinding struct {
	t     *campaignTarget
	path  string
	count int
}

// campaign is fuzzmin fuzz.
func (c *command) campaign(ctx context.Context, patterns []string) int {
	if err := c.opts.validateCampaign(); err != nil {
		c.rep.errorf("%v", err)
		return exitUsage
	}
	return c.withPackages(ctx, patterns, writesSeeds|writesCache, func(pkgs []*pkg) {
		if !c.readKnownFiles(pkgs) {
			return // before any fuzzing: a failure it lists would be taken for new
		}
		var took campaignTimes
		start := time.Now()
		targets := c.campaignTargets(ctx, pkgs)
		took.building = time.Since(start)
		if len(targets) == 0 || ctx.Err() != nil {
			return
		}
		c.opts.corpus = c.abs(c.opts.corpus)
		if c.opts.corpus != "" && !c.mergeCorpus(ctx, targets) {
			return
		}
		start = time.Now()
		found := c.fuzzTargets(ctx, targets)
		took.turns = time.Since(start)
		start = time.Now()
		if c.opts.corpus != "" {
			c.keepCorpus(ctx, targets)
		}
		c.campaignCoverage(ctx, targets)
		took.after = time.Since(start)
		c.campaignReport(targets, found)
		c.rep.infof("fuzzmin fuzz: %s", took.String(targets))
		if ctx.Err() != nil {
			c.rep.errorf("interrupted; fuzzing stopped, and every entry written so far stays")
			for _, t := range targets {
				for _, path := range t.raw {
					c.rep.errorf("%s: %s is the input the fuzzer stopped on, left as it was, unminimized: fuzzmin -run=%s %s minimizes it",
						t.name(), c.rel(path), t.target.Name, t.pkg.ImportPath)
				}
			}
			c.fail(exitFailure)
		}
	})
}

// campaignTimes is where a campaign's time went.
type campaignTimes struct {
	building time.Duration // the instrumented test binaries
	turns    time.Duration // from the first turn to the end of the last
	after    time.Duration // the kept corpus and the coverage
}

// String says where the time went: building, the turns (fuzzing, the
// replay of each corpus that starts a turn included, and minimizing what
// stopped them), and what came after.
func (ct campaignTimes) String(targets []*campaignTarget) string {
	var minimizing time.Duration
	for _, t := range targets {
		minimizing += t.lost
	}
	r := func(d time.Duration) time.Duration { return d.Round(100 * time.Millisecond) }
	return fmt.Sprintf("%v in all: building %v, turns %v (of which minimizing %v), coverage and the kept corpus %v",
		r(ct.building+ct.turns+ct.after), r(ct.building), r(ct.turns), r(minimizing), r(ct.after))
}

// campaignTargets returns the targets -run and -shard select, in order,
// each with the instrumented test binary of its package built.
func (c *command) campaignTargets(ctx context.Context, pkgs []*pkg) []*campaignTarget {
	var targets []*campaignTarget
	for i, p := range pkgs {
		var mine []*campaignTarget
		for _, t := range p.Targets {
			if c.match.matchTarget(t.Name) && c.opts.targetShard.has(p.ImportPath, t.Name, "") {
				mine = append(mine, &campaignTarget{pkg: p, target: t})
			}
		}
		if len(mine) == 0 {
			continue
		}
		bin, ok := c.buildFuzz(ctx, p, filepath.Join(c.disk.path, fmt.Sprint("fuzz", i)))
		if !ok {
			continue
		}
		for k, t := range mine {
			t.bin = bin
			seeds, err := c.seedFiles(t)
			if err == nil {
				t.work, err = bin.FuzzDir(t.target.Name, filepath.Join(c.disk.path, fmt.Sprint("fuzz", i), fmt.Sprint("work", k)), seeds)
			}
			if err != nil {
				c.rep.errorf("%s: %v", t.name(), err)
				c.fail(exitFailure)
				continue
			}
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 && c.exit == exitOK {
		c.rep.infof("fuzzmin fuzz: no fuzz target matches %s", describeSelection(c.opts.run, c.opts.targetShard))
	}
	return targets
}

// describeSelection says what -run and -shard selected.
func describeSelection(run string, s shard) string {
	var parts []string
	if run != "" {
		parts = append(parts, "-run="+run)
	}
	if s.n > 1 {
		parts = append(parts, "-shard="+s.String())
	}
	if len(parts) == 0 {
		return "the packages"
	}
	return strings.Join(parts, " ")
}

// buildFuzz builds p's test binary for fuzzing in dir.
func (c *command) buildFuzz(ctx context.Context, p *pkg, dir string) (*testbin.Binary, bool) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitFailure)
		return nil, false
	}
	start := time.Now()
	c.rep.phase("building " + p.ImportPath + " for fuzzing")
	path := filepath.Join(dir, "fuzz.test")
	err := testbin.BuildFuzz(func(args ...string) *exec.Cmd { return c.goCommand(ctx, args...) }, path, append(c.buildFlags(), p.Args...))
	c.rep.phase("")
	if err != nil {
		c.buildFailed(ctx, p, err)
		return nil, false
	}
	c.rep.built(p.ImportPath, time.Since(start))
	// Runnable as any test binary too: -corpus asks it for its targets'
	// argument types.
	return &testbin.Binary{Path: path, ModDir: p.ModuleDir, PkgDir: p.Dir, Env: c.env, Toolchain: c.toolchain(path),
		Timeout: c.opts.execTimeout, MemLimit: int64(c.opts.memLimit), RAM: c.ram.path, Disk: c.disk.path, Note: c.verboseNote}, true
}

// seedFiles returns the files of t's seed corpus that go test reads.
func (c *command) seedFiles(t *campaignTarget) (map[string][]byte, error) {
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

// Slices: the first of each target is sliceTime long, those after it too,
// but never past the end of the budget; a slice shorter than minSlice is
// not worth a start (the fuzzer first replays the corpus).
const minSlice = 2 * time.Second

// sliceTime is the length of a slice: a quarter of a target's even share
// of the budget, between 5 s and a minute, so that every target gets four
// turns or more and the time follows what each keeps finding.
func sliceTime(budget time.Duration, targets, p int) time.Duration {
	share := budget * time.Duration(p) / time.Duration(max(1, targets))
	return min(budget, max(5*time.Second, min(time.Minute, share/4)))
}

// fuzzTargets runs the slices until the budget is spent and returns the
// findings, by failure.
func (c *command) fuzzTargets(ctx context.Context, targets []*campaignTarget) map[failure.Signature]*campaignFinding {
	budget := c.opts.budget
	deadline := time.Now().Add(budget)
	slice := sliceTime(budget, len(targets), c.opts.procs)
	workers := max(1, runtime.GOMAXPROCS(0)/c.opts.procs)
	found := map[failure.Signature]*campaignFinding{}
	done := make(chan sliceDone)
	running := 0
	for {
		for running < c.opts.procs && ctx.Err() == nil {
			// Turns are whole seconds: what the build took of the first
			// second does not cost a budget of two its turn.
			left := time.Until(deadline).Round(time.Second)
			t := nextTarget(targets)
			if t == nil || left < minSlice {
				break
			}
			t.running = true
			running++
			s := testbin.FuzzSlice{Target: t.target.Name, Dir: t.work, CacheDir: c.cacheCorpusRoot(t.pkg),
				Time: min(slice, left).Round(time.Second), Workers: workers}
			go func() {
				start := time.Now()
				out, err := t.bin.Fuzz(ctx, s)
				done <- sliceDone{t, out, err, time.Since(start)}
			}()
		}
		if running == 0 {
			return found
		}
		d := <-done
		running--
		d.t.running = false
		// Minimizing a new failure comes on top of the budget; a stop on
		// one found before is fuzzing time the stop cost.
		deadline = deadline.Add(c.sliceEnded(ctx, d, slice, found))
	}
}

// nextTarget returns the target to fuzz next: the first that has not had a
// slice, or else the one that found new coverage fastest in its last
// slice, on a tie the one that has had the least time (fuzzing, and
// minimizing what stopped it); nil if every target is running or done.
func nextTarget(targets []*campaignTarget) *campaignTarget {
	var best *campaignTarget
	for _, t := range targets {
		switch {
		case t.running || t.done != "":
		case t.slices == 0:
			return t
		case best == nil || t.last > best.last || t.last == best.last && t.spent+t.lost < best.spent+best.lost:
			best = t
		}
	}
	return best
}

// sliceEnded takes what a slice of t found: its statistics, and the
// failure it stopped on, which it minimizes, writes and counts. It returns
// the time minimizing new failures took.
func (c *command) sliceEnded(ctx context.Context, d sliceDone, slice time.Duration, found map[failure.Signature]*campaignFinding) (extra time.Duration) {
	t, out := d.t, d.out
	t.slices++
	t.spent += d.took
	t.execs += out.Execs
	t.found += out.New
	c.rep.fuzzTurn(t, d)
	cost := d.took
	defer func() {
		// What a slice found, a second of it, half an input more so that
		// a target that found nothing lately still gets turns. A slice
		// that stopped early counts as a whole one, with what the stop
		// cost: a target that keeps stopping on a failure found before
		// is worth no more than one that finds nothing.
		t.last = (float64(out.New) + 0.5) / max(cost, slice).Seconds()
	}()
	switch {
	case d.err != nil:
		if ctx.Err() == nil {
			t.done = d.err.Error()
			c.rep.errorf("%s: %v", t.name(), d.err)
			c.fail(exitFailure)
		}
	case out.Seed != "":
		c.leaveOutSeed(t, out)
	case out.Crasher == nil:
		t.stuck = 0 // its time was up
		if out.Overdue && !t.overdue {
			t.overdue = true
			c.rep.infof("%s: its fuzzer did not stop when its time was up (a child the target started holds the fuzz workers' pipes); it was ended with what it started, as each of its turns will be", t.name())
		}
	default: // it stopped on a failure
		t.stops++
		start := time.Now()
		fresh := c.campaignFailure(ctx, t, out.Crasher, found)
		took := time.Since(start)
		t.lost += took
		cost += took
		if t.stuck++; fresh || out.New > 0 {
			t.stuck = 0
		}
		if fresh {
			return took
		}
		if t.stuck == maxStuck {
			t.done = fmt.Sprintf("its last %d turns stopped on failures found before, with nothing new found: the fuzzer stops at every failure, so it cannot get past them until they are fixed", maxStuck)
			c.rep.infof("%s: fuzzed no more: %s", t.name(), t.done)
		}
	}
	return 0
}

// maxStuck is how many turns in a row a target may stop on failures found
// before, finding nothing new, before it gets no more: the toolchain's
// fuzzer stops at each failure, and one the fuzzer meets at once leaves a
// turn no time to find anything else.
const maxStuck = 5

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

// abs undoes rel: it returns path, which rel may have made relative, as
// an absolute path; "" stays "".
func (c *command) abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if a, err := filepath.Abs(filepath.Join(c.opts.dir, path)); err == nil {
		return a
	}
	return path
}

// campaignCoverage measures what each target's corpora cover after the
// fuzzing, as fuzzmin cover does.
func (c *command) campaignCoverage(ctx context.Context, targets []*campaignTarget) {
	var cov *coverBuild
	for i, t := range targets {
		if ctx.Err() != nil {
			return
		}
		tmp := filepath.Join(c.disk.path, fmt.Sprint("cover", i))
		if i == 0 || t.pkg != targets[i-1].pkg {
			var ok bool
			if cov, ok = c.buildCoverage(ctx, t.pkg, tmp); !ok {
				cov = nil
			}
		}
		if cov == nil {
			continue
		}
		pr, _, _, err := c.targetCoverage(ctx, t.pkg, t.target, cov, filepath.Join(tmp, "work"))
		if err != nil {
			if ctx.Err() == nil {
				c.rep.errorf("%s: measuring coverage: %v", t.name(), err)
				c.fail(exitFailure)
			}
			continue
		}
		t.cover = percent(pr.statements())
	}
}

// cacheCorpusRoot is the directory of the generated corpora of p's
// targets, as go test -fuzz passes it (-test.fuzzcachedir).
func (c *command) cacheCorpusRoot(p *pkg) string {
	return filepath.Join(c.cacheRoot(), filepath.FromSlash(p.ImportPath))
}

// campaignReport reports each target's work, and the findings; a new
// failure fails the run.
func (c *command) campaignReport(targets []*campaignTarget, found map[failure.Signature]*campaignFinding) {
	for sig, f := range found {
		if slices.Contains(f.t.flaky, f.path) {
			delete(found, sig) // it passed later: not a new failure (passedLater)
		}
	}
	var b strings.Builder
	w := len("target")
	for _, t := range targets {
		w = max(w, len(t.pkg.ImportPath)+1+len(t.target.Name))
	}
	fmt.Fprintf(&b, "%-*s %8s %12s %9s %6s %6s %5s %5s %5s %7s\n", w, "target", "time", "execs", "execs/s", "new", "cover", "fail", "known", "again", "stopped")
	var fresh []string
	for _, t := range targets {
		rate := 0.0
		if t.spent > 0 {
			rate = float64(t.execs) / t.spent.Seconds()
		}
		stopped := "-"
		if t.stops > 0 {
			stopped = t.lost.Round(time.Second).String()
		}
		fmt.Fprintf(&b, "%-*s %8s %12d %9.0f %6d %6s %5d %5d %5d %7s\n", w, t.pkg.ImportPath+"."+t.target.Name,
			t.spent.Round(time.Second), t.execs, rate, t.found, cmp.Or(t.cover, "-"), len(t.fresh), t.known, t.repeats, stopped)
		fresh = append(fresh, t.fresh...)
		c.rep.fuzzTarget(t)
	}
	c.rep.output(c.rep.out, "", "", b.String())
	for _, t := range targets {
		if note := idleNote(t, c.opts.budget); note != "" {
			c.rep.infof("%s: %s", t.name(), note)
		}
	}
	if path := envValue(c.env, "GITHUB_STEP_SUMMARY"); path != "" {
		if err := appendFile(path, c.stepSummary(targets, found)); err != nil {
			c.rep.errorf("writing the job summary: %v", err)
			c.fail(exitFailure)
		}
	}
	if len(fresh) > 0 {
		slices.Sort(fresh)
		var rel []string
		for _, p := range fresh {
			rel = append(rel, c.rel(p))
		}
		c.rep.errorf("fuzzing found %s; the entries to commit: %s", plural(len(found), "new failure", "new failures"), strings.Join(rel, ", "))
		c.fail(exitFailure)
	}
}

// idleNote says why a target that ran no input fuzzed nothing, so that a
// row of zeros is never the whole story; "" for a target that fuzzed.
func idleNote(t *campaignTarget, budget time.Duration) string {
	switch {
	case t.execs > 0 || t.done != "":
		return ""
	case t.slices == 0:
		return fmt.Sprintf("never fuzzed: the budget (-fuzztime %v) ran out before its turn, which is %v at least", budget, minSlice)
	case t.stops == 0:
		return fmt.Sprintf("fuzzed nothing in %s (%v): the fuzzer first replays the target's corpus, its baseline, and that took each turn whole; give it more -fuzztime",
			plural(t.slices, "turn", "turns"), t.spent.Round(100*time.Millisecond))
	}
	return ""
}

// stepSummary is the campaign's report as Markdown, for the summary of a
// GitHub Actions job ($GITHUB_STEP_SUMMARY).
func (c *command) stepSummary(targets []*campaignTarget, found map[failure.Signature]*campaignFinding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### fuzzmin fuzz: %s, %s\n\n", plural(len(targets), "target", "targets"), plural(len(found), "new failure", "new failures"))
	b.WriteString("| target | time | execs | execs/s | new inputs | coverage | new failures | known | again | stops cost |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, t := range targets {
		rate := 0.0
		if t.spent > 0 {
			rate = float64(t.execs) / t.spent.Seconds()
		}
		fmt.Fprintf(&b, "| `%s` | %v | %d | %.0f | %d | %s | %d | %d | %d | %v |\n", markdownCode(t.pkg.ImportPath+"."+t.target.Name),
			t.spent.Round(time.Second), t.execs, rate, t.found, cmp.Or(t.cover, "-"), len(t.fresh), t.known, t.repeats, t.lost.Round(time.Second))
	}
	var sigs []failure.Signature
	for sig := range found {
		sigs = append(sigs, sig)
	}
	slices.SortFunc(sigs, func(a, b failure.Signature) int { return strings.Compare(found[a].path, found[b].path) })
	for i, sig := range sigs {
		if i == 0 {
			b.WriteString("\nNew failures, minimized; commit their entries:\n\n")
		}
		f := found[sig]
		fmt.Fprintf(&b, "- `%s`: %s (stopped %s)\n", markdownCode(c.rel(f.path)), markdownText(sig.String()), plural(f.count, "turn", "turns"))
	}
	return b.String()
}

// markdownCode makes s fit between backquotes on one line.
func markdownCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "|", "\\|").Replace(s)
}

// markdownText escapes what Markdown would take for markup in s.
func markdownText(s string) string {
	return strings.NewReplacer("\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "|", "\\|", "<", "&lt;", "\n", " ").Replace(terminalSafe(s))
}

// appendFile appends text to the file at path, creating it if need be.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
