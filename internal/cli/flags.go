package cli

import (
	"flag"
	"fmt"
	"hash/fnv"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// options are the command line's flags, of all the commands that run the
// pipeline (minimize, check, cmin, import, migrate), in groups: each
// command adds the groups it takes to its flag set (the add…Flags methods,
// as cmd/go's work.AddBuildFlags adds the build flags to each command that
// builds), and its constructor sets their defaults, which the manual and
// -help show. The pipeline reads them all, a command's unset ones at their
// defaults.
type options struct {
	buildOptions
	selectOptions
	runOptions
	outputOptions
	writeOptions
	searchOptions
	fuzzOptions
	checkOptions
	cminOptions
	campaignOptions
	exportOptions
}

// buildOptions are the flags of the go command's runs.
type buildOptions struct {
	tags string
	dir  string // -C
}

// selectOptions select the work.
type selectOptions struct {
	run   string
	shard shard
}

// runOptions are the flags of the runs of test binaries.
type runOptions struct {
	race        bool
	execTimeout time.Duration // per input
	memLimit    byteSize      // per test process
	procs       int           // -p
}

// outputOptions say how the command reports.
type outputOptions struct {
	json    bool
	verbose bool
}

// writeOptions are the flags of the commands that write results.
type writeOptions struct {
	dryRun bool // -n
	keep   bool
}

// searchOptions are the flags of the search of an entry.
type searchOptions struct {
	timeout time.Duration // per entry
	maxRuns int
	explain int // runs to explain a result with; -1: as many as the search took
	flaky   bool
	tracked bool
	others  string // othersWrite or othersReport
	worker  bool   // run candidates in fuzz workers (testbin.Runner.RunInWorker)
}

// fuzzOptions are the command's own: -fuzz first, and -version.
type fuzzOptions struct {
	fuzz     string // a target to fuzz with go test -fuzz first
	fuzztime string
	version  bool
}

// checkOptions are check's own.
type checkOptions struct {
	minimal bool // also a bounded search of each failing entry
	github  bool // annotations
}

// cminOptions are cmin's own.
type cminOptions struct {
	seed      bool   // the seed corpus too
	fuzzcache string // instead of $GOCACHE/fuzz
}

// campaignOptions are fuzzmin fuzz's own.
type campaignOptions struct {
	budget      time.Duration // -fuzztime: for all the targets
	targetShard shard         // -shard: of the targets
	known       string        // the file of known failures, instead of the module's
	corpus      string        // a directory that keeps the generated corpora
	corpusMax   int           // entries of a target's kept corpus past which it is distilled
}

// The values of -others.
const (
	othersWrite  = "write"
	othersReport = "report"
)

// defaultOptions are the defaults of the commands that minimize (the
// command itself, import, migrate).
func defaultOptions() options {
	return options{
		selectOptions: selectOptions{shard: shard{1, 1}},
		runOptions:    runOptions{execTimeout: 10 * time.Second, memLimit: 2 << 30, procs: runtime.GOMAXPROCS(0)},
		searchOptions: searchOptions{timeout: 2 * time.Minute, maxRuns: 100000, explain: -1, others: othersWrite, worker: true},
		fuzzOptions:   fuzzOptions{fuzztime: "1m"},
	}
}

// checkDefaults are check's: -minimal runs a bounded search, which only
// says whether one would find something.
func checkDefaults() options {
	o := defaultOptions()
	o.timeout, o.maxRuns, o.explain = 30*time.Second, 1000, 0
	return o
}

// campaignDefaults are fuzzmin fuzz's.
func campaignDefaults() options {
	o := defaultOptions()
	o.budget, o.targetShard, o.corpusMax = 5*time.Minute, shard{1, 1}, 1000
	return o
}

// addBuildFlags adds the flags of the go command's runs: -C, -tags.
func (o *buildOptions) addBuildFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.tags, "tags", o.tags, "Build tags, a comma-separated `list` as for go test.")
	fs.StringVar(&o.dir, "C", o.dir, "Change to `dir` before doing anything.")
}

// addSelectFlags adds the flags that select the work: -run, which verb
// says what is done to what it selects, and -shard.
func (o *selectOptions) addSelectFlags(fs *flag.FlagSet, verb string) {
	fs.StringVar(&o.run, "run", o.run, verb+" only the targets and entries matching `regexp`, as go test -run selects tests and subtests: FuzzParse, or FuzzParse/9e16f0a1 for one entry.")
	fs.Var(&o.shard, "shard", "Do only shard `i/n` of the work: the entries are split into n shards by a hash of package, target and entry, so that n jobs of a CI matrix, given 1/n to n/n, do each entry exactly once.")
}

// addRunFlags adds the flags of the runs of test binaries: -exec-timeout,
// -memory-limit, -p (procs says what the processes do), and with race
// -race.
func (o *runOptions) addRunFlags(fs *flag.FlagSet, procs string, race bool) {
	if race {
		fs.BoolVar(&o.race, "race", o.race, "Build the test binary with the race detector, as go test -race. A data race is a failure of its own kind, known by where its first two accesses are in your code; each candidate that races runs in a process of its own (the detector reports a race once a process), and a target wrapped by fuzzshrink shrinks its encoded arguments from outside.")
	}
	fs.DurationVar(&o.execTimeout, "exec-timeout", o.execTimeout, "The most one input may run before it counts as hanging. Once inputs have passed, an input hangs after 20 times the slowest of them (at least 1s), but for the candidates of an entry that runs out of memory, which take what their allocations take, and for an input past half of -memory-limit when its time is up, which is on its way out of memory; a search for a smaller input that hangs judges candidates by 4 times (at least 50ms), and confirms its result with the longer limit. Other searches give the candidates that pass after 20 times the typical one (at least 20ms) a quarter of their time: past it, such a candidate is cut short and counts as passing.")
	fs.Var(&o.memLimit, "memory-limit", "The most resident memory a test process may reach, in `bytes` (a number, or with a suffix KiB, MiB or GiB; 0: no limit). A process that grows past it is killed and the input it ran fails as out of memory, a failure of its own kind, as does one the runtime reports out of memory; the kind alone is its identity. Linux only.")
	fs.IntVar(&o.procs, "p", o.procs, "Run up to `n` test processes at once, as go test -p: "+procs)
}

// addOutputFlags adds -json and, with verbose, -v.
func (o *outputOptions) addOutputFlags(fs *flag.FlagSet, verbose bool) {
	fs.BoolVar(&o.json, "json", o.json, "Print one JSON object per event, as go test -json does (see Output).")
	if verbose {
		fs.BoolVar(&o.verbose, "v", o.verbose, "Show the search: the build, each pass and each accepted candidate.")
	}
}

// addWriteFlags adds -n and -keep, of the commands that write results.
func (o *writeOptions) addWriteFlags(fs *flag.FlagSet) {
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Minimize, but write nothing: show what would change.")
	fs.BoolVar(&o.keep, "keep", o.keep, "Keep the original entry beside the minimized one.")
}

// addSearchFlags adds the flags of the search of an entry: its budgets,
// and with shrink -flaky and -others.
func (o *searchOptions) addSearchFlags(fs *flag.FlagSet, shrink bool) {
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "Time budget per entry. The best input found by then is verified and written. The other failures the entries of a target meet share what the entries left of their time; an explanation takes at most a quarter of a search's budget; go test's check of a result, and the end of each go test run, are bounded too, so that a run on n entries ends after about n times this.")
	fs.IntVar(&o.maxRuns, "max-runs", o.maxRuns, "Stop the search of an entry after `n` candidates; 0 means no limit.")
	if shrink {
		fs.BoolVar(&o.flaky, "flaky", o.flaky, "Minimize an entry even if its failure is not the same on every replay, against the first failure seen; the report says how often it fails, gives no explanation and notes that the result may not fail every time.")
		fs.StringVar(&o.others, "others", o.others, "What to do with the other failures met while shrinking, each kept with the smallest input that showed it: `write` minimizes each against its own failure and writes it as an entry of its own; report only reports them.")
	}
}

// minimizeProcs says what -p's processes do for a command that minimizes.
const minimizeProcs = "the candidates of a batch are dealt out to them once inputs are seen to take 0.5 ms or more to run (below that, one process is faster). The result does not depend on n."

// minimizeFlags returns the flags of the command itself, which minimizes,
// bound to o.
func minimizeFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin", flag.ContinueOnError)
	o.addBuildFlags(fs)
	o.addSelectFlags(fs, "Minimize")
	o.addRunFlags(fs, minimizeProcs, true)
	o.addOutputFlags(fs, true)
	o.addWriteFlags(fs)
	o.addSearchFlags(fs, true)
	fs.IntVar(&o.explain, "explain", o.explain, "Explain each result with at most `n` runs: which arguments, and which characters of strings and byte slices, matter. -1 allows as many runs as the search took; 0 turns it off.")
	fs.BoolVar(&o.tracked, "tracked", o.tracked, "Minimize the entries that git tracks too. By default a committed entry is a regression test somebody chose to keep: it is replayed, and if it fails it is reported as a regression and left alone.")
	fs.StringVar(&o.fuzz, "fuzz", o.fuzz, "First fuzz the target matching `regexp` with go test -fuzz (one package), then minimize the failing entries it wrote.")
	fs.StringVar(&o.fuzztime, "fuzztime", o.fuzztime, "With -fuzz, how long to fuzz: a `duration` or a number of runs (100x), as for go test -fuzztime.")
	fs.BoolVar(&o.worker, "worker", o.worker, "Run the candidates of an entry inside a test process that stays up, in the test binary's fuzz worker mode (as go test -fuzz runs inputs), when the original fails there exactly as in a process of its own: many per call in a worker fuzzmin adds to the binary it builds (go test -overlay; nothing is written into the module), or one per call in the toolchain's. -worker=false runs every batch of candidates in a fresh process, and builds the binary without fuzzmin's worker.")
	fs.BoolVar(&o.version, "version", o.version, "Print fuzzmin's version and exit.")
	return fs
}

// checkFlags returns check's flags, bound to o.
func checkFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin check", flag.ContinueOnError)
	o.addBuildFlags(fs)
	o.addSelectFlags(fs, "Check")
	o.addRunFlags(fs, "one target's entries each.", true)
	o.addOutputFlags(fs, false)
	fs.BoolVar(&o.minimal, "minimal", o.minimal, "Also run a bounded search on each failing entry, and report those it can shrink. Nothing is written.")
	fs.BoolVar(&o.github, "github", o.github, "Also print each finding as a GitHub Actions annotation (::error or ::warning), as when GITHUB_ACTIONS is true.")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "With -minimal, the time budget of the search of an entry.")
	fs.IntVar(&o.maxRuns, "max-runs", o.maxRuns, "With -minimal, stop the search of an entry after `n` candidates.")
	return fs
}

// cminFlags returns cmin's flags, bound to o.
func cminFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin cmin", flag.ContinueOnError)
	o.addBuildFlags(fs)
	o.addSelectFlags(fs, "Distill")
	o.addRunFlags(fs, "each measuring one entry at a time.", true)
	o.addOutputFlags(fs, false)
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Measure and choose, but remove nothing: show what would be removed.")
	fs.BoolVar(&o.seed, "seed", o.seed, "Distill the seed corpus too: its passing entries that git does not track may go; the committed ones stay.")
	fs.StringVar(&o.fuzzcache, "fuzzcache", o.fuzzcache, "Distill the generated corpora under `dir` (as <import path>/<Target>) instead of $GOCACHE/fuzz: a fuzz cache kept by CI, say.")
	return fs
}

// campaignFlags returns fuzzmin fuzz's flags, bound to o.
func campaignFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin fuzz", flag.ContinueOnError)
	o.addBuildFlags(fs)
	fs.StringVar(&o.run, "run", o.run, "Fuzz only the targets matching `regexp`.")
	fs.Var(&o.targetShard, "shard", "Fuzz only shard `i/n` of the targets: they are split into n shards by a hash of package and target, so that n jobs of a CI matrix, given 1/n to n/n, fuzz each target exactly once.")
	fs.DurationVar(&o.budget, "fuzztime", o.budget, "How long to fuzz, all the targets together: the turns of the targets that run at once overlap. Building, and minimizing what a turn stops on, come on top.")
	fs.StringVar(&o.known, "known", o.known, "Read the known failures from `file` instead of "+knownName+" at the root of each package's module.")
	fs.StringVar(&o.corpus, "corpus", o.corpus, "Keep the generated corpora of the targets in `dir`, laid out as $GOCACHE/fuzz (<import path>/<Target>/): its entries are added to the fuzz cache before fuzzing, and the cache's copied back after, so that CI can keep the directory between runs with an ordinary cache. Nothing else in the fuzz cache is touched.")
	fs.IntVar(&o.corpusMax, "corpus-max", o.corpusMax, "With -corpus, distill a target's kept corpus, as fuzzmin cmin does, once it holds more than `n` entries.")
	o.addRunFlags(fs, "targets fuzzed at once, each with GOMAXPROCS/n fuzz workers; minimizing a failure runs its candidates on n processes too.", true)
	o.addOutputFlags(fs, true)
	o.addSearchFlags(fs, true)
	return fs
}

// A shard is the part i of n of the work: -shard i/n.
type shard struct{ i, n int }

func (s *shard) String() string { return fmt.Sprintf("%d/%d", s.i, s.n) }

func (s *shard) Set(v string) error {
	var i, n int
	if _, err := fmt.Sscanf(v, "%d/%d", &i, &n); err != nil || fmt.Sprintf("%d/%d", i, n) != v || n < 1 || i < 1 || i > n {
		return fmt.Errorf("want i/n with 1 <= i <= n")
	}
	s.i, s.n = i, n
	return nil
}

// has reports whether the shard does the entry of target in the package
// with import path pkg: the FNV-1a hash of the three, mod n, is i-1. Every
// entry is in exactly one shard, whatever n.
func (s shard) has(pkg, target, entry string) bool {
	if s.n <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(pkg + "\x00" + target + "\x00" + entry))
	return int(h.Sum64()%uint64(s.n)) == s.i-1
}

// validate rejects bad flag combinations before any work.
func (o *options) validate() error {
	switch {
	case o.timeout <= 0:
		return fmt.Errorf("-timeout %v: want a positive duration", o.timeout)
	case o.execTimeout <= 0:
		return fmt.Errorf("-exec-timeout %v: want a positive duration", o.execTimeout)
	case o.procs < 1:
		return fmt.Errorf("-p %d: want 1 or more", o.procs)
	case o.maxRuns < 0:
		return fmt.Errorf("-max-runs %d: want 0 (no limit) or more", o.maxRuns)
	case o.explain < -1:
		return fmt.Errorf("-explain %d: want -1 (as many runs as the search), 0 (off) or more", o.explain)
	case o.others != othersWrite && o.others != othersReport:
		return fmt.Errorf("-others %q: want %s or %s", o.others, othersWrite, othersReport)
	case o.fuzz != "" && o.dryRun:
		return fmt.Errorf("-fuzz and -n: go test -fuzz writes what it finds")
	case o.corpusMax < 0:
		return fmt.Errorf("-corpus-max %d: want 1 or more", o.corpusMax)
	case o.budget < 0:
		return fmt.Errorf("-fuzztime %v: want a positive duration (5m, 90s)", o.budget)
	case o.fuzztime != "" && !validFuzztime(o.fuzztime):
		return fmt.Errorf("-fuzztime %q: want a positive duration (1m30s) or number of runs (1000x)", o.fuzztime)
	}
	return nil
}

// validateCampaign rejects what fuzzmin fuzz cannot mean: a budget of
// nothing (an Action's input left empty would fuzz nothing and pass), a
// kept corpus distilled to nothing.
func (o *options) validateCampaign() error {
	switch {
	case o.budget <= 0:
		return fmt.Errorf("-fuzztime %v: want a positive duration (5m, 90s)", o.budget)
	case o.corpusMax < 1:
		return fmt.Errorf("-corpus-max %d: want 1 or more", o.corpusMax)
	}
	return nil
}

// validFuzztime reports whether go test's -fuzztime takes s: a positive
// duration, or a positive count of runs followed by x (testing/flag.go's
// durationOrCountFlag, without zero).
func validFuzztime(s string) bool {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		v, err := strconv.ParseInt(n, 10, 0)
		return err == nil && v > 0
	}
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}
