package cli

import (
	"flag"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// addBuildFlags adds the flags of the go command's runs: -C, -tags.
func addBuildFlags(fs *flag.FlagSet, o *pipeline.BuildOptions) {
	fs.StringVar(&o.Tags, "tags", o.Tags, "Build tags, a comma-separated `list` as for go test.")
	fs.StringVar(&o.Dir, "C", o.Dir, "Change to `dir` before doing anything.")
}

// addSelectFlags adds the flags that select the work: -run, which verb
// says what is done to what it selects, and -shard.
func addSelectFlags(fs *flag.FlagSet, o *pipeline.SelectOptions, verb string) {
	fs.StringVar(&o.Pattern, "run", o.Pattern, verb+" only the targets and entries matching `regexp`, as go test -run selects tests and subtests: FuzzParse, or FuzzParse/9e16f0a1 for one entry.")
	fs.Var(&o.Shard, "shard", "Do only shard `i/n` of the work: the entries are split into n shards by a hash of package, target and entry, so that n jobs of a CI matrix, given 1/n to n/n, do each entry exactly once.")
}

// addRunFlags adds the flags of the runs of test binaries: -exec-timeout,
// -memory-limit, -p (procs says what the processes do), and with race
// -race.
func addRunFlags(fs *flag.FlagSet, o *pipeline.RunOptions, procs string, race bool) {
	if race {
		fs.BoolVar(&o.Race, "race", o.Race, "Build the test binary with the race detector, as go test -race. A data race is a failure of its own kind, known by where its first two accesses are in your code; each candidate that races runs in a process of its own (the detector reports a race once a process), and a target wrapped by fuzzshrink shrinks its encoded arguments from outside.")
	}
	fs.DurationVar(&o.ExecTimeout, "exec-timeout", o.ExecTimeout, "The most one input may run before it counts as hanging. Once inputs have passed, an input hangs after 20 times the slowest of them (at least 1s), but for the candidates of an entry that runs out of memory, which take what their allocations take, and for an input past half of -memory-limit when its time is up, which is on its way out of memory; a search for a smaller input that hangs judges candidates by 4 times (at least 50ms), and confirms its result with the longer limit. Other searches give the candidates that pass after 20 times the typical one (at least 20ms) a quarter of their time: past it, such a candidate is cut short and counts as passing.")
	fs.Var(&o.MemLimit, "memory-limit", "The most resident memory a test process may reach, in `bytes` (a number, or with a suffix KiB, MiB or GiB; 0: no limit). A process that grows past it is killed and the input it ran fails as out of memory, a failure of its own kind, as does one the runtime reports out of memory; the kind alone is its identity. Linux only.")
	fs.IntVar(&o.Procs, "p", o.Procs, "Run up to `n` test processes at once, as go test -p: "+procs)
}

// addOutputFlags adds -json and, with verbose, -v.
func addOutputFlags(fs *flag.FlagSet, o *pipeline.OutputOptions, verbose bool) {
	fs.BoolVar(&o.JSON, "json", o.JSON, "Print one JSON object per event, as go test -json does (see Output).")
	if verbose {
		fs.BoolVar(&o.Verbose, "v", o.Verbose, "Show the search: the build, each pass and each accepted candidate.")
	}
}

// addWriteFlags adds -n and -keep, of the commands that write results.
func addWriteFlags(fs *flag.FlagSet, o *pipeline.WriteOptions) {
	fs.BoolVar(&o.DryRun, "n", o.DryRun, "Minimize, but write nothing: show what would change.")
	fs.BoolVar(&o.Keep, "keep", o.Keep, "Keep the original entry beside the minimized one.")
}

// addSearchFlags adds the flags of the search of an entry: its budgets,
// and with shrink -flaky and -others.
func addSearchFlags(fs *flag.FlagSet, o *pipeline.SearchOptions, shrink bool) {
	fs.DurationVar(&o.Timeout, "timeout", o.Timeout, "Time budget per entry. The best input found by then is verified and written. The other failures the entries of a target meet share what the entries left of their time; an explanation takes at most a quarter of a search's budget; go test's check of a result, and the end of each go test run, are bounded too, so that a run on n entries ends after about n times this.")
	fs.IntVar(&o.MaxRuns, "max-runs", o.MaxRuns, "Stop the search of an entry after `n` candidates; 0 means no limit.")
	if shrink {
		fs.BoolVar(&o.Flaky, "flaky", o.Flaky, "Minimize an entry even if its failure is not the same on every replay, against the first failure seen; the report says how often it fails, gives no explanation and notes that the result may not fail every time.")
		fs.StringVar(&o.Others, "others", o.Others, "What to do with the other failures met while shrinking, each kept with the smallest input that showed it: `write` minimizes each against its own failure and writes it as an entry of its own; report only reports them.")
	}
}
