package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// Besides the seed corpus entries, go test replays two things that fail it
// as surely: the f.Add seeds of each fuzz target (subtests seed#0,
// seed#1, …), and the failures fuzzshrink.Check saved for an ordinary
// test in testdata/fuzz/TestXxx, which the test replays first. fuzzmin
// check runs both through go test's own run of the package, as go test
// would, and reports each that fails.

// A goTestCheck is one such run: the seeds of a target, or a test that
// replays what Check saved.
type goTestCheck struct {
	target *Target // the seeds of target; nil for a test
	test   string  // the test, TestXxx
	check  testbin.Check
}

// goTestChecks returns the runs of p's seeds and saved tests that -run and
// -shard select, as m has them.
func (c *Run) goTestChecks(p *Package, m *Matcher) []goTestCheck {
	timeout := 2*c.ExecTimeout + 30*time.Second
	var checks []goTestCheck
	for _, t := range p.Targets {
		if m.MatchTarget(t.Name) && m.Shard.Has(p.ImportPath, t.Name, "seed#") {
			checks = append(checks, goTestCheck{target: t, check: testbin.Check{Target: t.Name,
				Run: "^" + t.Name + "$/^seed#[0-9]+$", Timeout: timeout, MemLimit: int64(c.MemLimit)}})
		}
	}
	dirs, _ := corpus.Targets(p.Dir) // an error is reported with the entries
	for _, name := range dirs {
		if !isTestName(name) || !m.MatchTarget(name) || !m.Shard.Has(p.ImportPath, name, "") {
			continue
		}
		entries, _ := corpus.Read(corpus.SeedCorpus(p.Dir, name))
		c.matched += len(entries)
		checks = append(checks, goTestCheck{test: name, check: testbin.Check{Target: name,
			Run: "^" + name + "$", Env: []string{session.ReplayEnv + "=1"}, Timeout: timeout, MemLimit: int64(c.MemLimit)}})
	}
	return checks
}

// checkGoTest runs the checks through go test's run of the package and
// reports what fails, annotated if github (annotationFile).
func (c *Run) checkGoTest(ctx context.Context, p *Package, b *built, checks []goTestCheck, github bool) {
	if len(checks) == 0 || ctx.Err() != nil {
		return
	}
	runs := make([]testbin.Check, len(checks))
	for i, gc := range checks {
		runs[i] = gc.check
	}
	outs, err := b.s.Check(ctx, runs)
	if err != nil {
		if ctx.Err() == nil {
			c.Rep.Errorf("%s: %v", p.ImportPath, err)
			c.Fail(ExitFailure)
		}
		return
	}
	// The message as the test printed it, as for entries.
	shown := func(_ failure.Signature, msg string) string { return preview(msg) }
	for i, gc := range checks {
		var fs []finding
		if gc.target != nil {
			prefix := gc.target.Name + "/seed#"
			for _, o := range testbin.ParseTests(outs[i], b.bin.Toolchain, func(n string) bool { return strings.HasPrefix(n, prefix) }, shown) {
				if o.Sig.Failed() {
					fs = append(fs, finding{Path: c.Rel(gc.target.File), Line: gc.target.Line, Level: "error", test: o.Name,
						Message: fmt.Sprintf("fails: the f.Add seed #%s of %s: %v", strings.TrimPrefix(o.Name, prefix), gc.target.Name, o.Sig)})
				}
			}
		} else {
			fs = c.replayFindings(p, gc.test, outs[i], b.bin.Toolchain, shown)
		}
		for _, f := range fs {
			c.Rep.finding(p.ImportPath, f, c.annotationFile(f.Path, github))
			c.Fail(ExitFailure)
		}
	}
}

// replayFindings reads the run of a test that replayed what
// fuzzshrink.Check saved (session.ReplayEnv): a finding for each saved
// failure that still fails, or for the test itself if it failed without
// saying which.
func (c *Run) replayFindings(p *Package, test string, out testbin.CheckOutput, tc *testbin.Toolchain, shown func(failure.Signature, string) string) []finding {
	var fs []finding
	for _, l := range bytes.Split(out.Out, []byte("\n")) {
		_, rest, ok := bytes.Cut(l, []byte(session.ReplayMark))
		if !ok {
			continue
		}
		// Go 1.27 frames an error line with control bytes; none is part
		// of a path or a signature's text.
		rest = bytes.TrimRightFunc(rest, func(r rune) bool { return r < ' ' })
		path, sig, ok := strings.Cut(string(rest), ": ")
		if !ok {
			continue
		}
		name := filepath.Base(path)
		fs = append(fs, finding{Path: c.Rel(filepath.Join(corpus.SeedCorpus(p.Dir, test), name)), Line: 1, Level: "error", test: test + "/" + name,
			Message: fmt.Sprintf("fails: %s (fuzzshrink.Check saved it; %s replays it first)", sig, test)})
	}
	if len(fs) > 0 {
		return fs
	}
	for _, o := range testbin.ParseTests(out, tc, func(n string) bool { return n == test }, shown) {
		if o.Sig.Failed() {
			fs = append(fs, finding{Path: c.Rel(corpus.SeedCorpus(p.Dir, test)), Level: "error", test: test,
				Message: fmt.Sprintf("%s, which replays this directory, fails: %v", test, o.Sig)})
		}
	}
	return fs
}
