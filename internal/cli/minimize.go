package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// replays is how many times the original is run before shrinking: a
// failure that does not repeat the same way is flaky.
const replays = 2

// minimizePackage builds the package's test binary once and minimizes the
// selected failing entries of its targets.
func (s *session) minimizePackage(ctx context.Context, p *pkg, tmp string) {
	type job struct {
		target  string
		entries []corpus.Entry
	}
	var jobs []job
	seedTargets, err := corpus.Targets(p.Dir)
	if err != nil {
		s.rep.errorf("%s: %v", p.ImportPath, err)
		s.fail(exitFailure)
		return
	}
	for _, t := range seedTargets {
		if !slices.Contains(p.Targets, t) && s.match.matchTarget(t) {
			s.rep.infof("%s: %s has no fuzz target %s; left alone", p.ImportPath, s.rel(corpus.SeedCorpus(p.Dir, t)), t)
		}
	}
	for _, t := range p.Targets {
		if !s.match.matchTarget(t) {
			continue
		}
		dir := corpus.SeedCorpus(p.Dir, t)
		all, err := corpus.Read(dir)
		if err != nil {
			s.rep.errorf("%s: %v", t, err)
			s.fail(exitFailure)
			continue
		}
		var entries []corpus.Entry
		for _, e := range all {
			switch {
			case !s.match.matchEntry(e.Name):
			case errors.Is(e.Err, corpus.ErrIsDir):
				s.rep.infof("%s/%s: skipped: %s", t, e.Name, corpus.ErrIsDir)
			default:
				entries = append(entries, e)
			}
		}
		s.matched += len(entries)
		if len(entries) == 0 {
			s.rep.infof("%s %s: no corpus entries in %s", p.ImportPath, t, s.rel(dir))
			continue
		}
		jobs = append(jobs, job{t, entries})
	}
	if len(jobs) == 0 {
		if len(p.Targets) == 0 {
			s.rep.infof("?   \t%s\t[no fuzz targets]", p.ImportPath)
		}
		return
	}
	if !p.Writable && !s.opts.dryRun {
		s.rep.errorf("%s: not in the main module (%s): its testdata cannot be rewritten; run fuzzmin in its own module", p.ImportPath, p.Dir)
		s.fail(exitFailure)
		return
	}

	start := time.Now()
	bin := filepath.Join(tmp, "pkg.test")
	args := append([]string{"test", "-c", "-o", bin}, s.tagsFlag()...)
	if out, err := s.goCommand(ctx, append(args, p.ImportPath)...).CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return
		}
		s.rep.buildError(p.ImportPath, strings.TrimSpace(string(out)))
		s.fail(exitUsage)
		return
	}
	s.rep.built(p.ImportPath, time.Since(start))

	for i, j := range jobs {
		r, err := newRunner(bin, p.ModuleDir, p.Dir, filepath.Join(tmp, fmt.Sprint("work", i)), j.target, s.goroot, s.opts.execTimeout, s.env)
		if err != nil {
			s.rep.errorf("%s: %v", p.ImportPath, err)
			s.fail(exitFailure)
			return
		}
		defer r.close()
		for _, e := range j.entries {
			if ctx.Err() != nil {
				return
			}
			res := s.minimizeEntry(ctx, r, p, j.target, e)
			if ctx.Err() != nil {
				return
			}
			s.rep.result(res)
			if res.Status.failure() {
				s.fail(exitFailure)
			}
		}
	}
}

// status is the outcome of one entry.
type status string

const (
	statusMinimized status = "minimized" // replaced by a smaller, verified entry
	statusWould     status = "would-minimize"
	statusMinimal   status = "minimal"   // nothing smaller fails the same way
	statusStopped   status = "stopped"   // a budget ran out before anything smaller was found
	statusPasses    status = "passes"    // the entry does not fail
	statusMalformed status = "malformed" // not a corpus file the toolchain reads
	statusStale     status = "stale"     // its values no longer fit the target
	statusFlaky     status = "flaky"     // it does not fail the same way every time
	statusFailed    status = "failed"    // minimizing or verifying went wrong
)

func (s status) failure() bool {
	return s == statusMalformed || s == statusStale || s == statusFlaky || s == statusFailed
}

// entryResult is what became of one entry; it is also the -json event.
type entryResult struct {
	Package   string        `json:"package"`
	Target    string        `json:"target"`
	Entry     string        `json:"entry"`
	Status    status        `json:"status"`
	Signature signature     `json:"signature,omitzero"`
	Before    int           `json:"before,omitempty"` // file size in bytes
	After     int           `json:"after,omitempty"`
	Runs      int           `json:"runs,omitempty"`
	Elapsed   time.Duration `json:"elapsed,omitempty"`
	Stop      string        `json:"stop,omitempty"`  // why the search stopped
	Value     string        `json:"value,omitempty"` // the result as f.Add(...)
	Path      string        `json:"path,omitempty"`  // the file written
	Removed   string        `json:"removed,omitempty"`
	Others    []string      `json:"others,omitempty"` // distinct failures met on the way
	Error     string        `json:"error,omitempty"`
	Rerun     string        `json:"rerun,omitempty"` // how to run it with go test

	mismatch *signature // the other failure go test reproduced, if it did
}

func (s *session) minimizeEntry(ctx context.Context, r *runner, p *pkg, target string, e corpus.Entry) entryResult {
	res := entryResult{Package: p.ImportPath, Target: target, Entry: e.Name, Before: len(e.Data)}
	fail := func(st status, format string, args ...any) entryResult {
		res.Status, res.Error = st, fmt.Sprintf(format, args...)
		return res
	}
	if e.Err != nil {
		return fail(statusMalformed, "%s", s.relErr(e.Err))
	}
	start := time.Now()
	s.rep.start(p.ImportPath, target, e.Name)

	// Baseline: replay the original, in a fresh process each time.
	var sigs []signature
	for range replays {
		out, err := r.run(ctx, [][]byte{e.Data}, func(signature) bool { return false })
		switch {
		case err != nil:
			return fail(statusFailed, "%v", err)
		case out.stale != "":
			return fail(statusStale, "%s", s.staleReason(out.stale, target, e.Path))
		case len(out.outcomes) == 0:
			return fail(statusFailed, "the test binary ran no input for %s; it said:\n%s", target, out.tail)
		}
		sigs = append(sigs, out.outcomes[0])
	}
	want := sigs[0]
	res.Signature = want
	if !want.Failed() {
		res.Status = statusPasses
		return res
	}
	for _, sig := range sigs[1:] {
		if sig != want && !s.opts.flaky {
			return fail(statusFlaky, "first run: %v; then: %v (use -flaky to minimize against the first)", want, sig)
		}
	}

	var runs atomic.Int64
	progress := s.rep.progress(target+"/"+e.Name, len(e.Data), &runs)
	defer progress.done()
	if !r.wrapped() {
		out, err := s.shrinkOutOfProcess(ctx, r, e, want, &runs, progress)
		return s.finish(ctx, r, p, target, e, want, start, out, err, res)
	}
	out, err := s.shrinkInProcess(ctx, r, e, want, &runs, progress)
	if err == nil || ctx.Err() != nil {
		final := s.finish(ctx, r, p, target, e, want, start, out, err, res)
		if final.mismatch == nil {
			return final
		}
		// In the process, a t.Error is known by its kind alone (the
		// testing package keeps its position to itself), so the session
		// may have kept a candidate that fails at another t.Error, which
		// go test then told apart.
		err = fmt.Errorf("under go test its result fails with %v", *final.mismatch)
	}
	// Shrink the encoded arguments from outside instead, as for any target.
	res.Error = fmt.Sprintf("note: the in-process search gave no usable result (%v); the arguments were shrunk as encoded bytes instead", err)
	out, err = s.shrinkOutOfProcess(ctx, r, e, want, &runs, progress)
	return s.finish(ctx, r, p, target, e, want, start, out, err, res)
}

// finish reports what a search made of an entry and, unless it found
// nothing smaller or -n says not to, writes the result back.
func (s *session) finish(ctx context.Context, r *runner, p *pkg, target string, e corpus.Entry, want signature, start time.Time, out shrinkOutcome, err error, res entryResult) entryResult {
	res.Runs, res.Stop, res.Others = out.runs, out.stop, out.others
	slices.Sort(res.Others)
	if err != nil {
		res.Status, res.Error = statusFailed, err.Error()
		return res
	}
	if ctx.Err() != nil {
		return res
	}
	data := out.data
	res.After = len(data)
	res.Value = out.value
	res.Elapsed = time.Since(start)
	res.Rerun = fmt.Sprintf("go test -run=%s/%s %s", target, e.Name, p.ImportPath)
	if bytes.Equal(data, e.Data) {
		res.Status = statusMinimal
		if out.stop != fuzzshrink.StopDone.String() {
			res.Status = statusStopped
		}
		return res
	}
	dir := filepath.Dir(e.Path)
	name := corpus.Name(data)
	res.Path = s.rel(filepath.Join(dir, name))
	res.Rerun = fmt.Sprintf("go test -run=%s/%s %s", target, name, p.ImportPath)
	if s.opts.dryRun {
		res.Status = statusWould
		return res
	}
	return s.writeBack(ctx, r, p, target, e, data, want, res)
}

// writeBack writes the minimized entry, verifies it through go test, and
// only then removes the original: at every moment the directory holds the
// original or a verified replacement.
func (s *session) writeBack(ctx context.Context, r *runner, p *pkg, target string, e corpus.Entry, data []byte, want signature, res entryResult) entryResult {
	dir := filepath.Dir(e.Path)
	name := corpus.Name(data)
	_, statErr := os.Stat(filepath.Join(dir, name))
	existed := !errors.Is(statErr, fs.ErrNotExist)
	path, err := corpus.WriteFile(dir, data)
	if err != nil {
		res.Status, res.Error = statusFailed, fmt.Sprintf("writing the minimized entry: %v; %s is unchanged", s.relErr(err), s.rel(e.Path))
		return res
	}
	got, err := s.verify(ctx, p, target, name, want)
	var bad *badCorpusError
	if errors.As(err, &bad) {
		// go test runs no entry of the target while any is malformed or
		// stale; the same test binary, given the new entry alone, does.
		res.Error = fmt.Sprintf("note: go test refuses %s while it holds an entry it cannot read (%s); the minimized entry was verified with the package's test binary instead",
			s.rel(dir), s.staleReason(bad.msg, target, e.Path))
		got, err = signature{}, nil
		if out, rerr := r.run(ctx, [][]byte{data}, func(signature) bool { return false }); rerr != nil {
			err = rerr
		} else if len(out.outcomes) == 1 {
			got = out.outcomes[0]
		}
	}
	if err != nil || got != want {
		if !existed {
			os.Remove(path)
		}
		res.Status = statusFailed
		if err != nil {
			res.Error = fmt.Sprintf("verifying with go test: %v", err)
		} else {
			res.Error = fmt.Sprintf("go test does not reproduce the failure with the minimized entry: it reports %v, want %v; %s is unchanged", got, want, s.rel(e.Path))
			res.mismatch = &got
		}
		res.Path = ""
		return res
	}
	res.Status = statusMinimized
	if !s.opts.keep && path != e.Path {
		if err := corpus.Remove(e.Path); err != nil {
			res.Error = fmt.Sprintf("removing the original: %v", err)
		} else {
			res.Removed = s.rel(e.Path)
		}
	}
	return res
}

// verify runs one entry of the user's seed corpus through go test itself
// and returns how it fails. go test's -timeout is the per-input limit when
// the failure to reproduce is a timeout (the binary starts in well under
// it), and generous otherwise.
func (s *session) verify(ctx context.Context, p *pkg, target, name string, want signature) (signature, error) {
	timeout := 2*s.opts.execTimeout + 30*time.Second
	if want.Kind == kindTimeout {
		timeout = s.opts.execTimeout
	}
	run := "-run=^" + target + "$/^" + name + "$"
	if want.Kind == kindExit {
		// The exit status of the test binary shows only in go test's
		// plain output ("exit status 3"); test2json swallows it.
		args := append([]string{"test", "-count=1", run, "-timeout=" + timeout.String()}, s.tagsFlag()...)
		out, _ := s.goCommand(ctx, append(args, p.ImportPath)...).CombinedOutput()
		if ctx.Err() != nil {
			return signature{}, ctx.Err()
		}
		m := exitStatusRE.FindAllSubmatch(out, -1)
		if m != nil && !bytes.Contains(out, []byte("--- FAIL: ")) && !bytes.Contains(out, []byte("\npanic: ")) && !bytes.HasPrefix(out, []byte("panic: ")) {
			return signature{Kind: kindExit, Text: "exit status " + string(m[len(m)-1][1])}, nil
		}
		// Not an exit: learn what it is below.
	}
	args := append([]string{"test", "-count=1", "-v=test2json", run, "-timeout=" + timeout.String()}, s.tagsFlag()...)
	cmd := s.goCommand(ctx, append(args, p.ImportPath)...)
	out, _ := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return signature{}, ctx.Err()
	}
	parser := newOutputParser(func(n string) (int, bool) { return 0, n == target+"/"+name }, s.goroot)
	var got []signature
	lines := bytes.Split(out, []byte("\n"))
	for _, l := range lines {
		if i, sig := parser.line(bytes.TrimSuffix(l, []byte("\r"))); i >= 0 {
			got = append(got, sig)
		}
	}
	if i, sig := parser.end(cmd.ProcessState.ExitCode()); i >= 0 {
		got = append(got, sig)
	}
	if len(got) != 1 {
		if parser.stale != "" {
			return signature{}, &badCorpusError{parser.stale}
		}
		return signature{}, fmt.Errorf("go test did not run %s/%s:\n%s", target, name, out)
	}
	return got[0], nil
}

var exitStatusRE = regexp.MustCompile(`(?m)^exit status (\d+)\r?$`)

// A badCorpusError says that go test refused to run a target because an
// entry in its corpus directory is malformed or stale.
type badCorpusError struct{ msg string }

func (e *badCorpusError) Error() string { return e.msg }

// shrinkOutcome is what a search made of an entry.
type shrinkOutcome struct {
	data   []byte // the smallest failing input, as a corpus file
	value  string // it, as a line of Go to paste into the fuzz test
	runs   int
	stop   string   // why the search stopped
	others []string // distinct failures met
}

// shrinkOutOfProcess runs the search here, with candidates run in batches
// by the test binary.
func (s *session) shrinkOutOfProcess(ctx context.Context, r *runner, e corpus.Entry, want signature, runs *atomic.Int64, progress *progressLine) (shrinkOutcome, error) {
	o := &oracle{r: r, want: want, runs: runs, others: map[signature]bool{}}
	opts := []fuzzshrink.Option{
		fuzzshrink.Timeout(s.opts.timeout),
		fuzzshrink.BatchSize(batchSize(len(e.Data))),
		fuzzshrink.Trace(func(ev fuzzshrink.Event) {
			if ev.Kind == fuzzshrink.Accepted {
				if b, err := encoding.Marshal(ev.Args...); err == nil {
					progress.size(len(b))
				}
			}
			s.rep.trace(ev)
		}),
	}
	if s.opts.maxRuns > 0 {
		opts = append(opts, fuzzshrink.MaxRuns(s.opts.maxRuns))
	}
	shrunk, err := fuzzshrink.Shrink(ctx, e.Values, o, opts...)
	out := shrinkOutcome{runs: shrunk.Stats.Runs, stop: shrunk.Stats.Stop.String()}
	for sig := range o.others {
		out.others = append(out.others, sig.String())
	}
	if err != nil {
		return out, err
	}
	out.value = gosyntax.Call("f.Add", shrunk.Args, "")
	out.data, err = encoding.Marshal(shrunk.Args...)
	return out, err
}

// batchSize is how many candidates go to one test process: many, to spread
// the cost of starting it, but few enough for large inputs that the
// candidates in flight stay within a few MiB.
func batchSize(size int) int {
	return max(1, min(64, (4<<20)/max(1, size)))
}

// An oracle judges candidates by running them through the test binary.
type oracle struct {
	r      *runner
	want   signature
	runs   *atomic.Int64      // for the progress line
	others map[signature]bool // distinct failures met
}

func (o *oracle) Run(ctx context.Context, batch [][]any) ([]fuzzshrink.Verdict, error) {
	files := make([][]byte, len(batch))
	for i, args := range batch {
		b, err := encoding.Marshal(args...)
		if err != nil {
			return nil, err
		}
		files[i] = b
	}
	var verdicts []fuzzshrink.Verdict
	for len(files) > 0 {
		res, err := o.r.run(ctx, files, func(s signature) bool { return s == o.want })
		if err != nil {
			return verdicts, err
		}
		if len(res.outcomes) == 0 {
			return verdicts, fmt.Errorf("the test binary ran no candidate: %s", res.stale)
		}
		o.runs.Add(int64(len(res.outcomes)))
		for _, sig := range res.outcomes {
			switch {
			case sig == o.want:
				return append(verdicts, fuzzshrink.Fail), nil
			case sig.Failed():
				o.others[sig] = true
				verdicts = append(verdicts, fuzzshrink.OtherFail)
			default:
				verdicts = append(verdicts, fuzzshrink.Pass)
			}
		}
		files = files[len(res.outcomes):]
	}
	return verdicts, nil
}

// staleReason rewrites the toolchain's complaint about the private copy of
// an entry, as in
//
//	x_test.go:9: "testdata/fuzz/FuzzB/c000000": wrong number of values in corpus entry: 1, want 2
//
// to name the user's file.
func (s *session) staleReason(msg, target, path string) string {
	if m := logPosRE.FindStringSubmatchIndex("    " + msg); m != nil {
		msg = msg[m[1]-4:]
	}
	return strings.ReplaceAll(msg, filepath.Join("testdata", "fuzz", target, inputName(0)), s.rel(path))
}

// rel shortens a path for messages: relative to the working directory when
// it is below it.
func (s *session) rel(path string) string {
	wd, err := os.Getwd()
	if s.opts.dir != "" {
		wd, err = filepath.Abs(s.opts.dir)
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
func (s *session) relErr(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, ": "); i > 0 && filepath.IsAbs(msg[:i]) {
		return s.rel(msg[:i]) + msg[i:]
	}
	return msg
}
