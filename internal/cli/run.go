package cli

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

// A runContext is what one run of a command over its packages works in:
// the go environment, the scratch directories, the output, the confinement
// of what it writes, and what the run has done so far. The stages of the
// work (selectEntries, build, minimizePackage, writeBack, the reports) are
// its methods, and take what they serve as parameters. (A session is
// something else: the in-process search of one entry, see inprocess.go.)
type runContext struct {
	common
	rep       *reporter
	fuzzCache string // the root of the generated corpora, if not $GOCACHE/fuzz (cmin -fuzzcache)
	// suggest returns the error for a word given where a package goes
	// that matches none, if it may be a mistyped command; "" if not.
	suggest    func(word string) string
	env        []string             // of the go command and the test binaries
	goenv      goEnv                // what go env says
	noted      onceSet              // notes printed once per run
	disk, ram  *scratch             // removed at the end; ram may be disk
	matched    int                  // entries selected
	written    map[string]string    // files written, with the entry whose result each is
	knownFiles map[string]knownRead // read, by path (knownOf)
	exit       int
	trimCache  sync.Once // trims fuzzmin's cache once a run (binaryPath)
	slots      []func()  // cache slots of binaries held until the end (holdBinary)
	// finishing is done at a second interrupt (see interruptible): until
	// then results are verified and written, the smallest value of an
	// interrupted search too. Nil is never done.
	finishing context.Context
}

// newRunContext returns the context of a run with the options o, which
// reports to stdout and stderr; finish is canceled at a second interrupt.
func newRunContext(o common, stdout, stderr io.Writer, finish context.Context) *runContext {
	return &runContext{common: o, rep: newReporter(stdout, stderr, o.json, o.verbose), env: os.Environ(), finishing: finish,
		suggest: func(string) string { return "" }}
}

// holding returns the files that hold the failures go test -fuzz found,
// relative, in order: the results written and the fuzzer's own entries
// that are still there (already minimal, or not minimized).
func (c *runContext) holding(fuzzFound []string) []string {
	var ps []string
	for p := range c.written {
		ps = append(ps, c.rel(p))
	}
	for _, p := range fuzzFound {
		if _, err := os.Lstat(p); err == nil {
			ps = append(ps, c.rel(p))
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
func (c *runContext) interrupted(saved string) {
	switch {
	case c.finishContext().Err() != nil:
		c.rep.errorf("interrupted twice; the entry being minimized was left as it was")
	case saved != "":
		c.rep.errorf("interrupted; %s", saved)
	default:
		c.rep.errorf("interrupted; the entry being minimized was left as it was")
	}
	c.fail(exitFailure)
}

// finishContext returns the context that verifying and writing a result
// use.
func (c *runContext) finishContext() context.Context {
	if c.finishing == nil {
		return context.Background()
	}
	return c.finishing
}

// fail raises the exit code to code.
func (c *runContext) fail(code int) {
	c.exit = max(c.exit, code)
}

// eachPackage does work on each package in turn, with a directory of its
// own for its files, until an interrupt, and returns what the work said
// of the entry an interrupt came during.
func (c *runContext) eachPackage(ctx context.Context, pkgs []*pkg, work func(ctx context.Context, p *pkg, tmp string) string) (saved string) {
	for i, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		saved = work(ctx, p, filepath.Join(c.disk.path, fmt.Sprint(i)))
	}
	return saved
}

// savesNothing is the work on a package of a command whose results an
// interrupt cannot catch half written (check, cmin), for eachPackage.
func savesNothing(work func(ctx context.Context, p *pkg, tmp string)) func(context.Context, *pkg, string) string {
	return func(ctx context.Context, p *pkg, tmp string) string {
		work(ctx, p, tmp)
		return ""
	}
}

// ended says how the work ended: interrupted (saved is what the result
// of the entry the interrupt came during became), or, if m's -run selected
// nothing and all went well, so.
func (c *runContext) ended(ctx context.Context, saved string, m *matcher) {
	switch {
	case ctx.Err() != nil:
		c.interrupted(saved)
	case c.matched == 0 && m.pattern != "" && c.exit == exitOK:
		c.rep.infof("fuzzmin: no fuzz target or corpus entry matches -run=%s", m.pattern)
	}
}

// What a command touches, which withPackages checks before any work.
type touches int

const (
	writesSeeds touches = 1 << iota // the seed corpora: they must be the main module's, and not lead out of it
	writesCache                     // the generated corpora: they must not lead out of the fuzz cache
)

// withPackages does what every run of the command does around its work
// (the subcommands' too): it makes the scratch directories, loads the
// packages matching patterns while it asks the go command for its
// directories, refuses packages that are not fuzzmin's to write, and then
// calls work with the packages. It returns the exit code.
func (c *runContext) withPackages(ctx context.Context, patterns []string, t touches, m *matcher, work func(pkgs []*pkg)) int {
	c.written = map[string]string{}
	if err := c.makeScratch(envValue(c.env, "GOTMPDIR")); err != nil {
		c.rep.errorf("%v", err)
		return exitFailure
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
	pkgs, err := loadPackages(c.dir, c.env, c.tags, patterns)
	if err := <-envErr; err != nil {
		c.rep.errorf("%v", err)
		return exitFailure
	}
	if err != nil {
		if msg := c.suggest(patterns[0]); msg != "" {
			c.rep.errorf("%s", msg)
		} else {
			c.rep.errorf("%v", err)
		}
		return exitUsage
	}
	vars := append(strings.SplitN(envOut, "\n", 5), "", "", "", "") // one line each, empty ones too
	c.goenv = goEnv{root: vars[0], modcache: vars[1], cache: vars[2], version: vars[3]}
	if t&writesSeeds != 0 && (c.refuse(pkgs) || c.refuseLinks(pkgs, m, t&writesCache != 0)) {
		return exitUsage
	}
	work(pkgs)
	return c.exit
}

// envValue returns the value of the variable key in env, the last one set.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// note prints a line once per run.
func (c *runContext) note(line string) {
	if c.once(line) {
		c.rep.infof("%s", line)
	}
}

// verboseNote prints a line under -v, once per run.
func (c *runContext) verboseNote(line string) {
	if c.verbose && c.once(line) {
		c.rep.verbosef("%s", line)
	}
}

// once reports whether line is new to the run's notes, and records it.
func (c *runContext) once(line string) bool { return c.noted.add(line) }

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

// rel shortens a path for messages: relative to the working directory when
// it is below it.
func (c *runContext) rel(path string) string {
	wd, err := os.Getwd()
	if c.dir != "" {
		wd, err = filepath.Abs(c.dir)
	}
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// relErr shortens the absolute paths in an error message.
func (c *runContext) relErr(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, ": "); i > 0 && filepath.IsAbs(msg[:i]) {
		return c.rel(msg[:i]) + msg[i:]
	}
	return msg
}

// abs undoes rel: it returns path, which rel may have made relative, as
// an absolute path; "" stays "".
func (c *runContext) abs(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if a, err := filepath.Abs(filepath.Join(c.dir, path)); err == nil {
		return a
	}
	return path
}
