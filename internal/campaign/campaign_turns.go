package campaign

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// Slices: the first of each target is sliceTime long, those after it too,
// but never past the end of the budget; a slice shorter than minSlice is
// not worth a start (the fuzzer first replays the corpus).
const minSlice = 2 * time.Second

// firstSlice bounds a target's first slice, so that every target has
// fuzzed within seconds of the start: a shallow bug, met in the first
// second, is then reported as soon wherever its target comes in the
// order. With eight targets and slices of 19 s on two cores, the last
// pair started 57 s in.
const firstSlice = 5 * time.Second

// sliceTime is the length of a slice: a quarter of a target's even share
// of the budget, between 5 s and a minute, so that every target gets four
// turns or more and the time follows what each keeps finding.
func sliceTime(budget time.Duration, targets, p int) time.Duration {
	share := budget * time.Duration(p) / time.Duration(max(1, targets))
	return min(budget, max(5*time.Second, min(time.Minute, share/4)))
}

// fuzzTargets runs the slices until the budget is spent and returns the
// findings, by failure.
func (c *campaign) fuzzTargets(ctx context.Context, targets []*campaignTarget) map[failure.Signature]*campaignFinding {
	c.start = time.Now()
	c.deadline = c.start.Add(c.Fuzztime)
	budget := c.Fuzztime - reserve(c.Fuzztime) // of the turns
	end := c.start.Add(budget)
	slice := sliceTime(budget, len(targets), c.Procs)
	workers := max(1, runtime.GOMAXPROCS(0)/c.Procs)
	found := map[failure.Signature]*campaignFinding{}
	done := make(chan sliceDone)
	running := 0
	for {
		for running < c.Procs && ctx.Err() == nil {
			// Turns are whole seconds: what the build took of the first
			// second does not cost a budget of two its turn.
			left := time.Until(end).Round(time.Second)
			t := nextTarget(targets)
			if t == nil || left < minSlice {
				break
			}
			t.running = true
			running++
			s := testbin.FuzzSlice{Target: t.target.Name, Dir: t.work, CacheDir: c.cacheCorpusRoot(t.pkg),
				Time: turnTime(t, slice, left), Workers: workers, FuzzOn: t.fuzzOn, Hang: c.ExecTimeout, MemLimit: int64(c.MemLimit)}
			go func() {
				start := time.Now()
				turn, end := context.WithCancel(ctx)
				defer end()
				var early atomic.Bool
				if t.fuzzOn != "" && !t.met {
					go watchFirst(turn, t.fuzzOn, func() { early.Store(true); end() })
				}
				out, err := t.bin.Fuzz(turn, s)
				done <- sliceDone{t, out, err, time.Since(start), early.Load() && ctx.Err() == nil}
			}()
		}
		if running == 0 {
			return found
		}
		d := <-done
		running--
		d.t.running = false
		// Minimizing a failure, new or found before, is time of the
		// budget (minimizeTime).
		c.sliceEnded(ctx, d, slice, found)
	}
}

// turnTime is the length of t's next slice, in whole seconds, with left
// of the budget: firstSlice at most for its first.
func turnTime(t *campaignTarget, slice, left time.Duration) time.Duration {
	if t.slices == 0 {
		slice = min(slice, firstSlice)
	}
	return min(slice, left).Round(time.Second)
}

// firstPoll is how often watchFirst looks.
const firstPoll = 200 * time.Millisecond

// watchFirst calls end once a worker of the turn has recorded a failure in
// dir (the hook writes a kind's .first file as it meets it), unless ctx
// ends first. A target's first failure ends its turn, so that it is
// minimized, written and reported at once, as go test -fuzz stops on it;
// the failures after it wait for the end of their turns.
func watchFirst(ctx context.Context, dir string, end func()) {
	tick := time.NewTicker(firstPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		des, _ := os.ReadDir(dir)
		for _, de := range des {
			if strings.HasSuffix(de.Name(), ".first") {
				end()
				return
			}
		}
	}
}

// nextTarget returns the target to fuzz next: the first that has not had a
// slice; else the one that has fuzzed least, if it has fuzzed less than
// half its even share of the fuzzing so far (every target keeps a floor
// share of the budget); else the one that found new coverage and new
// failures fastest in its last slice, on a tie the one that has had the
// least time (fuzzing, and minimizing what it found). It returns nil if
// every target is running or done.
func nextTarget(targets []*campaignTarget) *campaignTarget {
	var best, least *campaignTarget
	var total time.Duration
	for _, t := range targets {
		total += t.spent
	}
	for _, t := range targets {
		switch {
		case t.running || t.done != "":
			continue
		case t.slices == 0:
			return t
		}
		if least == nil || t.spent < least.spent {
			least = t
		}
		if best == nil || t.last > best.last || t.last == best.last && t.spent+t.lost < best.spent+best.lost {
			best = t
		}
	}
	if least != nil && least.spent < total/time.Duration(2*len(targets)) {
		return least
	}
	return best
}

// sliceEnded takes what a slice of t found: its statistics, and the
// failure it stopped on, which it minimizes, writes and counts.
func (c *campaign) sliceEnded(ctx context.Context, d sliceDone, slice time.Duration, found map[failure.Signature]*campaignFinding) {
	t, out := d.t, d.out
	t.slices++
	t.spent += d.took
	t.execs += out.Execs
	t.found += out.New
	if out.Coverage > 0 {
		t.bits = out.Coverage
	}
	defer fuzzTurn(c.Rep, t, d) // with what the turn found counted
	defer func() { t.met = t.met || d.early || t.past > 0 || t.stops > 0 }()
	cost := d.took
	freshPast := 0 // new failures fuzzed past
	defer func() {
		// What a slice found, a second of it, half an input more so that
		// a target that found nothing lately still gets turns. A slice
		// that stopped early counts as a whole one, with what the stop
		// cost: a target that keeps stopping on a failure found before
		// is worth no more than one that finds nothing.
		t.last = (float64(out.New+freshPast) + 0.5) / max(cost, slice).Seconds()
	}()
	var variants [][]byte // running when their workers ended
	if t.fuzzOn != "" {
		var took time.Duration
		freshPast, variants, took = c.fuzzedPast(ctx, t, found)
		t.lost += took
		cost += took
	}
	switch {
	case errors.Is(d.err, testbin.ErrFuzzOnRefused):
		c.fuzzOnRefused(d.err)
	case d.err != nil:
		if ctx.Err() == nil {
			t.done = d.err.Error()
			c.Rep.Errorf("%s: %v", t.name(), d.err)
			c.Fail(pipeline.ExitFailure)
		}
	case out.Seed != "" && len(variants) > 0:
		// A worker ended while it ran a variant of the hook's in the
		// place of the seed entry: most likely the variant failed, not
		// the seed. The variant is minimized, and the seed stays; if it
		// does fail, the next turn stops on it again.
		start := time.Now()
		for _, v := range variants {
			freshPast += c.campaignFailures(ctx, t, []metInput{{v, start, variant}}, metStop, found)
		}
		t.lost += time.Since(start)
		cost += time.Since(start)
	case out.Seed != "":
		c.leaveOutSeed(t, out)
	case out.Crasher == nil:
		t.stuck = 0 // its time was up
		if out.Overdue && !t.overdue {
			t.overdue = true
			c.Rep.Infof("%s: its fuzzer did not stop when its time was up (a child the target started holds the fuzz workers' pipes); it was ended with what it started, as each of its turns will be", t.name())
		}
	default: // it stopped on a failure
		t.stops++
		start := time.Now()
		// Found as the turn ended: the fuzzer stops at once. A worker that
		// ended while it ran a variant of the hook's was most likely ended
		// by it, not by the input the fuzzer names: the variant is
		// minimized first, and the named input, then, counts only if it
		// fails.
		fresh, named := 0, sure
		for _, v := range variants {
			fresh += c.campaignFailures(ctx, t, []metInput{{v, start, variant}}, metStop, found)
			named = mayPass
		}
		fresh += c.campaignFailures(ctx, t, []metInput{{out.Crasher, start, named}}, metStop, found)
		took := time.Since(start)
		t.lost += took
		cost += took
		// A turn fuzzed past failures stops on one only in its last
		// second (the hook's coordinator goes on before): it had its
		// time, it is not stuck.
		if t.stuck++; fresh > 0 || out.New > 0 || t.fuzzOn != "" {
			t.stuck = 0
		}
		if t.stuck == maxStuck {
			t.done = fmt.Sprintf("its last %d turns stopped on failures found before, with nothing new found: the fuzzer stops at every failure, so it cannot get past them until they are fixed", maxStuck)
			c.Rep.Infof("%s: fuzzed no more: %s", t.name(), t.done)
		}
	}
}

// fuzzedPast takes the failures a turn of t fuzzed past: the smallest
// input of each kind no earlier turn met is minimized, written and counted
// as a stop's input is, all of them in one go (campaignFailures), and the
// other inputs of its kind are repeats, as are the inputs of a kind met
// before: a counter, not a replay. It returns how many new failures there
// were, the variants of the hook's that were running when their workers
// ended (for a turn that stopped on a crash), and the time taking the
// failures took.
func (c *campaign) fuzzedPast(ctx context.Context, t *campaignTarget, found map[failure.Signature]*campaignFinding) (fresh int, variants [][]byte, took time.Duration) {
	past, more, err := testbin.ReadFound(t.fuzzOn)
	if err != nil {
		c.Rep.Errorf("%s: reading the failures its fuzzer went past: %v", t.name(), err)
		c.Fail(pipeline.ExitFailure)
		return 0, nil, 0
	}
	start := time.Now()
	var inputs []metInput
	for _, f := range past {
		if f.Variant {
			variants = append(variants, f.Input)
			continue
		}
		if ctx.Err() != nil && !t.kinds[f.Kind] {
			// Interrupted: the input goes in as it was, named, as a
			// stop's input does (campaignFailures); a variant, which
			// may not fail, does not.
			if f.Input != nil {
				c.placeRaw(t, corpus.SeedCorpus(t.pkg.Dir, t.target.Name), f.Input, "")
			}
			continue
		}
		t.past += f.Count
		t.repeats += f.Count - 1
		if f.Crash {
			// An input that ended its worker, which the coordinator went
			// on past: its kind (the worker's exit status, and the first
			// line of its runtime's report) tells too little to be a
			// repeat without a replay. As a stop's input, it is taken
			// after the variants that were running.
			at, named := f.At, sure
			if at.IsZero() {
				at = start
			}
			for _, v := range f.Variants {
				inputs = append(inputs, metInput{v, at, variant})
				named = mayPass
			}
			if f.Input != nil {
				inputs = append(inputs, metInput{f.Input, at, named})
			}
			continue
		}
		if t.kinds[f.Kind] {
			// A kind an earlier turn met, and took: a repeat, counted.
			t.repeats++
			continue
		}
		if t.kinds == nil {
			t.kinds = map[string]bool{}
		}
		t.kinds[f.Kind] = true
		at := f.At
		if at.IsZero() || at.Before(c.start) {
			at = start // no worker said: when the turn ended, at the latest
		}
		inputs = append(inputs, metInput{f.Input, at, sure})
	}
	if len(inputs) > 0 {
		fresh = c.campaignFailures(ctx, t, inputs, metPast, found)
	}
	if more > 0 {
		t.past += more
		c.Rep.Verbosef("%s: %s of more kinds than its workers record were fuzzed past, not kept", t.name(), pipeline.Plural(more, "input", "inputs"))
	}
	return fresh, variants, time.Since(start)
}

// fuzzOnRefused turns fuzzing past failures off for every target: the test
// binaries' testing package is not the one the hook knows. It says so
// once; the targets stop at each failure, as go test -fuzz does.
func (c *campaign) fuzzOnRefused(err error) {
	if c.refusedOnce {
		return
	}
	c.refusedOnce = true
	c.Rep.Infof("fuzzmin fuzz: %v; the targets stop at each failure, as go test -fuzz does", err)
	for _, t := range c.targets {
		t.fuzzOn = ""
	}
}

// How a turn met the failure it reports: it stopped on it, or went past.
const (
	metStop = "stopped on"
	metPast = "fuzzed past"
	metSeed = "replayed" // a seed entry (checkSeeds)
)

// maxStuck is how many turns in a row a target may stop on failures found
// before, finding nothing new, before it gets no more: the toolchain's
// fuzzer stops at each failure, and one the fuzzer meets at once leaves a
// turn no time to find anything else.
const maxStuck = 5

// noShim says once why the workers of the turns are no shims (the worker
// protocol is not checked): an input that ends a worker then stops the
// toolchain's coordinator, which the hook starts again.
func (c *campaign) noShim(why string) {
	if c.noShimOnce {
		return
	}
	c.noShimOnce = true
	c.Rep.Infof("fuzzmin fuzz: %s; an input that ends a fuzz worker (an exit, a fatal error, a hang) stops the toolchain's coordinator, which starts again", why)
}
