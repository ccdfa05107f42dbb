package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// minimizeCmd is the command itself: it minimizes the failing entries of
// the packages' targets, after -fuzz's run of go test -fuzz if asked.
type minimizeCmd struct {
	pipeline.Common
	sel      pipeline.SelectOptions
	write    pipeline.WriteOptions
	search   pipeline.SearchOptions
	fuzz     string // a target to fuzz with go test -fuzz first
	fuzztime string
	version  bool
	m        *pipeline.Matcher // sel's, once validated
}

func newMinimizeCmd() cmd {
	return &minimizeCmd{Common: pipeline.DefaultCommon(), sel: pipeline.SelectOptions{Shard: pipeline.Shard{I: 1, N: 1}}, search: pipeline.DefaultSearch(), fuzztime: "1m"}
}

// minimizeProcs says what -p's processes do for a command that minimizes.
const minimizeProcs = "the candidates of a batch are dealt out to them once inputs are seen to take 0.5 ms or more to run (below that, one process is faster). The result does not depend on n."

func (o *minimizeCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	addSelectFlags(fs, &o.sel, "Minimize")
	addRunFlags(fs, &o.RunOptions, minimizeProcs, true)
	addOutputFlags(fs, &o.OutputOptions, true)
	addWriteFlags(fs, &o.write)
	addSearchFlags(fs, &o.search, true)
	fs.IntVar(&o.search.Explain, "explain", o.search.Explain, "Explain each result with at most `n` runs: which arguments, and which characters of strings and byte slices, matter. -1 allows as many runs as the search took; 0 turns it off.")
	fs.BoolVar(&o.search.Tracked, "tracked", o.search.Tracked, "Minimize the entries that git tracks too. By default a committed entry is a regression test somebody chose to keep: it is replayed, and if it fails it is reported as a regression and left alone.")
	fs.StringVar(&o.fuzz, "fuzz", o.fuzz, "First fuzz the target matching `regexp` with go test -fuzz (one package), then minimize the failing entries it wrote.")
	fs.StringVar(&o.fuzztime, "fuzztime", o.fuzztime, "With -fuzz, how long to fuzz: a `duration` or a number of runs (100x), as for go test -fuzztime.")
	fs.BoolVar(&o.Worker, "worker", o.Worker, "Run the candidates of an entry inside a test process that stays up, in the test binary's fuzz worker mode (as go test -fuzz runs inputs), when the original fails there exactly as in a process of its own: many per call in a worker fuzzmin adds to the binary it builds (go test -overlay; nothing is written into the module), or one per call in the toolchain's. -worker=false runs every batch of candidates in a fresh process, and builds the binary without fuzzmin's worker.")
	fs.BoolVar(&o.version, "version", o.version, "Print fuzzmin's version and exit.")
}

func (o *minimizeCmd) validate(args []string) error {
	if o.version && len(args) > 0 {
		return fmt.Errorf("-version takes no arguments, got %s", strings.Join(args, " "))
	}
	var err error
	if o.m, err = o.sel.Matcher(); err != nil {
		return err
	}
	switch {
	case o.fuzz != "" && o.write.DryRun:
		return fmt.Errorf("-fuzz and -n: go test -fuzz writes what it finds")
	case o.fuzztime != "" && !validFuzztime(o.fuzztime):
		return fmt.Errorf("-fuzztime %q: want a positive duration (1m30s) or number of runs (1000x)", o.fuzztime)
	}
	return o.search.Validate()
}

func (o *minimizeCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	c.Suggest = notACommand
	return c.Minimize(ctx, orDot(patterns), o.m, pipeline.Minimizing{Search: o.search, Write: o.write}, o.fuzz, o.fuzztime)
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
