package campaign

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// leaveOutSeed takes a seed entry that failed out of t's slices: the
// fuzzer stops on it before it fuzzes (go test reports it, and fuzzmin
// check). An f.Add seed cannot be left out: the target is done.
func (c *campaign) leaveOutSeed(t *campaignTarget, out testbin.FuzzOutcome) {
	path := filepath.Join(t.work, corpus.SeedDir, t.target.Name, out.Seed)
	if strings.HasPrefix(out.Seed, "seed#") || os.Remove(path) != nil {
		t.done = fmt.Sprintf("its seed %s fails, so the fuzzer never starts:\n%s", out.Seed, out.Output)
		c.Rep.Errorf("%s: %s", t.name(), t.done)
		c.Fail(pipeline.ExitFailure)
		return
	}
	t.left = append(t.left, out.Seed)
	c.Rep.Verbosef("%s: its seed entry %s fails; fuzzing without it (fuzzmin check reports it)", t.name(), out.Seed)
}

// A metInput is an input a turn met: a failure to minimize.
type metInput struct {
	data  []byte
	at    time.Time // when a worker met it (first failure times)
	doubt doubt
}

// campaignFailures minimizes the inputs a slice of t met (met says how:
// metStop, metPast), with what else minimizing them finds, and counts each
// failure: listed as known, found before in this run or failing a seed
// entry already (a repeat), or new. The inputs are minimized as the
// command minimizes a corpus: screened first, so that one that fails as
// a failure counted already costs a replay, not a search, and of those
// that fail alike only the smallest is minimized. An input is held
// outside the seed corpus until it is minimized: only its verified result
// goes in, or, if it could not be minimized (an interrupt, an error), the
// input itself, named in the report. Nothing of a known failure or a
// repeat stays. The seed entries left out of t's slices are minimized
// with them: one of them that fails the same way keeps the failure, and
// the new input goes as the same. An input in doubt (a variant of the
// hook's, or an input named while a variant ran) that passes leaves
// nothing, and a variant that could not be minimized is not kept either:
// it may not fail. It returns how many failures were new.
func (c *campaign) campaignFailures(ctx context.Context, t *campaignTarget, inputs []metInput, met string, found map[failure.Signature]*campaignFinding) (fresh int) {
	if len(inputs) == 0 {
		return 0
	}
	dir := corpus.SeedCorpus(t.pkg.Dir, t.target.Name)
	// The directories writing its entries makes, removed again if
	// nothing stays (forget).
	var made []string
	for d := dir; d != t.pkg.Dir; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append(made, d)
	}
	if len(made) > len(t.made) {
		t.made = made
	}
	known, err := c.KnownOf(t.pkg.ModuleDir, c.Known) // read before the run: see readKnownFiles
	if err != nil {
		c.Rep.Errorf("%s: %v", t.name(), err)
		c.Fail(pipeline.ExitFailure)
		for _, in := range inputs {
			if in.doubt != variant {
				c.placeRaw(t, dir, in.data, "")
			}
		}
		return 0
	}
	if !t.seedsChecked && t.fuzzOn != "" {
		t.seedsChecked = true
		c.checkSeeds(ctx, t, known, found, inputs[0].at)
	}
	// An input the seed corpus holds already (a failure found before,
	// found again as it was) is counted as any other, and stays.
	byName := map[string]metInput{}
	existing := map[string]string{}
	pending := map[string][]byte{}
	var names []string
	for _, in := range inputs {
		name := corpus.Name(in.data)
		if _, ok := byName[name]; ok {
			continue // the same input twice
		}
		byName[name] = in
		names = append(names, name)
		if path := filepath.Join(dir, name); fileExists(path) {
			existing[name] = path
		} else {
			pending[name] = in.data
		}
	}
	var counted func(failure.Signature) bool
	if len(found) > 0 || !known.Empty() || len(t.regressions) > 0 {
		// Screening a lone input costs a replay (a hang's limit): only if
		// it may be a failure counted already.
		counted = func(sig failure.Signature) bool {
			return known.Has(sig) || found[sig] != nil || t.regressions[sig] != ""
		}
	}
	results := c.minimizeFound(ctx, t, names, pending, counted)
	first := inputs[0] // the input the others met minimizing are put to
	for _, in := range inputs[1:] {
		if in.at.Before(first.at) {
			first = in
		}
	}
	done := map[string]bool{}
	for _, res := range results {
		name, in := "", first
		if !res.Found {
			name = strings.TrimPrefix(res.Test, t.target.Name+"/")
			in, done[name] = byName[name], true
		}
		_, isPending := pending[name]
		isPending = isPending && res.Path == ""
		if c.countFailure(t, res, known, found, existing[name], isPending, in.data, met, in.at, in.doubt) {
			fresh++
		}
	}
	for _, name := range names {
		if in := byName[name]; !done[name] && existing[name] == "" && in.doubt != variant {
			// Not minimized at all (an interrupt, a build that failed): the
			// input goes in as it was, named.
			c.placeRaw(t, dir, in.data, "")
		}
	}
	return fresh
}

// checkSeeds replays t's seed corpus, the first time a turn of t that
// fuzzes past failures meets one: its workers replay the corpus before
// they fuzz, and go past an entry that fails, and then past its mutations,
// which fail alike and may be smaller. So the entries that fail are taken
// first, as the command takes them: one somebody committed is a
// regression, which counts the inputs failing as it does as repeats;
// another is minimized in place, and counts as the failure found (at is
// when). Entries that pass say nothing.
func (c *campaign) checkSeeds(ctx context.Context, t *campaignTarget, known *pipeline.KnownFailures, found map[failure.Signature]*campaignFinding, at time.Time) {
	dir := corpus.SeedCorpus(t.pkg.Dir, t.target.Name)
	entries, err := corpus.Read(dir)
	if err != nil || len(entries) == 0 {
		return // none, or go test's own replay says what is wrong
	}
	var names []string
	for _, e := range entries {
		if !slices.Contains(t.left, e.Name) { // taken with every failure met
			names = append(names, e.Name)
		}
	}
	counted := func(sig failure.Signature) bool { return known.Has(sig) || found[sig] != nil }
	for _, res := range c.minimizeFound(ctx, t, names, nil, counted) {
		if res.Status == pipeline.StatusPasses {
			continue
		}
		existing := filepath.Join(dir, strings.TrimPrefix(res.Test, t.target.Name+"/"))
		if res.Found {
			existing = ""
		}
		c.countFailure(t, res, known, found, existing, false, nil, metSeed, at, sure)
	}
}

// fileExists reports whether path names a file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// doubt is how sure the campaign is that an input it minimizes failed.
type doubt int

const (
	sure    doubt = iota // the fuzzer named it, or a worker recorded its failure
	mayPass              // the fuzzer named it, but a variant was running when its worker ended
	variant              // the variant that was running: kept only if it fails
)

// placeRaw writes the input a slice of t stopped on into dir, t's seed
// corpus, as it was, and returns its path; the report names it as left
// unminimized unless why says what it is instead ("" for unminimized).
func (c *campaign) placeRaw(t *campaignTarget, dir string, data []byte, why string) string {
	path, err := pipeline.WriteEntry(t.pkg.ModuleDir, dir, data)
	if err != nil {
		c.Rep.Errorf("%s: the input the fuzzer stopped on could not be kept: %v", t.name(), c.RelErr(err))
		c.Fail(pipeline.ExitFailure)
		return ""
	}
	if why == "" {
		t.raw = append(t.raw, path)
	}
	return path
}

// minimizeFound minimizes the inputs a slice of t met, by their corpus
// names, and t's failing seed entries, and returns what became of the
// inputs. The inputs in pending (name → data) are not in the seed
// corpus: they are minimized from memory, and only their results are
// written there. An input that fails as counted says was counted already
// is not minimized (pipeline.StatusCounted).
func (c *campaign) minimizeFound(ctx context.Context, t *campaignTarget, names []string, pending map[string][]byte, counted func(failure.Signature) bool) []pipeline.Result {
	var onDisk []string
	for _, n := range names {
		if pending[n] == nil {
			onDisk = append(onDisk, n)
		}
	}
	var jobs []*pipeline.TargetJob
	if len(onDisk)+len(t.left) > 0 {
		m := pipeline.MatchNames([]string{t.target.Name}, slices.Concat(onDisk, t.left))
		jobs = c.SelectEntries(ctx, t.pkg, pipeline.Selecting{Purpose: pipeline.ForMinimize}, m)
	}
	if len(pending) > 0 {
		if len(jobs) == 0 {
			jobs = append(jobs, pipeline.NewTargetJob(t.pkg, t.target))
		}
		jobs[0].Pending = map[string]bool{}
		for _, n := range names {
			data := pending[n]
			if data == nil {
				continue
			}
			e, err := pendingEntry(corpus.SeedCorpus(t.pkg.Dir, t.target.Name), n, data)
			if err != nil {
				c.Rep.Errorf("%s: %v", t.name(), err)
				c.Fail(pipeline.ExitFailure)
				continue
			}
			jobs[0].Entries = append(jobs[0].Entries, e)
			jobs[0].Pending[n] = true
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	for _, j := range jobs {
		j.Counted, j.Slowest, j.QuietPasses = counted, t.slowest(), true
	}
	tmp, err := os.MkdirTemp(c.Disk.Path, "found")
	if err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(pipeline.ExitFailure)
		return nil
	}
	defer os.RemoveAll(tmp)
	b, ok := c.Build(ctx, t.pkg, tmp, pipeline.TargetNames(jobs))
	if !ok {
		return nil
	}
	var results []pipeline.Result
	c.MinimizeJobs(ctx, t.pkg, b, jobs, c.minimizing(), func(res pipeline.Result) {
		if e := strings.TrimPrefix(res.Test, t.target.Name+"/"); !slices.Contains(names, e) && !res.Found {
			// A failing seed entry's: reported if it changed, as the
			// command reports it.
			if res.Path != "" || res.Status.Failure() {
				c.Report(res)
			}
			if res.Status == pipeline.StatusPasses {
				c.passedLater(t, filepath.Join(corpus.SeedCorpus(t.pkg.Dir, t.target.Name), e))
			}
			if i := slices.Index(t.left, e); i >= 0 && res.Path != "" {
				t.left[i] = filepath.Base(res.Path) // minimized: its result fails as it did
			}
			return
		}
		results = append(results, res)
	})
	return results
}

// pendingEntry is the entry of data, named name, as it will be once
// written into dir.
func pendingEntry(dir, name string, data []byte) (corpus.Entry, error) {
	vals, err := encoding.Unmarshal(data)
	if err != nil {
		return corpus.Entry{}, fmt.Errorf("the input the fuzzer stopped on does not decode: %v", err)
	}
	return corpus.Entry{Name: name, Path: filepath.Join(dir, name), Data: data, Values: vals}, nil
}

// countFailure counts the failure of res, the result of an input a slice
// of t met as met says (or of another failure met minimizing it), and
// reports whether it is new. The entry existing, if not "", was there before the
// stop: it is not removed. If pending, res is the result of the input
// data, which is not in the seed corpus and whose result was not written
// (the pipeline writes and checks a pending input that is its own minimum
// as any result): it goes in unminimized and named, unless its failure is
// counted elsewhere.
func (c *campaign) countFailure(t *campaignTarget, res pipeline.Result, known *pipeline.KnownFailures, found map[failure.Signature]*campaignFinding, existing string, pending bool, data []byte, met string, at time.Time, doubt doubt) bool {
	dir := corpus.SeedCorpus(t.pkg.Dir, t.target.Name)
	minimal := res.Status == pipeline.StatusMinimal || res.Status == pipeline.StatusStopped
	kept := c.Abs(res.Path)
	if kept == "" && minimal && !pending {
		kept = filepath.Join(dir, strings.TrimPrefix(res.Test, t.target.Name+"/"))
	}
	sig := res.Signature
	switch f := found[sig]; {
	case !sig.Failed() && doubt != sure && res.Status == pipeline.StatusPasses:
		// Not the input that ended the worker: a variant did, or this
		// variant did not.
		c.Rep.Verbosef("%s: %s passes: the crash was another input's", t.name(), c.Rel(filepath.Join(dir, strings.TrimPrefix(res.Test, t.target.Name+"/"))))
	case !sig.Failed():
		if pending {
			why := "" // interrupted before its replay ended
			if res.Status == pipeline.StatusPasses {
				why = "it passes now"
			}
			c.placeRaw(t, dir, data, why)
		}
		c.Report(res) // it passes, or is flaky: as the command reports it
	case t.regressions[sig] != "":
		t.repeats++
		if res.Status != pipeline.StatusSame && kept != "" && kept != existing {
			c.forget(t, kept) // nothing of a repeat stays
		}
		if t.once(sig) {
			c.Rep.Infof("%s: %s %v, which the committed entry %s fails with too", t.name(), met, sig, c.Rel(t.regressions[sig]))
		}
	case known.Has(sig):
		t.known++
		if res.Status != pipeline.StatusSame && kept != "" && kept != existing {
			c.forget(t, kept)
		}
		if t.once(sig) {
			c.Rep.Infof("%s: %s a known failure (%s): %v", t.name(), met, c.Rel(known.Path), sig)
		}
	case res.Status == pipeline.StatusSame && f == nil:
		t.repeats++
		if t.once(sig) {
			c.Rep.Infof("%s: %s %v, which seed entry %s fails with too", t.name(), met, sig, c.Rel(res.Path))
		}
	case f != nil:
		// Found before, or by an input met with this one: screened as
		// the same (StatusSame) or as counted, nothing was written.
		t.repeats++
		if res.Status != pipeline.StatusSame && kept != "" && kept != existing && kept != f.path {
			c.forget(t, kept)
		}
		if t.once(sig) {
			c.Rep.Infof("%s: %s %v again, found before in %s: %s", t.name(), met, sig, f.t.target.Name, c.Rel(f.path))
		}
	case res.Status == pipeline.StatusRegression:
		// An entry somebody committed fails (go test fails on it too):
		// reported once, and the failure is in the corpus already, as are
		// the inputs that fail as it does from now on.
		if t.regressions == nil {
			t.regressions = map[failure.Signature]string{}
		}
		t.regressions[sig] = existing
		t.repeats++
		if t.once(sig) {
			c.Report(res)
		}
	case kept == "":
		if pending {
			c.placeRaw(t, dir, data, "")
		}
		c.Report(res)
	default:
		found[sig] = &campaignFinding{t: t, path: kept, after: at.Sub(c.start)}
		t.fresh = append(t.fresh, kept)
		if t.first == 0 || at.Sub(c.start) < t.first {
			t.first = at.Sub(c.start)
		}
		c.Report(res)
		return true
	}
	return false
}

// passedLater takes an entry that failed a turn and passed a later replay
// out of t's new failures, if it is one: its failure does not repeat (it
// depends on the time, on state), so it is flaky, not a bug to commit.
func (c *campaign) passedLater(t *campaignTarget, path string) {
	i := slices.Index(t.fresh, path)
	if i < 0 {
		return
	}
	t.fresh = slices.Delete(t.fresh, i, i+1)
	t.flaky = append(t.flaky, path)
	c.Rep.Infof("%s: %s failed when the fuzzer found it and passes now: flaky, not counted as a new failure (fuzzmin -flaky -run=%s %s minimizes it as it fails)",
		t.name(), c.Rel(path), t.target.Name, t.pkg.ImportPath)
}

// forget removes an entry the campaign wrote into t's seed corpus for a
// failure it counts elsewhere, and the directories writing it made, if
// they are empty again.
func (c *campaign) forget(t *campaignTarget, path string) {
	if err := corpus.Remove(path); err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(pipeline.ExitFailure)
	}
	delete(c.Written, path)
	for _, d := range t.made {
		os.Remove(d) // only if empty
	}
}
