package cli

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

//go:embed usage.txt
var usage string

// options are the command line's flags.
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
}

// Exit codes.
const (
	exitOK      = 0 // done, also when nothing failed
	exitFailure = 1 // some entry could not be minimized or verified
	exitUsage   = 2 // usage or build error
)

// Main runs the fuzzmin command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		return runDemo(args[1:], stdout, stderr)
	}
	var o options
	fs := flag.NewFlagSet("fuzzmin", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage) }
	fs.StringVar(&o.run, "run", "", "")
	fs.StringVar(&o.tags, "tags", "", "")
	fs.StringVar(&o.dir, "C", "", "")
	fs.BoolVar(&o.dryRun, "n", false, "")
	fs.BoolVar(&o.keep, "keep", false, "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.BoolVar(&o.verbose, "v", false, "")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "")
	fs.IntVar(&o.maxRuns, "max-runs", 100000, "")
	fs.DurationVar(&o.execTimeout, "exec-timeout", 10*time.Second, "")
	fs.BoolVar(&o.flaky, "flaky", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	usageErr := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "fuzzmin: "+format+"\nRun 'fuzzmin -help' for usage.\n", args...)
		return exitUsage
	}
	switch {
	case o.timeout <= 0:
		return usageErr("-timeout %v: want a positive duration", o.timeout)
	case o.execTimeout <= 0:
		return usageErr("-exec-timeout %v: want a positive duration", o.execTimeout)
	case o.maxRuns < 0:
		return usageErr("-max-runs %d: want 0 (no limit) or more", o.maxRuns)
	}
	m, err := newMatcher(o.run)
	if err != nil {
		return usageErr("%v", err)
	}
	if o.dir != "" {
		if fi, err := os.Stat(o.dir); err != nil || !fi.IsDir() {
			return usageErr("-C %s: not a directory", o.dir)
		}
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep := newReporter(stdout, stderr, o.json, o.verbose)
	s := &session{opts: o, match: m, rep: rep, env: os.Environ()}
	return s.main(ctx, patterns)
}

// A session is one run of the command over its packages.
type session struct {
	opts    options
	match   *matcher
	rep     *reporter
	env     []string
	goroot  string
	tmp     string // removed at the end
	matched int    // entries selected
	exit    int
}

func (s *session) fail(code int) {
	if code > s.exit {
		s.exit = code
	}
}

func (s *session) main(ctx context.Context, patterns []string) int {
	goroot, err := s.goOutput(ctx, "env", "GOROOT")
	if err != nil {
		s.rep.errorf("%v", err)
		return exitUsage
	}
	s.goroot = strings.TrimSpace(goroot)
	pkgs, err := loadPackages(s.opts.dir, s.env, s.opts.tags, patterns)
	if err != nil {
		s.rep.errorf("%v", err)
		return exitUsage
	}
	sweepScratch()
	if s.tmp, err = tempDir("", "run"); err != nil {
		s.rep.errorf("%v", err)
		return exitUsage
	}
	defer os.RemoveAll(s.tmp)
	for i, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		s.minimizePackage(ctx, p, filepath.Join(s.tmp, fmt.Sprint(i)))
	}
	if ctx.Err() != nil {
		s.rep.errorf("interrupted; the entry being minimized was left as it was")
		s.fail(exitFailure)
	} else if s.matched == 0 && s.opts.run != "" && s.exit == exitOK {
		s.rep.infof("fuzzmin: no fuzz target or corpus entry matches -run=%s", s.opts.run)
	}
	s.rep.summary()
	return s.exit
}

// goCommand returns a go command run where the user asked (-C), with the
// user's environment (GOFLAGS and all). Canceling ctx interrupts the go
// command and what it runs, as Ctrl-C in a terminal would, so that it
// removes its temporary files; it is killed if it has not ended 10 seconds
// later.
func (s *session) goCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = s.opts.dir
	cmd.Env = s.env
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return interruptProcessGroup(cmd) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

func (s *session) goOutput(ctx context.Context, args ...string) (string, error) {
	cmd := s.goCommand(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func (s *session) tagsFlag() []string {
	if s.opts.tags == "" {
		return nil
	}
	return []string{"-tags=" + s.opts.tags}
}
