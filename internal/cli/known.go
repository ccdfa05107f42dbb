package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// knownName is the file of a module's known failures, at its root.
const knownName = "fuzzmin-known.txt"

// knownHeader starts a file of known failures that fuzzmin creates.
const knownHeader = `# Failures this module knows and accepts for now, one a line as fuzzmin
# reports them: kind, message, and position (panic: boom at parse.go:41).
# fuzzmin fuzz counts them instead of reporting them as new, and fuzzmin
# check warns of their entries instead of failing. Add one with
# fuzzmin known -run=Target/entry ./package; remove its line once it is
# fixed. Lines that start with # are comments.
`

// knownFailures are the failures a file lists.
type knownFailures struct {
	path string
	sigs map[string]bool // by Signature.String()
	// masked are the lines whose message was masked (… for each value),
	// as versions before message templates wrote every line: such a line
	// lists a failure whose text fits it, … standing for any text.
	masked []*regexp.Regexp
}

// readKnown reads a file of known failures, lines of any length; a file
// that does not exist lists none. A path that is not a regular file is an
// error that names it.
func readKnown(path string) (*knownFailures, error) {
	k := &knownFailures{path: path, sigs: map[string]bool{}}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return k, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the known failures: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file of known failures (it is %s); move it away, or name another with -known", path, fileKind(fi.Mode()))
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			k.sigs[line] = true
			if strings.Contains(line, "…") {
				k.masked = append(k.masked, maskedLine(line))
			}
		}
		if err == io.EOF {
			return k, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", path, err)
		}
	}
}

// readKnownFiles reads the known failures of the modules of pkgs before
// any work, and reports whether every file could be read: a campaign or a
// check that cannot tell a known failure from a new one does not start.
func (c *command) readKnownFiles(pkgs []*pkg) bool {
	ok := true
	for _, p := range pkgs {
		if _, err := c.knownOf(p.ModuleDir); err != nil {
			c.rep.errorf("%v", err)
			c.fail(exitUsage)
			ok = false
		}
	}
	return ok
}

// has reports whether the file lists sig.
func (k *knownFailures) has(sig failure.Signature) bool {
	if k == nil {
		return false
	}
	s := sig.String()
	return k.sigs[s] || slices.ContainsFunc(k.masked, func(re *regexp.Regexp) bool { return re.MatchString(s) })
}

// maskedLine returns the pattern of a line with masked values.
func maskedLine(line string) *regexp.Regexp {
	parts := strings.Split(line, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`^(?s)` + strings.Join(parts, ".*") + `$`)
}

// add appends sig to the file, after a comment line, unless it is listed;
// it creates the file, with its header, if need be. It reports whether it
// added it.
func (k *knownFailures) add(sig failure.Signature, comment string) (bool, error) {
	if k.has(sig) {
		return false, nil
	}
	var b strings.Builder
	if _, err := os.Stat(k.path); errors.Is(err, fs.ErrNotExist) {
		b.WriteString(knownHeader)
	}
	fmt.Fprintf(&b, "\n# %s\n%s\n", comment, sig)
	if err := appendFile(k.path, b.String()); err != nil {
		return false, err
	}
	k.sigs[sig.String()] = true
	return true, nil
}

// A knownRead is what reading a file of known failures gave.
type knownRead struct {
	known *knownFailures
	err   error
}

// knownOf returns the known failures of the module at modDir: those of
// -known's file if it is set, else of the module's own file. Each file is
// read once a run.
func (c *command) knownOf(modDir string) (*knownFailures, error) {
	path := c.opts.known
	if path == "" {
		path = filepath.Join(modDir, knownName)
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(c.opts.dir, path)
	}
	if k, ok := c.knownFiles[path]; ok {
		return k.known, k.err
	}
	k, err := readKnown(path)
	if c.knownFiles == nil {
		c.knownFiles = map[string]knownRead{}
	}
	c.knownFiles[path] = knownRead{k, err} // an error too is said once
	return k, err
}

// addKnown is fuzzmin known: it replays the entries -run selects and adds
// the failure of each that fails to the known failures of its module.
func (c *command) addKnown(ctx context.Context, patterns []string) int {
	if c.match.entry == nil {
		c.rep.errorf("known: -run Target/entry names the entries whose failures to add")
		return exitUsage
	}
	return c.withPackages(ctx, patterns, 0, func(pkgs []*pkg) {
		if !c.readKnownFiles(pkgs) {
			return
		}
		c.ended(ctx, c.eachPackage(ctx, pkgs, savesNothing(c.knownPackage)))
	})
}

// knownPackage adds the failures of p's selected entries to the known
// failures of its module.
func (c *command) knownPackage(ctx context.Context, p *pkg, tmp string) {
	jobs := c.selectEntries(ctx, p, forCheck, c.match)
	if len(jobs) == 0 {
		return
	}
	known, err := c.knownOf(p.ModuleDir)
	if err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitFailure)
		return
	}
	b, ok := c.build(ctx, p, tmp, targetNames(jobs))
	if !ok {
		return
	}
	defer b.finish(ctx)
	for i, tj := range jobs {
		r, err := b.bin.Runner(tj.target.Name, filepath.Join(tmp, fmt.Sprint("work", i)))
		if err != nil {
			c.rep.errorf("%s: %v", p.ImportPath, err)
			c.fail(exitFailure)
			return
		}
		valid := validEntries(tj.entries)
		rep := c.replayAll(ctx, r, valid, c.shaperOf(ctx, p))
		r.Close()
		if rep.err != nil {
			c.rep.errorf("%s %s: %v", p.ImportPath, tj.target.Name, rep.err)
			c.fail(exitFailure)
			return
		}
		for _, e := range valid {
			name := tj.target.Name + "/" + e.Name
			sig := rep.sigs[e.Name]
			if !sig.Failed() {
				c.rep.infof("%s: passes; nothing to add", name)
				continue
			}
			added, err := known.add(sig, fmt.Sprintf("%s %s, added %s", p.ImportPath, name, time.Now().Format(time.DateOnly)))
			switch {
			case err != nil:
				c.rep.errorf("%s: %v", c.rel(known.path), err)
				c.fail(exitFailure)
				return
			case added:
				c.rep.infof("%s: added to %s: %v", name, c.rel(known.path), sig)
			default:
				c.rep.infof("%s: %s already lists %v", name, c.rel(known.path), sig)
			}
		}
	}
}

// knownFlags returns fuzzmin known's flags, bound to o.
func knownFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin known", flag.ContinueOnError)
	o.addBuildFlags(fs)
	fs.StringVar(&o.run, "run", o.run, "The entries whose failures to add, as `Target/entry` (regular expressions, as for go test -run).")
	fs.StringVar(&o.known, "known", o.known, "Add to `file` instead of "+knownName+" at the root of the package's module.")
	o.addRunFlags(fs, "one target's entries each.", true)
	o.addOutputFlags(fs, false)
	return fs
}
