package cli

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"time"
)

// common are the options every command's run context takes: how the go
// command and the test binaries run, and how the command reports. Each
// command's options embed them with the groups of its own work (the
// types in commands.go); the add…Flags methods add a group's flags to a
// command's flag set, as cmd/go's work.AddBuildFlags adds the build flags
// to each command that builds.
type common struct {
	buildOptions
	runOptions
	outputOptions
}

// options returns o, the common options of the command that embeds them.
func (o *common) options() *common { return o }

// defaultCommon are the defaults of every command.
func defaultCommon() common {
	return common{runOptions: runOptions{execTimeout: 10 * time.Second, memLimit: 2 << 30, procs: runtime.GOMAXPROCS(0), worker: true}}
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

// matcher returns the matcher of the selection, or a usage error.
func (o selectOptions) matcher() (*matcher, error) {
	m, err := newMatcher(o.run)
	if err != nil {
		return nil, err
	}
	m.shard = o.shard
	return m, nil
}

// runOptions are the flags of the runs of test binaries.
type runOptions struct {
	race        bool
	execTimeout time.Duration // per input
	memLimit    byteSize      // per test process
	procs       int           // -p
	worker      bool          // run candidates in fuzz workers (testbin.Runner.RunInWorker)
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
}

// The values of -others.
const (
	othersWrite  = "write"
	othersReport = "report"
)

// defaultSearch are the defaults of the search of an entry.
func defaultSearch() searchOptions {
	return searchOptions{timeout: 2 * time.Minute, maxRuns: 100000, explain: -1, others: othersWrite}
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

// validate rejects bad values of the run flags before any work.
func (o *runOptions) validate() error {
	switch {
	case o.execTimeout <= 0:
		return fmt.Errorf("-exec-timeout %v: want a positive duration", o.execTimeout)
	case o.procs < 1:
		return fmt.Errorf("-p %d: want 1 or more", o.procs)
	}
	return nil
}

// validate rejects bad values of the search flags before any work.
func (o *searchOptions) validate() error {
	switch {
	case o.timeout <= 0:
		return fmt.Errorf("-timeout %v: want a positive duration", o.timeout)
	case o.maxRuns < 0:
		return fmt.Errorf("-max-runs %d: want 0 (no limit) or more", o.maxRuns)
	case o.explain < -1:
		return fmt.Errorf("-explain %d: want -1 (as many runs as the search), 0 (off) or more", o.explain)
	case o.others != othersWrite && o.others != othersReport:
		return fmt.Errorf("-others %q: want %s or %s", o.others, othersWrite, othersReport)
	}
	return nil
}

// Exit codes.
const (
	exitOK      = 0 // done, also when nothing failed
	exitFailure = 1 // some entry could not be minimized or verified, or the environment failed
	exitUsage   = 2 // usage error, or a package that does not build
)

// checkDir checks that -C names a directory.
func (o *buildOptions) checkDir() error {
	if o.dir == "" {
		return nil
	}
	if fi, err := os.Stat(o.dir); err != nil {
		return fmt.Errorf("-C %s: %w", o.dir, errors.Unwrap(err))
	} else if !fi.IsDir() {
		return fmt.Errorf("-C %s: not a directory", o.dir)
	}
	return nil
}
