package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A Run is what one run of a command over its packages works in:
// the go environment, the scratch directories, the output, the confinement
// of what it writes, and what the run has done so far. The stages of the
// work (SelectEntries, Build, minimizePackage, writeBack, the reports) are
// its methods, and take what they serve as parameters. (A session is
// something else: the in-process search of one entry, see inprocess.go.)
type Run struct {
	Common
	Rep       *Reporter
	fuzzCache string // the root of the generated corpora, if not $GOCACHE/fuzz (cmin -fuzzcache)
	// Suggest returns the error for a word given where a package goes
	// that matches none, if it may be a mistyped command; "" if not.
	Suggest    func(word string) string
	Env        []string             // of the go command and the test binaries
	goenv      goEnv                // what go env says
	noted      onceSet              // notes printed once per run
	Disk, RAM  *scratch             // removed at the end; ram may be disk
	matched    int                  // entries selected
	Written    map[string]string    // files written, with the entry whose result each is
	knownFiles map[string]knownRead // read, by path (knownOf)
	Exit       int
	trimCache  sync.Once // trims fuzzmin's cache once a run (binaryPath)
	slots      []func()  // cache slots of binaries held until the end (holdBinary)
	// finishing is done at a second interrupt (see interruptible): until
	// then results are verified and written, the smallest value of an
	// interrupted search too. Nil is never done.
	finishing context.Context
}

// NewRun returns the context of a run with the options o, which
// reports to stdout and stderr; finish is canceled at a second interrupt.
func NewRun(o Common, stdout, stderr io.Writer, finish context.Context) *Run {
	return &Run{Common: o, Rep: NewReporter(stdout, stderr, o.JSON, o.Verbose), Env: os.Environ(), finishing: finish,
		Suggest: func(string) string { return "" }}
}

// holding returns the files that hold the failures go test -fuzz found,
// relative, in order: the results written and the fuzzer's own entries
// that are still there (already minimal, or not minimized).
func (c *Run) holding(fuzzFound []string) []string {
	var ps []string
	for p := range c.Written {
		ps = append(ps, c.Rel(p))
	}
	for _, p := range fuzzFound {
		if _, err := os.Lstat(p); err == nil {
			ps = append(ps, c.Rel(p))
		}
	}
	slices.Sort(ps)
	if len(ps) == 0 {
		return []string{"none"}
	}
	return slices.Compact(ps)
}

// interrupted says what an interrupt left of the entry being minimized:
// saved, if the result of the entry it came during was written.
func (c *Run) interrupted(saved string) {
	switch {
	case c.finishContext().Err() != nil:
		c.Rep.Errorf("interrupted twice; the entry being minimized was left as it was")
	case saved != "":
		c.Rep.Errorf("interrupted; %s", saved)
	default:
		c.Rep.Errorf("interrupted; the entry being minimized was left as it was")
	}
	c.Fail(ExitFailure)
}

// finishContext returns the context that verifying and writing a result
// use.
func (c *Run) finishContext() context.Context {
	if c.finishing == nil {
		return context.Background()
	}
	return c.finishing
}

// Fail raises the exit code to code.
func (c *Run) Fail(code int) {
	c.Exit = max(c.Exit, code)
}

// eachPackage does work on each package in turn, with a directory of its
// own for its files, until an interrupt, and returns what the work said
// of the entry an interrupt came during.
func (c *Run) eachPackage(ctx context.Context, pkgs []*Package, work func(ctx context.Context, p *Package, tmp string) string) (saved string) {
	for i, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		saved = work(ctx, p, filepath.Join(c.Disk.Path, fmt.Sprint(i)))
	}
	return saved
}

// savesNothing is the work on a package of a command whose results an
// interrupt cannot catch half written (check, cmin), for eachPackage.
func savesNothing(work func(ctx context.Context, p *Package, tmp string)) func(context.Context, *Package, string) string {
	return func(ctx context.Context, p *Package, tmp string) string {
		work(ctx, p, tmp)
		return ""
	}
}

// ended says how the work ended: interrupted (saved is what the result
// of the entry the interrupt came during became), or, if m's -run selected
// nothing and all went well, so.
func (c *Run) ended(ctx context.Context, saved string, m *Matcher) {
	switch {
	case ctx.Err() != nil:
		c.interrupted(saved)
	case c.matched == 0 && m.Pattern != "" && c.Exit == ExitOK:
		c.Rep.Infof("fuzzmin: no fuzz target or corpus entry matches -run=%s", m.Pattern)
	}
}

// What a command touches, which WithPackages checks before any work.
type touches int

const (
	WritesSeeds touches = 1 << iota // the seed corpora: they must be the main module's, and not lead out of it
	WritesCache                     // the generated corpora: they must not lead out of the fuzz cache
)

// WithPackages does what every run of the command does around its work
// (the subcommands' too): it makes the scratch directories, loads the
// packages matching patterns while it asks the go command for its
// directories, refuses packages that are not fuzzmin's to write, and then
// calls work with the packages. It returns the exit code.
func (c *Run) WithPackages(ctx context.Context, patterns []string, t touches, m *Matcher, work func(pkgs []*Package)) int {
	c.Written = map[string]string{}
	if err := c.makeScratch(EnvValue(c.Env, "GOTMPDIR")); err != nil {
		c.Rep.Errorf("%v", err)
		return ExitFailure
	}
	defer c.removeScratch()
	// Ask the go command for its directories while it loads the packages.
	var envOut string
	envErr := make(chan error, 1)
	go func() {
		var err error
		envOut, err = c.goOutput(ctx, "env", "GOROOT", "GOMODCACHE", "GOCACHE", "GOVERSION")
		envErr <- err
	}()
	pkgs, err := loadPackages(c.Dir, c.Env, c.Tags, patterns)
	if err := <-envErr; err != nil {
		c.Rep.Errorf("%v", err)
		return ExitFailure
	}
	if err != nil {
		if msg := c.Suggest(patterns[0]); msg != "" {
			c.Rep.Errorf("%s", msg)
		} else {
			c.Rep.Errorf("%v", err)
		}
		return ExitUsage
	}
	vars := append(strings.SplitN(envOut, "\n", 5), "", "", "", "") // one line each, empty ones too
	c.goenv = goEnv{root: vars[0], modcache: vars[1], cache: vars[2], version: vars[3]}
	if t&WritesSeeds != 0 && (c.refuse(pkgs) || c.refuseLinks(pkgs, m, t&WritesCache != 0)) {
		return ExitUsage
	}
	work(pkgs)
	return c.Exit
}

// EnvValue returns the value of the variable key in env, the last one set.
func EnvValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// note prints a line once per run.
func (c *Run) note(line string) {
	if c.once(line) {
		c.Rep.Infof("%s", line)
	}
}

// VerboseNote prints a line under -v, once per run.
func (c *Run) VerboseNote(line string) {
	if c.Verbose && c.once(line) {
		c.Rep.Verbosef("%s", line)
	}
}

// once reports whether line is new to the run's notes, and records it.
func (c *Run) once(line string) bool { return c.noted.add(line) }

// An onceSet is a set of lines, safe for concurrent use.
type onceSet struct {
	mu   sync.Mutex
	seen map[string]bool
}

// add adds line and reports whether it is new.
func (s *onceSet) add(line string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen[line] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[line] = true
	return true
}

// Rel shortens a path for messages: relative to the working directory when
// it is below it.
func (c *Run) Rel(path string) string {
	wd, err := os.Getwd()
	if c.Dir != "" {
		wd, err = filepath.Abs(c.Dir)
	}
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// RelErr shortens the absolute paths in an error message.
func (c *Run) RelErr(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, ": "); i > 0 && filepath.IsAbs(msg[:i]) {
		return c.Rel(msg[:i]) + msg[i:]
	}
	return msg
}

// Abs undoes rel: it returns path, which rel may have made relative, as
// an absolute path; "" stays "".
func (c *Run) Abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if a, err := filepath.Abs(filepath.Join(c.Dir, path)); err == nil {
		return a
	}
	return path
}
