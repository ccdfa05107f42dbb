package cli

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// options are the command line's flags. Their defaults are set in one
// place, defaultOptions; the manual and -help show them from there.
type options struct {
	run         string
	tags        string
	dir         string // -C
	dryRun      bool   // -n
	keep        bool
	json        bool
	verbose     bool
	timeout     time.Duration // per entry
	maxRuns     int
	execTimeout time.Duration // per input
	flaky       bool
	tracked     bool
	procs       int    // -p
	others      string // othersWrite or othersReport
	version     bool
}

// The values of -others.
const (
	othersWrite  = "write"
	othersReport = "report"
)

func defaultOptions() options {
	return options{
		timeout:     2 * time.Minute,
		maxRuns:     100000,
		execTimeout: 10 * time.Second,
		others:      othersWrite,
		procs:       runtime.GOMAXPROCS(0),
	}
}

// flagSet returns the flags, bound to o, whose values are o's when it is
// called: the defaults.
func (o *options) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin", flag.ContinueOnError)
	fs.StringVar(&o.run, "run", o.run, "Minimize only the targets and entries matching `regexp`, as go test -run selects tests and subtests: FuzzParse, or FuzzParse/9e16f0a1 for one entry.")
	fs.StringVar(&o.tags, "tags", o.tags, "Build tags, a comma-separated `list` as for go test.")
	fs.StringVar(&o.dir, "C", o.dir, "Change to `dir` before doing anything.")
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Minimize, but write nothing: show what would change.")
	fs.BoolVar(&o.keep, "keep", o.keep, "Keep the original entry beside the minimized one.")
	fs.BoolVar(&o.json, "json", o.json, "Print one JSON object per event, as go test -json does (see Output).")
	fs.BoolVar(&o.verbose, "v", o.verbose, "Show the search: the build, each pass and each accepted candidate.")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "Time budget per entry. The best input found by then is verified and written.")
	fs.IntVar(&o.maxRuns, "max-runs", o.maxRuns, "Stop the search of an entry after `n` candidates; 0 means no limit.")
	fs.DurationVar(&o.execTimeout, "exec-timeout", o.execTimeout, "Time one input may run before it counts as hanging.")
	fs.BoolVar(&o.flaky, "flaky", o.flaky, "Minimize an entry even if its failure is not the same on every replay, against the first failure seen.")
	fs.IntVar(&o.procs, "p", o.procs, "Run up to `n` test processes at once, as go test -p: the candidates of a batch are dealt out to them. The result does not depend on n.")
	fs.BoolVar(&o.tracked, "tracked", o.tracked, "Minimize the entries that git tracks too. By default a committed entry is a regression test somebody chose to keep: it is replayed, and if it fails it is reported as a regression and left alone.")
	fs.StringVar(&o.others, "others", o.others, "What to do with the other failures met while shrinking, each kept with the smallest input that showed it: `write` minimizes each against its own failure and writes it as an entry of its own; report only reports them.")
	fs.BoolVar(&o.version, "version", o.version, "Print fuzzmin's version and exit.")
	return fs
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
	case o.others != othersWrite && o.others != othersReport:
		return fmt.Errorf("-others %q: want %s or %s", o.others, othersWrite, othersReport)
	}
	return nil
}

// writeFlags writes the flags section of the manual: each flag with its
// argument, its usage wrapped to the manual's width, and its default.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "\t-%s", f.Name)
		if arg != "" {
			fmt.Fprintf(w, " %s", arg)
		}
		fmt.Fprintln(w)
		if def := defaultText(f); def != "" {
			usage += " The default is " + def + "."
		}
		for _, line := range wrap(usage, 64) {
			fmt.Fprintf(w, "\t\t%s\n", line)
		}
	})
}

// defaultText spells a flag's default for the manual, or "" for the zero
// value of a bool or a string, which goes without saying.
func defaultText(f *flag.Flag) string {
	switch def := f.DefValue; {
	case f.Name == "p":
		return "GOMAXPROCS" // the machine's, not the one the manual was made on
	case def == "" || def == "false":
		return ""
	case def == ".": // a package
		return `"."`
	case strings.HasSuffix(def, "m0s"): // 2m0s reads 2m
		return strings.TrimSuffix(def, "0s")
	default:
		return def
	}
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
