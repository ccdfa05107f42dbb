package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// fuzzmin check replays every entry of the seed corpora, as go test does,
// but reports every problem in one pass instead of stopping at the first:
// go test refuses a whole target at its first malformed file. Each finding
// is a line "path:line: message"; with -json an event; in GitHub Actions
// also an annotation on the pull request.

// A finding is one problem of one corpus file.
type finding struct {
	Path    string
	Line    int
	Level   string // "error": go test fails on it; "warning": it does not
	Message string
	test    string // Target/entry
}

// Checking is what the check stage serves: the entries m selects, and
// what check's flags ask of them.
type Checking struct {
	Match   *Matcher
	Search  SearchOptions // of -minimal's searches
	Minimal bool          // also a bounded search of each failing entry
	Github  bool          // annotations
}

// checkPackage builds p's test binary and checks the entries of its
// targets that ck selects.
func (c *Run) checkPackage(ctx context.Context, p *Package, tmp string, ck *Checking) {
	jobs := c.SelectEntries(ctx, p, Selecting{Purpose: forCheck, searches: ck.Minimal}, ck.Match)
	c.orphanFindings(p, ck)
	others := c.goTestChecks(p, ck.Match)
	if len(jobs) == 0 && len(others) == 0 {
		return
	}
	b, ok := c.Build(ctx, p, tmp, TargetNames(jobs))
	if !ok {
		return
	}
	defer b.finish(ctx)
	runners := make([]*testbin.Runner, len(jobs))
	for i, tj := range jobs {
		made := []**testbin.Runner{&runners[i]}
		tj.search = ck.Search
		if ck.Minimal {
			made = append(made, &tj.probe) // where -minimal's searches run the zero input
		}
		var err error
		for k, r := range made {
			if *r, err = b.bin.Runner(tj.target.Name, filepath.Join(tmp, fmt.Sprint("work", i, "-", k))); err != nil {
				c.Rep.Errorf("%s: %v", p.ImportPath, err)
				c.Fail(ExitFailure)
				return
			}
			defer (*r).Close() // -minimal's searches may start a fuzz worker
		}
	}
	// Replay the targets' corpora on -p processes at once, then judge
	// them in order.
	replays := make([]replay, len(jobs))
	var wg sync.WaitGroup
	w := max(1, min(c.Procs, len(jobs)))
	for k := range w {
		wg.Go(func() {
			for i := k; i < len(jobs) && ctx.Err() == nil; i += w {
				replays[i] = c.replayAll(ctx, runners[i], validEntries(jobs[i].Entries), c.shaperOf(ctx, p))
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return
	}
	for i, tj := range jobs {
		if err := replays[i].err; err != nil {
			c.Rep.Errorf("%s %s: %v", p.ImportPath, tj.target.Name, err)
			c.Fail(ExitFailure)
			return
		}
		for _, f := range c.checkTarget(ctx, p, tj, runners[i], replays[i], ck.Minimal) {
			c.Rep.finding(p.ImportPath, f, c.annotationFile(f.Path, ck.Github))
			c.Fail(ExitFailure)
		}
	}
	c.checkGoTest(ctx, p, b, others, ck.Github)
}

// orphanFindings reports the seed corpora of p that ck selects whose fuzz
// target is gone: their entries are regression tests that go test no
// longer runs.
func (c *Run) orphanFindings(p *Package, ck *Checking) {
	orphans, err := c.orphans(p, ck.Match)
	if err != nil {
		return // SelectEntries reported it
	}
	for _, t := range orphans {
		dir := corpus.SeedCorpus(p.Dir, t)
		entries, _ := corpus.Read(dir)
		f := finding{Path: c.Rel(dir), Level: "error", test: t,
			Message: fmt.Sprintf("orphaned: %s has no fuzz target %s, so go test never runs its %s (was the target renamed? move them, or remove the directory)",
				p.ImportPath, t, Plural(len(entries), "entry", "entries"))}
		c.Rep.finding(p.ImportPath, f, c.annotationFile(f.Path, ck.Github))
		c.Fail(ExitFailure)
	}
}

// annotationFile returns the file a GitHub annotation of a finding in
// path (as c.rel gives it) names, or "" if findings are not annotations
// (github, -github, or GITHUB_ACTIONS=true). GitHub places an annotation by the
// file's path from the root of the work space (GITHUB_WORKSPACE), which is
// not the module's directory when the module is in a subdirectory of the
// repository (the action's working-directory).
func (c *Run) annotationFile(path string, github bool) string {
	if !github && os.Getenv("GITHUB_ACTIONS") != "true" {
		return ""
	}
	if ws := os.Getenv("GITHUB_WORKSPACE"); ws != "" {
		abs := path
		if !filepath.IsAbs(abs) {
			base, err := filepath.Abs(c.Dir) // as c.rel has it: -C, or the working directory
			if err != nil {
				return filepath.ToSlash(path)
			}
			abs = filepath.Join(base, path)
		}
		for _, p := range []*string{&abs, &ws} {
			if r, err := filepath.EvalSymlinks(*p); err == nil {
				*p = r
			}
		}
		if r, err := filepath.Rel(ws, abs); err == nil && !strings.HasPrefix(r, "..") {
			path = r
		}
	}
	return filepath.ToSlash(path)
}

// checkTarget returns the findings of one target, whose valid entries
// replayed as rep, in the order of the entries' names; with minimal, a
// failing entry's says whether a bounded search shrinks it.
func (c *Run) checkTarget(ctx context.Context, p *Package, tj *TargetJob, r *testbin.Runner, rep replay, minimal bool) []finding {
	byName := map[string][]finding{}
	add := func(name string, f finding) {
		f.test = tj.target.Name + "/" + name
		byName[name] = append(byName[name], f)
	}
	for _, e := range tj.Entries {
		if e.Err != nil {
			path, line, msg := splitEntryErr(e)
			add(e.Name, finding{Path: c.Rel(path), Line: line, Level: "error", Message: "malformed: " + msg})
		}
	}
	valid := validEntries(tj.Entries)
	for _, group := range duplicates(valid) {
		for _, e := range group[1:] {
			add(e.Name, finding{Path: c.Rel(e.Path), Line: 1, Level: "warning", Message: "duplicate: the same values as " + group[0].Name})
		}
	}
	known, err := c.KnownOf(p.ModuleDir, "")
	if err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(ExitFailure)
	}
	for _, e := range valid {
		// -minimal's search writes nothing.
		j := &entryJob{pkg: p, tj: tj, target: tj.target, entry: e, runner: r, runners: []*testbin.Runner{r}, probe: tj.probe, dryRun: true}
		switch sig, ok := rep.sigs[e.Name]; {
		case rep.stale[e.Name] != "":
			add(e.Name, c.staleFinding(rep.stale[e.Name], j))
		case ok && known.Has(sig):
			c.Rep.Infof("%s: fails as %s lists, a known failure: %v", c.Rel(e.Path), c.Rel(known.Path), sig)
		case ok && sig.Failed():
			// The message as the test printed it; the identity masks it.
			shown := sig
			if msg := rep.msgs[e.Name]; msg != "" && sig.Text != "" {
				shown.Text = preview(msg)
			}
			f := finding{Path: c.Rel(e.Path), Line: 1, Level: "error", Message: "fails: " + shown.String()}
			if minimal {
				f.Message += c.couldShrink(ctx, j)
			}
			add(e.Name, f)
		}
	}
	var out []finding
	for _, e := range tj.Entries {
		out = append(out, byName[e.Name]...)
	}
	return out
}

// validEntries returns the entries that are not malformed.
func validEntries(entries []corpus.Entry) []corpus.Entry {
	var valid []corpus.Entry
	for _, e := range entries {
		if e.Err == nil {
			valid = append(valid, e)
		}
	}
	return valid
}

// splitEntryErr splits the error of a malformed entry, "path:line: reason"
// or "path: reason", into its parts.
func splitEntryErr(e corpus.Entry) (path string, line int, msg string) {
	rest := strings.TrimPrefix(e.Err.Error(), e.Path)
	if m := lineRE.FindStringSubmatch(rest); m != nil {
		line, _ = strconv.Atoi(m[1])
		return e.Path, line, m[2]
	}
	return e.Path, 1, strings.TrimPrefix(rest, ": ")
}

var lineRE = regexp.MustCompile(`^:(\d+): (.*)$`)

// staleFinding turns the toolchain's complaint about an entry into a
// finding at its line.
func (c *Run) staleFinding(msg string, j *entryJob) finding {
	line, reason, ok := testbin.Stale(msg, j.entry.Values)
	if !ok {
		line, reason = 1, msg
	}
	return finding{Path: c.Rel(j.entry.Path), Line: line, Level: "error", Message: "stale: " + reason}
}

// couldShrink runs a bounded search on a failing entry, writing nothing,
// and says what it found.
func (c *Run) couldShrink(ctx context.Context, j *entryJob) string {
	res := c.minimizeEntry(ctx, j)
	if res.Status == statusWould {
		return fmt.Sprintf("; a search of %d runs shrinks it from %d to %d bytes: run %s", res.Runs, res.Before, res.After, c.fuzzminCommand(j))
	}
	return ""
}

// A replay is how the entries of a target ran.
type replay struct {
	sigs  map[string]failure.Signature // by entry name: how it fails
	msgs  map[string]string            // by entry name: its failure's message as it was, not masked
	stale map[string]string            // by entry name: why the toolchain refused it
	err   error
}

// replayAll runs the entries in as few processes as crashes allow, giving
// their failures identities by shaper, one for the target's entries.
func (c *Run) replayAll(ctx context.Context, r *testbin.Runner, entries []corpus.Entry, shaper *failure.Shaper) replay {
	sigs, msgs, stale := map[string]failure.Signature{}, map[string]string{}, map[string]string{}
	todo := entries
	for len(todo) > 0 {
		files := make([][]byte, len(todo))
		for i, e := range todo {
			files[i] = e.Data
		}
		shape := func(i int, sig failure.Signature, msg string) string {
			msgs[todo[i].Name] = msg
			return shaper.Shape(sig, msg, todo[i].Values)
		}
		res, err := r.Run(ctx, files, testbin.Judge{Shape: shape})
		if err != nil {
			return replay{err: err}
		}
		if len(res.Outcomes) == 0 {
			// The toolchain refused files of the batch: name them, and
			// run the others again.
			refused := r.Refused(res.Stales)
			if len(refused) == 0 {
				return replay{err: fmt.Errorf("the test binary ran no entry; it said:\n%s", res.Tail)}
			}
			var rest []corpus.Entry
			for i, e := range todo {
				if msg, ok := refused[i]; ok {
					stale[e.Name] = msg
				} else {
					rest = append(rest, e)
				}
			}
			todo = rest
			continue
		}
		for i, sig := range res.Outcomes {
			sigs[todo[i].Name] = sig
		}
		todo = todo[len(res.Outcomes):]
	}
	return replay{sigs: sigs, msgs: msgs, stale: stale}
}

// duplicates returns the groups of valid entries that hold the same values
// (bit for bit) under different names, each group sorted by name.
func duplicates(entries []corpus.Entry) [][]corpus.Entry {
	groups := map[string][]corpus.Entry{}
	var keys []string
	for _, e := range entries {
		if e.Err != nil {
			continue
		}
		k, err := encoding.Marshal(e.Values...)
		if err != nil {
			continue // no values: nothing to compare
		}
		if _, ok := groups[string(k)]; !ok {
			keys = append(keys, string(k))
		}
		groups[string(k)] = append(groups[string(k)], e)
	}
	var dups [][]corpus.Entry
	for _, k := range keys {
		if g := groups[k]; len(g) > 1 {
			sort.Slice(g, func(i, j int) bool { return g[i].Name < g[j].Name })
			dups = append(dups, g)
		}
	}
	return dups
}

// Check is fuzzmin check: it replays the corpora and what else go test
// replays of the targets ck selects, and reports what it finds.
func (c *Run) Check(ctx context.Context, patterns []string, ck *Checking) int {
	return c.WithPackages(ctx, patterns, 0, ck.Match, func(pkgs []*Package) {
		if !c.ReadKnownFiles(pkgs, "") {
			return
		}
		c.ended(ctx, c.eachPackage(ctx, pkgs, savesNothing(func(ctx context.Context, p *Package, tmp string) {
			c.checkPackage(ctx, p, tmp, ck)
		})), ck.Match)
		c.Rep.checkSummary(c.matched)
	})
}
