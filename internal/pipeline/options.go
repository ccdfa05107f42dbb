package pipeline

import (
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"time"
)

// Common are the options every command's run context takes: how the go
// command and the test binaries run, and how the command reports. Each
// command's options (package cli) embed them with the groups of its own
// work, whose flags cli adds to its flag set.
type Common struct {
	BuildOptions
	RunOptions
	OutputOptions
}

// Options returns o, the common options of the command that embeds them.
func (o *Common) Options() *Common { return o }

// DefaultCommon are the defaults of every command.
func DefaultCommon() Common {
	return Common{RunOptions: RunOptions{ExecTimeout: 10 * time.Second, MemLimit: 2 << 30, Procs: runtime.GOMAXPROCS(0), Worker: true}}
}

// BuildOptions are the flags of the go command's runs.
type BuildOptions struct {
	Tags string
	Dir  string // -C
}

// SelectOptions select the work.
type SelectOptions struct {
	Pattern string
	Shard   Shard
}

// Matcher returns the matcher of the selection, or a usage error.
func (o SelectOptions) Matcher() (*Matcher, error) {
	m, err := NewMatcher(o.Pattern)
	if err != nil {
		return nil, err
	}
	m.Shard = o.Shard
	return m, nil
}

// RunOptions are the flags of the runs of test binaries.
type RunOptions struct {
	Race        bool
	ExecTimeout time.Duration // per input
	MemLimit    byteSize      // per test process
	Procs       int           // -p
	Worker      bool          // run candidates in fuzz workers (testbin.Runner.RunInWorker)
}

// OutputOptions say how the command reports.
type OutputOptions struct {
	JSON    bool
	Verbose bool
}

// WriteOptions are the flags of the commands that write results.
type WriteOptions struct {
	DryRun bool // -n
	Keep   bool
}

// SearchOptions are the flags of the search of an entry.
type SearchOptions struct {
	Timeout time.Duration // per entry
	// Deadline, if not zero, is when every search ends, whatever Timeout
	// says (a campaign's budget): an entry met with no time left is
	// written as it was found, checked by go test.
	Deadline time.Time
	MaxRuns  int
	Explain  int // runs to explain a result with; -1: as many as the search took
	Flaky    bool
	Tracked  bool
	Others   string // othersWrite or othersReport
}

// The values of -others.
const (
	othersWrite  = "write"
	othersReport = "report"
)

// DefaultSearch are the defaults of the search of an entry.
func DefaultSearch() SearchOptions {
	return SearchOptions{Timeout: 2 * time.Minute, MaxRuns: 100000, Explain: -1, Others: othersWrite}
}

// A Shard is the part i of n of the work: -shard i/n.
type Shard struct{ I, N int }

func (s *Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

func (s *Shard) Set(v string) error {
	var i, n int
	if _, err := fmt.Sscanf(v, "%d/%d", &i, &n); err != nil || fmt.Sprintf("%d/%d", i, n) != v || n < 1 || i < 1 || i > n {
		return fmt.Errorf("want i/n with 1 <= i <= n")
	}
	s.I, s.N = i, n
	return nil
}

// Has reports whether the shard does the entry of target in the package
// with import path pkg: the FNV-1a hash of the three, mod n, is i-1. Every
// entry is in exactly one shard, whatever n.
func (s Shard) Has(pkg, target, entry string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(pkg + "\x00" + target + "\x00" + entry))
	return int(h.Sum64()%uint64(s.N)) == s.I-1
}

// Validate rejects bad values of the run flags before any work.
func (o *RunOptions) Validate() error {
	switch {
	case o.ExecTimeout <= 0:
		return fmt.Errorf("-exec-timeout %v: want a positive duration", o.ExecTimeout)
	case o.Procs < 1:
		return fmt.Errorf("-p %d: want 1 or more", o.Procs)
	}
	return nil
}

// Validate rejects bad values of the search flags before any work.
func (o *SearchOptions) Validate() error {
	switch {
	case o.Timeout <= 0:
		return fmt.Errorf("-timeout %v: want a positive duration", o.Timeout)
	case o.MaxRuns < 0:
		return fmt.Errorf("-max-runs %d: want 0 (no limit) or more", o.MaxRuns)
	case o.Explain < -1:
		return fmt.Errorf("-explain %d: want -1 (as many runs as the search), 0 (off) or more", o.Explain)
	case o.Others != othersWrite && o.Others != othersReport:
		return fmt.Errorf("-others %q: want %s or %s", o.Others, othersWrite, othersReport)
	}
	return nil
}

// Exit codes.
const (
	ExitOK      = 0 // done, also when nothing failed
	ExitFailure = 1 // some entry could not be minimized or verified, or the environment failed
	ExitUsage   = 2 // usage error, or a package that does not build
)

// CheckDir checks that -C names a directory.
func (o *BuildOptions) CheckDir() error {
	if o.Dir == "" {
		return nil
	}
	if fi, err := os.Stat(o.Dir); err != nil {
		return fmt.Errorf("-C %s: %w", o.Dir, errors.Unwrap(err))
	} else if !fi.IsDir() {
		return fmt.Errorf("-C %s: not a directory", o.Dir)
	}
	return nil
}
