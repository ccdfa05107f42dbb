package pipeline

import (
	"bufio"
	"context"
	"errors"
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

// KnownName is the file of a module's known failures, at its root.
const KnownName = "fuzzmin-known.txt"

// knownHeader starts a file of known failures that fuzzmin creates.
const knownHeader = `# Failures this module knows and accepts for now, one a line as fuzzmin
# reports them: kind, message, and position (panic: boom at parse.go:41).
# fuzzmin fuzz counts them instead of reporting them as new, and fuzzmin
# check warns of their entries instead of failing. Add one with
# fuzzmin known -run=Target/entry ./package; remove its line once it is
# fixed. Lines that start with # are comments.
`

// KnownFailures are the failures a file lists.
type KnownFailures struct {
	Path string
	sigs map[string]bool // by Signature.String()
	// masked are the lines whose message was masked (… for each value),
	// as versions before message templates wrote every line: such a line
	// lists a failure whose text fits it, … standing for any text.
	masked []*regexp.Regexp
}

// readKnown reads a file of known failures, lines of any length; a file
// that does not exist lists none. A path that is not a regular file is an
// error that names it.
func readKnown(path string) (*KnownFailures, error) {
	k := &KnownFailures{Path: path, sigs: map[string]bool{}}
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

// ReadKnownFiles reads the known failures of the modules of pkgs, or of
// file if it is set (knownOf), before any work, and reports whether every
// file could be read: a campaign or a check that cannot tell a known
// failure from a new one does not start.
func (c *Run) ReadKnownFiles(pkgs []*Package, file string) bool {
	ok := true
	for _, p := range pkgs {
		if _, err := c.KnownOf(p.ModuleDir, file); err != nil {
			c.Rep.Errorf("%v", err)
			c.Fail(ExitUsage)
			ok = false
		}
	}
	return ok
}

// Has reports whether the file lists sig.
func (k *KnownFailures) Has(sig failure.Signature) bool {
	if k == nil {
		return false
	}
	s := sig.String()
	return k.sigs[s] || slices.ContainsFunc(k.masked, func(re *regexp.Regexp) bool { return re.MatchString(s) })
}

// Empty reports whether the file lists no failure (or there is none).
func (k *KnownFailures) Empty() bool { return k == nil || len(k.sigs) == 0 }

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
func (k *KnownFailures) add(sig failure.Signature, comment string) (bool, error) {
	if k.Has(sig) {
		return false, nil
	}
	var b strings.Builder
	if _, err := os.Stat(k.Path); errors.Is(err, fs.ErrNotExist) {
		b.WriteString(knownHeader)
	}
	fmt.Fprintf(&b, "\n# %s\n%s\n", comment, sig)
	if err := AppendFile(k.Path, b.String()); err != nil {
		return false, err
	}
	k.sigs[sig.String()] = true
	return true, nil
}

// A knownRead is what reading a file of known failures gave.
type knownRead struct {
	known *KnownFailures
	err   error
}

// KnownOf returns the known failures of the module at modDir: those of
// file (-known) if it is set, else of the module's own file. Each file is
// read once a run.
func (c *Run) KnownOf(modDir, file string) (*KnownFailures, error) {
	path := file
	if path == "" {
		path = filepath.Join(modDir, KnownName)
	} else if !filepath.IsAbs(path) {
		path = filepath.Join(c.Dir, path)
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

// knownPackage adds the failures of p's entries that m selects to the
// known failures of its module, or of file if it is set.
func (c *Run) knownPackage(ctx context.Context, p *Package, tmp string, m *Matcher, file string) {
	jobs := c.SelectEntries(ctx, p, Selecting{Purpose: forCheck}, m)
	if len(jobs) == 0 {
		return
	}
	known, err := c.KnownOf(p.ModuleDir, file)
	if err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(ExitFailure)
		return
	}
	b, ok := c.Build(ctx, p, tmp, TargetNames(jobs))
	if !ok {
		return
	}
	defer b.finish(ctx)
	for i, tj := range jobs {
		r, err := b.bin.Runner(tj.target.Name, filepath.Join(tmp, fmt.Sprint("work", i)))
		if err != nil {
			c.Rep.Errorf("%s: %v", p.ImportPath, err)
			c.Fail(ExitFailure)
			return
		}
		valid := validEntries(tj.Entries)
		rep := c.replayAll(ctx, r, valid, c.shaperOf(ctx, p))
		r.Close()
		if rep.err != nil {
			c.Rep.Errorf("%s %s: %v", p.ImportPath, tj.target.Name, rep.err)
			c.Fail(ExitFailure)
			return
		}
		for _, e := range valid {
			name := tj.target.Name + "/" + e.Name
			sig := rep.sigs[e.Name]
			if !sig.Failed() {
				c.Rep.Infof("%s: passes; nothing to add", name)
				continue
			}
			added, err := known.add(sig, fmt.Sprintf("%s %s, added %s", p.ImportPath, name, time.Now().Format(time.DateOnly)))
			switch {
			case err != nil:
				c.Rep.Errorf("%s: %v", c.Rel(known.Path), err)
				c.Fail(ExitFailure)
				return
			case added:
				c.Rep.Infof("%s: added to %s: %v", name, c.Rel(known.Path), sig)
			default:
				c.Rep.Infof("%s: %s already lists %v", name, c.Rel(known.Path), sig)
			}
		}
	}
}

// AppendFile appends text to the file at path, creating it if need be.
func AppendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// AddKnown is fuzzmin known: it replays the entries m selects and adds
// the failure of each that fails to the known failures of its module, or
// of file if it is set.
func (c *Run) AddKnown(ctx context.Context, patterns []string, m *Matcher, file string) int {
	if m.entry == nil {
		c.Rep.Errorf("known: -run Target/entry names the entries whose failures to add")
		return ExitUsage
	}
	return c.WithPackages(ctx, patterns, 0, m, func(pkgs []*Package) {
		if !c.ReadKnownFiles(pkgs, file) {
			return
		}
		c.ended(ctx, c.eachPackage(ctx, pkgs, savesNothing(func(ctx context.Context, p *Package, tmp string) {
			c.knownPackage(ctx, p, tmp, m, file)
		})), m)
	})
}
