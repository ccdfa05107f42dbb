package fuzzshrink

import (
	crand "crypto/rand"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The flags of Check, registered with the testing flags: go test
// -fuzzshrink.seed=N reproduces the cases of a run that printed seed N.
var (
	seedFlag  = flag.Uint64("fuzzshrink.seed", 0, "fuzzshrink.Check: generate the cases from this `seed` (0: a random one)")
	casesFlag = flag.Int("fuzzshrink.cases", 0, "fuzzshrink.Check: generate `n` cases (0: the test's choice, 100 by default)")
)

// A CheckOption configures [Check], [Find], and (its budgets) [Minimize].
type CheckOption func(*checkConfig)

type checkConfig struct {
	cases      int
	seed       uint64
	shrinkRuns int
	shrinkTime time.Duration
	targetRuns int
	explain    int // runs to explain a failure with; -1: as many as shrinking took
	dir        string
	dirSet     bool
}

func defaultCheckConfig() checkConfig {
	return checkConfig{cases: 100, shrinkRuns: 50_000, shrinkTime: time.Minute, explain: -1}
}

// Cases sets how many cases Check generates (100 by default; the flag
// -fuzzshrink.cases overrides it).
func Cases(n int) CheckOption { return func(c *checkConfig) { c.cases = n } }

// Seed makes Check generate its cases from seed instead of a random seed
// (the flag -fuzzshrink.seed overrides it). The same seed, generators and
// property give the same cases and the same shrunk failure.
func Seed(seed uint64) CheckOption { return func(c *checkConfig) { c.seed = seed } }

// ShrinkRuns bounds the runs of the property spent shrinking a failure
// (50,000 by default).
func ShrinkRuns(n int) CheckOption { return func(c *checkConfig) { c.shrinkRuns = n } }

// ExplainRuns bounds the runs spent explaining a shrunk failure: finding
// which of its draws do not matter, each by replacing it with random draws
// (the report lists them beside the draws). By default it runs no more
// than shrinking took; 0 turns it off.
func ExplainRuns(n int) CheckOption { return func(c *checkConfig) { c.explain = n } }

// ShrinkTime bounds the time spent shrinking a failure (one minute by
// default).
func ShrinkTime(d time.Duration) CheckOption { return func(c *checkConfig) { c.shrinkTime = d } }

// TargetRuns sets how many runs Check spends climbing the scores of
// [Target] when its cases pass (as many as Cases by default).
func TargetRuns(n int) CheckOption { return func(c *checkConfig) { c.targetRuns = n } }

// CorpusDir sets the directory of the failures Check persists and replays
// first, testdata/fuzz/<test name> by default; "" persists nothing.
func CorpusDir(dir string) CheckOption {
	return func(c *checkConfig) { c.dir, c.dirSet = dir, true }
}

// Check checks a property in an ordinary test (or benchmark): it runs prop
// on random cases drawn by its generators, and fails the test with the
// simplest failing case it can find:
//
//	func TestSum(t *testing.T) {
//		fuzzshrink.Check(t, func(t *fuzzshrink.T) {
//			xs := fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "xs")
//			if Sum(xs) < Max(xs) { t.Fatalf("sum %d < max %d", Sum(xs), Max(xs)) }
//		})
//	}
//
// First, Check replays the choice sequences persisted in
// testdata/fuzz/<test name>/, in go test fuzz v1 files of one []byte: a bug
// found once fails the test first thing until it is fixed. Then it
// generates 100 cases from a random seed, the first small, later ones
// larger. A case fails if prop panics or fails (t.Error, t.Fatal, …); one
// that calls t.Skip, or that a [Gen.Filter] cannot satisfy, is not a case.
// The first failure is shrunk at once, in process, by the passes the
// package documentation describes, on its choice sequence; candidates
// count only if they fail the same way (the same panic or failing call at
// the same place), and other failures met on the way are mentioned. If no case fails and the property
// calls [Target], Check climbs the scores for a while before it gives up.
//
// The report gives the shrunk draws and the original ones, one "label =
// value" line per draw of the property, with the property's log and
// failure messages from a last run of the shrunk case, the runs it took,
// and the seed; the shrunk choice sequence is written to the directory
// above, atomically, and replays first from then on. go test
// -fuzzshrink.seed=N generates the same cases again.
//
// t is a testing.TB so that benchmarks can check properties too; the
// embedded *testing.T of the property's T is t when t is a *testing.T, nil
// otherwise.
func Check(t testing.TB, prop func(*T), opts ...CheckOption) {
	t.Helper()
	c := newChecker(t, prop, opts)
	if os.Getenv(session.ReplayEnv) == "1" {
		c.replayOnly()
		return
	}
	if f := c.run(); f != nil {
		t.Fatal(c.report(f))
	}
}

// replayOnly replays every persisted failure and reports each that still
// fails (session.ReplayEnv), without shrinking it or generating cases.
func (c *checker) replayOnly() {
	for _, e := range readCorpus(c.cfg.dir) {
		if e.err != nil {
			c.tb.Logf("fuzzshrink: %v", e.err) // as run does: go test passes
			continue
		}
		t := c.newT(e.data, nil, false)
		if sig := runCaptured(t, c.prop); sig.Failed() && t.invalid == "" {
			c.tb.Errorf("%s%s: %s", session.ReplayMark, e.name, sig)
		}
	}
}

// Find returns the simplest value of g for which cond is true, and true;
// or, if none of the values it generates satisfies cond, the zero value
// and false. It generates and shrinks as [Check] does (the options apply;
// nothing is persisted unless CorpusDir says where), with cond as the
// property that fails:
//
//	fuzzshrink.Find(fuzzshrink.SliceOf(fuzzshrink.Int()), func(xs []int) bool { return sum(xs) > 100 })
//	// []int{101}, true
func Find[V any](g *Gen[V], cond func(V) bool, opts ...CheckOption) (V, bool) {
	c := newChecker(nil, func(t *T) {
		if cond(g.Draw(t, "value")) {
			t.FailNow()
		}
	}, append([]CheckOption{CorpusDir("")}, opts...))
	f := c.run()
	if f == nil || f.last == nil || len(f.last.rec.Draws) == 0 {
		var zero V
		return zero, false
	}
	return f.last.rec.Draws[0].Value.(V), true
}

// A checker is one call of Check.
type checker struct {
	tb      testing.TB
	tt      *testing.T
	prop    func(*T)
	cfg     checkConfig
	local   string // the package of prop, whose types print unqualified
	filters filterStats
	stats   checkStats
	spare   shrink.Record // the memory of the last replay's record
}

// checkStats counts what Check did.
type checkStats struct {
	replayed  int // persisted sequences run
	generated int // cases generated, valid or not
	invalid   int // generated cases that were not valid
	targeted  int // runs of the target phase
}

// A checkFailure is what Check found: a shrunk failure, or why it could not
// generate cases (msg).
type checkFailure struct {
	msg           string
	origin        string // where the failure came from
	persistedFrom string // the file it was replayed from, if it was not generated
	want          failure.Signature
	orig, last    *T // the original run, and a last run of the shrunk case
	lastSig       failure.Signature
	shrink        shrink.Stats
	runs          int
	err           error       // the engine's
	others        shrink.Pool // of choice sequences
	best          []byte      // the shrunk sequence
	free          []string    // the labels of the shrunk case's draws that do not matter
	explainRuns   int         // the runs that found them
	persisted     string
	persistErr    error
}

func newChecker(tb testing.TB, prop func(*T), opts []CheckOption) *checker {
	c := &checker{tb: tb, prop: prop, cfg: defaultCheckConfig()}
	c.tt, _ = tb.(*testing.T)
	name := ""
	if tb != nil {
		name = tb.Name()
	}
	for _, o := range opts {
		o(&c.cfg)
	}
	if *casesFlag > 0 {
		c.cfg.cases = *casesFlag
	}
	if *seedFlag != 0 {
		c.cfg.seed = *seedFlag
	}
	if c.cfg.seed == 0 {
		var b [8]byte
		crand.Read(b[:])
		c.cfg.seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if c.cfg.targetRuns == 0 {
		c.cfg.targetRuns = c.cfg.cases
	}
	if !c.cfg.dirSet {
		c.cfg.dir = corpusDir(name)
	}
	c.local = funcPackage(reflect.ValueOf(prop))
	return c
}

// newT returns a T for one run of the property.
func (c *checker) newT(data []byte, gen *generator, keepDraws bool) *T {
	t := newT(c.tt, data, gen)
	t.tb, t.recording, t.keepDraws, t.filters = c.tb, true, keepDraws, &c.filters
	return t
}

// replay runs the property on a choice sequence. The T's record is valid
// until the next replay, which reuses its memory: the shrinker replays
// thousands of candidates, and keeps a record only by normalizing it.
func (c *checker) replay(data []byte) (failure.Signature, *T) {
	t := c.newT(data, nil, false)
	t.rec.Choices, t.rec.Spans = c.spare.Choices[:0], c.spare.Spans[:0]
	sig := runCaptured(t, c.prop)
	c.spare = t.rec
	return sig, t
}

// run checks the property and returns its failure, or nil.
func (c *checker) run() *checkFailure {
	for _, e := range readCorpus(c.cfg.dir) {
		if e.err != nil {
			if c.tb != nil {
				c.tb.Logf("fuzzshrink: %v", e.err)
			}
			continue
		}
		c.stats.replayed++
		t := c.newT(e.data, nil, true)
		if sig := runCaptured(t, c.prop); sig.Failed() && t.invalid == "" {
			f := c.shrink(t, sig, fmt.Sprintf("the persisted failure %s", e.name))
			f.persistedFrom = e.name
			return f
		}
	}
	var best map[string]*T // the best-scoring case of each Target label
	valid := 0
	for i := 0; valid < c.cfg.cases; i++ {
		size := min(100, valid*100/max(1, c.cfg.cases-1))
		t := c.newT(nil, newGenerator(c.cfg.seed+uint64(i)*0x9E3779B97F4A7C15, size), true)
		sig := runCaptured(t, c.prop)
		c.stats.generated++
		switch {
		case t.genErr != "":
			return &checkFailure{msg: fmt.Sprintf("fuzzshrink: cannot generate cases: %s (seed %d)", t.genErr, c.cfg.seed)}
		case t.invalid != "":
			if c.stats.invalid++; c.stats.invalid > 10*c.cfg.cases+100 {
				return &checkFailure{msg: fmt.Sprintf("fuzzshrink: %d of the %d cases generated were not valid (the last: %s; "+
					"filters accepted %s of their values): generate values that satisfy the property's assumptions "+
					"instead of rejecting them (seed %d)", c.stats.invalid, c.stats.generated, t.invalid, c.filters.rate(), c.cfg.seed)}
			}
			continue
		case sig.Failed():
			return c.shrink(t, sig, fmt.Sprintf("case %d (size %d) of seed %d", valid+1, size, c.cfg.seed))
		}
		valid++
		for _, s := range t.scores {
			if best == nil {
				best = map[string]*T{}
			}
			if b := best[s.label]; b == nil || s.value > scoreOf(b, s.label) {
				best[s.label] = t
			}
		}
	}
	if best != nil {
		return c.target(best)
	}
	return nil
}

// shrink shrinks the failure of run orig, persists the result and returns
// the failure.
func (c *checker) shrink(orig *T, want failure.Signature, origin string) *checkFailure {
	f := &checkFailure{origin: origin, want: want, orig: orig}
	o := &choiceOracle{run: c.replay, want: want}
	s := &choiceSearch{o: o, opts: []shrink.Option{shrink.MaxRuns(c.cfg.shrinkRuns), shrink.Timeout(c.cfg.shrinkTime)},
		fresh: func(data []byte) (failure.Signature, *T) {
			t := c.newT(data, nil, true)
			return runCaptured(t, c.prop), t
		},
		explain: c.cfg.explain, seed: c.cfg.seed}
	r := s.search(orig, nil)
	f.best, f.shrink, f.runs, f.err, f.others = r.best, r.stats, o.runs, r.err, o.others
	f.last, f.lastSig, f.free, f.explainRuns = r.last, r.lastSig, r.free, r.explainRuns
	if c.cfg.dir != "" {
		f.persisted, f.persistErr = writeCorpus(c.cfg.dir, f.best)
	}
	return f
}

// drawAlternatives is how many other choices a draw is tried with.
const drawAlternatives = 6

// explainDraws returns the labels of the top-level draws of run last, of
// the sequence data, that do not matter: with each draw's choices replaced
// by random ones, drawAlternatives times, the property fails the same way
// every time. A random draw takes as many bytes as it takes: a first run
// finds where it ends in random bytes, and the alternative is those bytes
// with the rest of data after them. replay runs the property on a
// sequence. It runs at most budget candidates, draws its random bytes from
// seed, and changes nothing.
func explainDraws(replay func([]byte) (failure.Signature, *T), data []byte, last *T, want failure.Signature, budget int, seed uint64) (free []string, runs int) {
	tops := topSpans(last.rec.Spans)
	if len(tops) != len(last.rec.Draws) || len(tops) < 2 {
		return nil, 0 // one draw matters, or the draws are not the spans
	}
	ch := last.rec.Choices
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for k, s := range tops {
		if s.First >= s.Last || budget-runs < 2*drawAlternatives {
			continue
		}
		if _, ok := last.rec.Draws[k].Value.(*cmdSeq); ok {
			continue // a sequence of commands: its steps are what shrinking removed
		}
		a, b := int(ch[s.First].Start), int(ch[s.Last-1].End)
		tried, all := 0, true
		for range 2 * drawAlternatives {
			if tried == drawAlternatives || !all || budget-runs < 2 {
				break
			}
			random := make([]byte, 2*(b-a)+16)
			for i := range random {
				random[i] = byte(rng.Uint32())
			}
			_, t := replay(slices.Concat(data[:a], random, data[b:]))
			runs++
			ts := topSpans(t.rec.Spans)
			if len(ts) <= k || ts[k].First >= ts[k].Last {
				continue
			}
			end := int(t.rec.Choices[ts[k].Last-1].End)
			if end <= a || end > a+len(random) {
				continue
			}
			sig, _ := replay(slices.Concat(data[:a], random[:end-a], data[b:]))
			runs++
			tried++
			all = sig == want
		}
		if all && tried == drawAlternatives {
			free = append(free, labelOf(last.rec.Draws[k]))
		}
	}
	return free, runs
}

// freeLine says which draws do not matter, as reports show it under the
// draws.
func freeLine(free []string, runs int) string {
	verb := "does"
	if len(free) > 1 {
		verb = "do"
	}
	return fmt.Sprintf("(%s %s not matter: %d other draws each failed the same way; %d runs)", strings.Join(free, ", "), verb, drawAlternatives, runs)
}

// topSpans returns the spans of draws made by the property itself.
func topSpans(spans []shrink.Span) []shrink.Span {
	var tops []shrink.Span
	for _, s := range spans {
		if s.Parent < 0 {
			tops = append(tops, s)
		}
	}
	return tops
}

// report describes a failure as Check reports it.
func (c *checker) report(f *checkFailure) string {
	if f.msg != "" {
		return f.msg
	}
	var b strings.Builder
	if f.persistedFrom != "" {
		// No seed made it: it came from a file.
		fmt.Fprintf(&b, "fuzzshrink: %s failed (replaying %s)\n", c.tb.Name(), f.persistedFrom)
	} else {
		fmt.Fprintf(&b, "fuzzshrink: %s failed (seed %d)\n", c.tb.Name(), c.cfg.seed)
	}
	for _, l := range drawLines(f.last, f.orig, f.shrink.Accepted, f.lastSig.Failed(), c.local) {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	if len(f.free) > 0 {
		fmt.Fprintf(&b, "    %s\n", freeLine(f.free, f.explainRuns))
	}
	for _, l := range f.last.logs {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	if f.last.panicValue != nil {
		// Where, and the user's frames below it, as rapid shows them.
		at := ""
		if f.lastSig.Pos != "" {
			at = " at " + f.lastSig.Pos
		}
		fmt.Fprintf(&b, "    panic: %v%s\n", f.last.panicValue, at)
		for _, l := range f.last.panicStack {
			fmt.Fprintf(&b, "        %s\n", l)
		}
	}
	if f.lastSig != f.want {
		fmt.Fprintf(&b, "    (the last run failed as %v, the search kept %v: is the property deterministic?)\n", f.lastSig, f.want)
	}
	rounds := "rounds"
	if f.shrink.Rounds == 1 {
		rounds = "round"
	}
	fmt.Fprintf(&b, "Shrunk from %s in %d runs, %d accepted, %d %s of passes", f.origin, f.runs, f.shrink.Accepted, f.shrink.Rounds, rounds)
	if f.shrink.Stop != shrink.StopDone {
		fmt.Fprintf(&b, " (stopped: %v)", f.shrink.Stop)
	}
	if f.err != nil {
		fmt.Fprintf(&b, " (%v)", f.err)
	}
	var orig []string // the original's draws; its sequences of commands are above
	for _, d := range f.orig.rec.Draws {
		if _, ok := d.Value.(*cmdSeq); !ok {
			orig = append(orig, fmt.Sprintf("    %s = %s\n", labelOf(d), formatValue(d.Value, c.local)))
		}
	}
	if len(orig) > 0 || len(f.orig.rec.Draws) == 0 {
		b.WriteString("; the original:")
	}
	b.WriteString("\n" + strings.Join(orig, ""))
	if f.others.Len() > 0 {
		fmt.Fprintf(&b, "Other failures met while shrinking (check them once this one is fixed):\n")
		for _, s := range f.others.Sorted() {
			fmt.Fprintf(&b, "    %v, by the choice sequence %s\n", s, gosyntax.Value(f.others.Args(s)[0].(*shrink.ChoiceSeq).Data, ""))
		}
	}
	fmt.Fprintf(&b, "Choice sequence: %s\n", gosyntax.Value(f.best, ""))
	switch {
	case f.persistErr != nil:
		fmt.Fprintf(&b, "Not persisted: %v\n", f.persistErr)
	case f.persisted != "":
		fmt.Fprintf(&b, "Written to %s, which runs first from now on\n", f.persisted)
	}
	if f.persistedFrom != "" {
		fmt.Fprintf(&b, "The failure came from the saved file %s, not from a seed: go test -run='^%s$' replays it first", f.persistedFrom, c.tb.Name())
	} else {
		fmt.Fprintf(&b, "To generate the same cases: go test -run='^%s$' -fuzzshrink.seed=%d", c.tb.Name(), c.cfg.seed)
	}
	return b.String()
}

// scoreOf returns the score of a run under label.
func scoreOf(t *T, label string) float64 {
	for _, s := range t.scores {
		if s.label == label {
			return s.value
		}
	}
	return math.Inf(-1)
}
