package shrink

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// nativeValues has one value of each native fuzz type.
var nativeValues = []any{"", []byte(nil), false, 0, int8(0), int16(0), int32(0), int64(0),
	uint(0), uint8(0), uint16(0), uint32(0), uint64(0), float32(0), 0.0}

// randomTuple returns n random values of random native types.
func randomTuple(rng *rand.Rand, n, maxLen int) []any {
	t := make([]any, n)
	for i := range t {
		t[i] = randomValue(rng, nativeValues[rng.IntN(len(nativeValues))], maxLen)
	}
	return t
}

// randomValue returns a random value of like's type: small, extreme or
// arbitrary numbers; strings of up to maxLen runes, some multi-byte, some
// brackets, quotes, separators and newlines, some not valid UTF-8.
func randomValue(rng *rand.Rand, like any, maxLen int) any {
	switch like.(type) {
	case string:
		runes := []rune("ab z0é世😀\U0010FFFF\uE000\uD7FF()[]{}<>\"',;\n\t")
		var sb strings.Builder
		for range rng.IntN(maxLen + 1) {
			sb.WriteRune(runes[rng.IntN(len(runes))])
		}
		if rng.IntN(4) == 0 {
			sb.WriteByte(0xff)
		}
		return sb.String()
	case []byte:
		b := make([]byte, rng.IntN(maxLen+1))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	case bool:
		return rng.IntN(2) == 1
	case int:
		return randomInt[int](rng)
	case int8:
		return randomInt[int8](rng)
	case int16:
		return randomInt[int16](rng)
	case int32:
		return randomInt[int32](rng)
	case int64:
		return randomInt[int64](rng)
	case uint:
		return randomInt[uint](rng)
	case uint8:
		return randomInt[uint8](rng)
	case uint16:
		return randomInt[uint16](rng)
	case uint32:
		return randomInt[uint32](rng)
	case uint64:
		return randomInt[uint64](rng)
	case float32:
		return float32(randomFloat(rng))
	case float64:
		return randomFloat(rng)
	}
	panic(fmt.Sprintf("randomValue(%T)", like))
}

type integer interface {
	int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64
}

func randomInt[T integer](rng *rand.Rand) T {
	bits := reflect.TypeFor[T]().Bits()
	var lo, hi T
	if T(0)-1 < 0 {
		hi = T(uint64(1)<<(bits-1) - 1)
		lo = -hi - 1
	} else {
		hi = T(0) - 1
	}
	switch rng.IntN(4) {
	case 0:
		v := T(rng.IntN(10))
		if lo < 0 && rng.IntN(2) == 0 {
			v = -v
		}
		return v
	case 1:
		return []T{lo, lo + 1, hi - 1, hi}[rng.IntN(4)]
	case 2:
		return T(rng.Uint64())
	}
	return T(rng.Uint64() >> rng.IntN(64))
}

func randomFloat(rng *rand.Rand) float64 {
	switch rng.IntN(3) {
	case 0:
		return []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 123.456, -98.7, 1e300, -math.MaxFloat64,
			math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(13)]
	case 1:
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-5))
	}
	return math.Float64frombits(rng.Uint64())
}

// randomPredicate returns a deterministic predicate: a random subset of
// tuples (by hash), thresholds on sizes and magnitudes, or both.
func randomPredicate(rng *rand.Rand) func([]any) bool {
	k := uint64(2 + rng.IntN(3))
	seed := rng.Uint64()
	hashed := func(args []any) bool {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d %#v", seed, args)
		return h.Sum64()%k == 0
	}
	minSize := rng.IntN(6)
	minMag := math.Pow(2, float64(rng.IntN(40)))
	threshold := func(args []any) bool {
		if size(args) < minSize {
			return false
		}
		for _, a := range args {
			if f, ok := toFloat(a); ok && math.Abs(f) >= minMag {
				return true
			}
		}
		return minMag == 1
	}
	switch rng.IntN(3) {
	case 0:
		return hashed
	case 1:
		return threshold
	}
	return func(args []any) bool { return threshold(args) || hashed(args) }
}

func toFloat(a any) (float64, bool) {
	v := reflect.ValueOf(a)
	switch {
	case v.CanInt():
		return float64(v.Int()), true
	case v.CanUint():
		return float64(v.Uint()), true
	case v.CanFloat():
		return v.Float(), true
	}
	return 0, false
}

// TestShrink_AcceptedStrictlyDecrease runs random predicates on random
// tuples of every type: every accepted candidate must be strictly smaller
// than the best before it, and the search must reach a fixpoint.
func TestShrink_AcceptedStrictlyDecrease(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		checkStrictlyDecreasing(t, i, randomTuple(rng, 1+rng.IntN(4), 8), randomPredicate(rng))
	}
}

// checkStrictlyDecreasing shrinks args against fails and checks that every
// accepted candidate is strictly smaller than the best before it, that the
// result is the last one accepted, and that the search reaches a fixpoint.
func checkStrictlyDecreasing(t *testing.T, i int, args []any, fails func([]any) bool) {
	t.Helper()
	prev := cloneTuple(args)
	accepted := 0
	trace := func(ev Event) {
		if ev.Kind != Accepted {
			return
		}
		accepted++
		if compareArgs(ev.Args, prev) >= 0 {
			t.Fatalf("case %d: accepted %#v after %#v: not smaller", i, ev.Args, prev)
		}
		prev = ev.Args
	}
	r, err := Shrink(context.Background(), args, Predicate(fails), Observe(trace), MaxRuns(50000))
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Stop != StopDone {
		t.Fatalf("case %d: %#v: stopped by %v after %d runs, want a fixpoint", i, args, r.Stats.Stop, r.Stats.Runs)
	}
	if compareArgs(r.Args, prev) != 0 || accepted != r.Stats.Accepted {
		t.Fatalf("case %d: result %#v, last accepted %#v (%d accepted, Stats say %d)", i, r.Args, prev, accepted, r.Stats.Accepted)
	}
}

// TestShrink_NeverRunsTwice counts how often each candidate is run.
func TestShrink_NeverRunsTwice(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	for i := range 50 {
		args := randomTuple(rng, 1+rng.IntN(4), 8)
		fails := randomPredicate(rng)
		seen := map[string]int{fmt.Sprintf("%#v", args): 1} // the original is not run again
		calls := 0
		p := func(c []any) bool {
			calls++
			enc := fmt.Sprintf("%#v", c)
			if seen[enc]++; seen[enc] > 1 {
				t.Fatalf("case %d: candidate %s run again", i, enc)
			}
			return fails(c)
		}
		r, _ := Shrink(context.Background(), args, Predicate(p), MaxRuns(20000))
		if r.Stats.Runs != calls {
			t.Errorf("case %d: Stats.Runs = %d, predicate called %d times", i, r.Stats.Runs, calls)
		}
	}
}

// TestShrink_CandidatesAreOwned retains every candidate the predicate gets
// and checks that none changed when the search is over.
func TestShrink_CandidatesAreOwned(t *testing.T) {
	t.Parallel()
	type kept struct {
		args []any
		enc  string
	}
	var all []kept
	orig := []byte("the original, which must not change")
	p := func(c []any) bool {
		all = append(all, kept{c, fmt.Sprintf("%#v", c)})
		return bytes.Contains(c[0].([]byte), []byte("g")) && c[1].([]byte) != nil && c[2].(int) > 3
	}
	r, err := Shrink(context.Background(), []any{orig, []byte("xyz"), 1000}, Predicate(p))
	if err != nil {
		t.Fatal(err)
	}
	r.Args[0].([]byte)[0] = 'X' // the caller owns the result
	for _, k := range all {
		if got := fmt.Sprintf("%#v", k.args); got != k.enc {
			t.Fatalf("a retained candidate changed from %s to %s", k.enc, got)
		}
	}
	if string(orig) != "the original, which must not change" {
		t.Errorf("the caller's argument changed to %q", orig)
	}
}

func TestShrink_MaxRuns(t *testing.T) {
	t.Parallel()
	for _, batch := range []int{1, 3, 8} {
		for _, n := range []int{1, 2, 5, 17, 30} {
			calls := 0
			var last []any
			p := func(c []any) bool { calls++; return bytes.Contains(c[0].([]byte), []byte("N33D")) }
			args := []any{append(bytes.Repeat([]byte("x"), 1000), "N33D"...)}
			r, err := Shrink(context.Background(), args, Predicate(p), MaxRuns(n), BatchSize(batch),
				Observe(func(ev Event) {
					if ev.Kind == Accepted {
						last = ev.Args
					}
				}))
			if err != nil {
				t.Fatal(err)
			}
			if r.Stats.Stop != StopMaxRuns || r.Stats.Runs != n || calls != n {
				t.Errorf("batch %d, MaxRuns(%d): Stop %v, Runs %d, %d calls", batch, n, r.Stats.Stop, r.Stats.Runs, calls)
			}
			if last == nil {
				last = args
			}
			if compareArgs(r.Args, last) != 0 {
				t.Errorf("batch %d, MaxRuns(%d): result is not the best so far", batch, n)
			}
		}
	}
}

// TestShrink_MaxRunsFullBatches: an oracle that runs whole batches never
// gets more than MaxRuns candidates in all.
func TestShrink_MaxRunsFullBatches(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 7, 8, 9, 30} {
		o := &fakeOracle{fails: func(a []any) bool { return a[0].(int) > 1000 }, full: true}
		r, _ := Shrink(context.Background(), []any{math.MaxInt}, o, BatchSize(8), MaxRuns(n))
		if given := sumInt(o.sizes); given != n || r.Stats.Runs != n || r.Stats.Stop != StopMaxRuns {
			t.Errorf("MaxRuns(%d): oracle got %d candidates, Stats.Runs = %d, stop %v", n, given, r.Stats.Runs, r.Stats.Stop)
		}
	}
}

// TestShrink_MaxRunsAtFixpoint: a budget that is exactly enough is not
// reported as exhausted.
func TestShrink_MaxRunsAtFixpoint(t *testing.T) {
	t.Parallel()
	p := Predicate(func(c []any) bool { return c[0].(int) >= 5 })
	r, _ := Shrink(context.Background(), []any{100}, p)
	r2, _ := Shrink(context.Background(), []any{100}, p, MaxRuns(r.Stats.Runs))
	if r2.Stats.Stop != StopDone || r2.Args[0] != 5 {
		t.Errorf("MaxRuns(%d) = %v, stopped by %v; want 5, done", r.Stats.Runs, r2.Args, r2.Stats.Stop)
	}
}

func TestShrink_Cancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	p := func(c []any) bool {
		if calls++; calls == 10 {
			cancel()
		}
		return c[0].(int) > 1000
	}
	r, err := Shrink(ctx, []any{math.MaxInt}, Predicate(p))
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.Stop != StopCanceled || r.Stats.Runs != 10 || calls != 10 {
		t.Errorf("Stop %v, Runs %d, calls %d; want canceled after 10", r.Stats.Stop, r.Stats.Runs, calls)
	}
	if v := r.Args[0].(int); v <= 1000 || v == math.MaxInt {
		t.Errorf("result %d is not a failing value better than the original", v)
	}

	r, _ = Shrink(ctx, []any{7}, Predicate(p))
	if r.Stats.Stop != StopCanceled || r.Stats.Runs != 0 || r.Args[0] != 7 {
		t.Errorf("with a canceled context: %v, %+v", r.Args, r.Stats)
	}
}

// TestShrink_Deadline checks that each way of bounding a search's time
// stops it with StopDeadline, after it ran: the budgets are 200 ms, which a
// loaded machine's start of a search does not use up (at 20 ms it did,
// and the search stopped before its first run).
func TestShrink_Deadline(t *testing.T) {
	t.Parallel()
	slow := Predicate(func(c []any) bool { time.Sleep(time.Millisecond); return false })
	big := []any{make([]byte, 64<<10)}
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		opts func() []Option
	}{
		{"Timeout", ctxBackground, func() []Option { return []Option{Timeout(200 * time.Millisecond)} }},
		{"Deadline", ctxBackground, func() []Option { return []Option{Deadline(time.Now().Add(200 * time.Millisecond))} }},
		{"Deadline<Timeout", ctxBackground, func() []Option {
			return []Option{Deadline(time.Now().Add(200 * time.Millisecond)), Timeout(time.Hour)}
		}},
		{"Timeout<Deadline", ctxBackground, func() []Option {
			return []Option{Deadline(time.Now().Add(time.Hour)), Timeout(200 * time.Millisecond)}
		}},
		{"context", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 200*time.Millisecond)
		}, func() []Option { return nil }},
	} {
		ctx, cancel := tc.ctx()
		start := time.Now()
		r, err := Shrink(ctx, big, slow, tc.opts()...)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); r.Stats.Stop != StopDeadline || d > 5*time.Second || r.Stats.Runs < 1 {
			t.Errorf("%s: Stop %v after %d runs in %v; want the deadline after 200ms", tc.name, r.Stats.Stop, r.Stats.Runs, d)
		}
	}

	r, _ := Shrink(context.Background(), []any{5}, slow, Deadline(time.Now().Add(-time.Second)))
	if r.Stats.Stop != StopDeadline || r.Stats.Runs != 0 || r.Args[0] != 5 {
		t.Errorf("past deadline: %v, %+v", r.Args, r.Stats)
	}
}

func ctxBackground() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

// fakeOracle judges with fails and otherFails, records its batches, and
// either stops at the first Fail or (full) judges the whole batch.
type fakeOracle struct {
	fails, otherFails func([]any) bool
	full              bool
	sizes             []int
	firstFail         []any // of the latest batch
	otherFailsGiven   int
}

func (o *fakeOracle) Run(_ context.Context, batch [][]any) ([]Verdict, error) {
	o.sizes = append(o.sizes, len(batch))
	o.firstFail = nil
	var vs []Verdict
	for _, c := range batch {
		switch {
		case o.otherFails != nil && o.otherFails(c):
			o.otherFailsGiven++
			vs = append(vs, OtherFail)
		case o.fails(c):
			vs = append(vs, Fail)
			if o.firstFail == nil {
				o.firstFail = c
			}
			if !o.full {
				return vs, nil
			}
		default:
			vs = append(vs, Pass)
		}
	}
	return vs, nil
}

func TestShrink_Batching(t *testing.T) {
	t.Parallel()
	for _, tc := range qualityCasesInternal() {
		want, _ := Shrink(context.Background(), tc.args, Predicate(tc.fails))
		for _, full := range []bool{false, true} {
			o := &fakeOracle{fails: tc.fails, full: full}
			trace := func(ev Event) {
				if ev.Kind == Accepted && !reflect.DeepEqual(ev.Args, o.firstFail) {
					t.Fatalf("%s: accepted %#v, the first Fail of the batch was %#v", tc.name, ev.Args, o.firstFail)
				}
			}
			r, err := Shrink(context.Background(), tc.args, o, BatchSize(8), Observe(trace))
			if err != nil {
				t.Fatal(err)
			}
			if compareArgs(r.Args, want.Args) != 0 || r.Stats.Accepted != want.Stats.Accepted {
				t.Errorf("%s (full %v): BatchSize(8) gives %#v (%d accepted), BatchSize(1) %#v (%d accepted)",
					tc.name, full, r.Args, r.Stats.Accepted, want.Args, want.Stats.Accepted)
			}
			if m := maxInt(o.sizes); m != 8 {
				t.Errorf("%s: largest batch %d, want 8", tc.name, m)
			}
			if given := sumInt(o.sizes); full && r.Stats.Runs != given || r.Stats.Runs > given {
				t.Errorf("%s (full %v): Stats.Runs = %d, the oracle got %d candidates", tc.name, full, r.Stats.Runs, given)
			}
		}
	}
}

// qualityCasesInternal is a few cases of quality_external_test.go, for
// white-box tests.
func qualityCasesInternal() []struct {
	name  string
	args  []any
	fails func([]any) bool
} {
	return []struct {
		name  string
		args  []any
		fails func([]any) bool
	}{
		{"needle", []any{append(bytes.Repeat([]byte("abc"), 300), "N33D..."...)}, func(a []any) bool {
			return bytes.Contains(a[0].([]byte), []byte("N33D"))
		}},
		{"ints", []any{412, 987}, func(a []any) bool { return a[1].(int)-a[0].(int) > 5 }},
		{"string-float", []any{"xxbadxx☃", 123.456}, func(a []any) bool {
			return strings.Contains(a[0].(string), "bad") && a[1].(float64) > 10
		}},
	}
}

func sumInt(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func maxInt(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func TestShrink_OtherFail(t *testing.T) {
	t.Parallel()
	// v >= 10 fails, but below 100 it fails differently: another bug, whose
	// candidates must never be accepted.
	o := &fakeOracle{
		fails:      func(a []any) bool { return a[0].(int) >= 10 },
		otherFails: func(a []any) bool { v := a[0].(int); return v >= 10 && v < 100 },
	}
	trace := func(ev Event) {
		if ev.Kind == Accepted && o.otherFails(ev.Args) {
			t.Fatalf("accepted %v, which failed differently", ev.Args)
		}
	}
	for _, batch := range []int{1, 4} {
		o.otherFailsGiven = 0
		r, err := Shrink(context.Background(), []any{123456}, o, BatchSize(batch), Observe(trace))
		if err != nil {
			t.Fatal(err)
		}
		if r.Args[0] != 100 {
			t.Errorf("batch %d: result %v, want 100", batch, r.Args[0])
		}
		if r.Stats.OtherFails != o.otherFailsGiven || o.otherFailsGiven == 0 {
			t.Errorf("batch %d: Stats.OtherFails = %d, oracle said OtherFail %d times", batch, r.Stats.OtherFails, o.otherFailsGiven)
		}
	}
}

// oracleFunc adapts a function to an Oracle.
type oracleFunc func(ctx context.Context, batch [][]any) ([]Verdict, error)

func (f oracleFunc) Run(ctx context.Context, batch [][]any) ([]Verdict, error) { return f(ctx, batch) }

func TestShrink_OracleErrors(t *testing.T) {
	t.Parallel()
	errBroken := errors.New("test binary did not build")
	for _, tc := range []struct {
		name    string
		run     func(call int, batch [][]any) ([]Verdict, error)
		wantErr string
		runs    int
	}{
		{"error", func(call int, batch [][]any) ([]Verdict, error) {
			switch call {
			case 1:
				return []Verdict{Fail}, nil
			case 3:
				return nil, errBroken
			}
			return []Verdict{Pass}, nil
		}, "shrink: oracle: test binary did not build", 2},
		{"too many verdicts", func(int, [][]any) ([]Verdict, error) {
			return []Verdict{Pass, Pass, Pass}, nil
		}, "shrink: oracle returned 3 verdicts for 1 candidates", 0},
		{"invalid verdict", func(call int, _ [][]any) ([]Verdict, error) {
			return []Verdict{Verdict(call * 7)}, nil
		}, "shrink: oracle returned invalid verdict 7", 0},
		{"too few verdicts", func(int, [][]any) ([]Verdict, error) {
			return nil, nil
		}, "shrink: oracle returned 0 verdicts for 1 candidates and no Fail", 0},
		{"modified candidate", func(_ int, batch [][]any) ([]Verdict, error) {
			if b := batch[0][0].([]byte); len(b) > 0 {
				b[0]++ // like a fuzz function decoding in place
				return []Verdict{Fail}, nil
			}
			return []Verdict{Pass}, nil
		}, "shrink: oracle modified a candidate it was given", 2},
	} {
		call := 0
		var best []any
		o := oracleFunc(func(_ context.Context, batch [][]any) ([]Verdict, error) {
			call++
			return tc.run(call, batch)
		})
		args := []any{[]byte("abcdef"), 1000}
		r, err := Shrink(context.Background(), args, o, Observe(func(ev Event) {
			if ev.Kind == Accepted {
				best = ev.Args
			}
		}))
		if err == nil || err.Error() != tc.wantErr {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.wantErr)
		}
		if tc.name == "error" && !errors.Is(err, errBroken) {
			t.Errorf("%s: err %v does not wrap the oracle's error", tc.name, err)
		}
		if best == nil {
			best = args
		}
		if r.Stats.Stop != StopOracleError || r.Stats.Runs != tc.runs || compareArgs(r.Args, best) != 0 {
			t.Errorf("%s: result %#v (best so far %#v), %+v", tc.name, r.Args, best, r.Stats)
		}
	}
}

// TestShrink_OracleErrorWhenCanceled: an oracle that fails because the
// search was canceled did not break.
func TestShrink_OracleErrorWhenCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	o := oracleFunc(func(ctx context.Context, batch [][]any) ([]Verdict, error) {
		cancel()
		return nil, ctx.Err()
	})
	r, err := Shrink(ctx, []any{10}, o)
	if err != nil || r.Stats.Stop != StopCanceled || r.Args[0] != 10 {
		t.Errorf("Shrink = %v, %v, %v; want the original, canceled, no error", r.Args, r.Stats.Stop, err)
	}
}

func TestShrink_UnsupportedType(t *testing.T) {
	t.Parallel()
	called := false
	p := Predicate(func([]any) bool { called = true; return true })
	args := []any{1, struct{ F func() }{}}
	r, err := Shrink(context.Background(), args, p)
	if err == nil || !strings.HasPrefix(err.Error(), "shrink: argument 1: ") || !strings.Contains(err.Error(), "func()") {
		t.Errorf("err = %v, want one naming argument 1 and func()", err)
	}
	if called || !reflect.DeepEqual(r.Args, args) {
		t.Errorf("called %v, result %v", called, r.Args)
	}
}

func TestShrink_Empty(t *testing.T) {
	t.Parallel()
	r, err := Shrink(context.Background(), nil, Predicate(func([]any) bool { return true }))
	if err != nil || r.Args == nil || len(r.Args) != 0 || r.Stats.Runs != 0 || r.Stats.Stop != StopDone {
		t.Errorf("Shrink(nil) = %#v, %+v, %v", r.Args, r.Stats, err)
	}
}

func TestShrink_ObserveAndStats(t *testing.T) {
	t.Parallel()
	var events []Event
	p := Predicate(func(a []any) bool { return strings.Contains(a[0].(string), "bad") && a[1].(int) > 3 })
	r, err := Shrink(context.Background(), []any{"a bad day", 99}, p, Observe(func(ev Event) { events = append(events, ev) }))
	if err != nil {
		t.Fatal(err)
	}
	// The first pass that proposes anything for a string and an int.
	if len(events) == 0 || events[0].Kind != PassStart || events[0].Pass != "lists" || events[0].Round != 1 {
		t.Fatalf("first event %+v, want the start of pass lists in round 1", events[0])
	}
	last := events[len(events)-1]
	if last.Kind != Done || !reflect.DeepEqual(last.Args, r.Args) || last.Stats.Runs != r.Stats.Runs {
		t.Errorf("last event %+v, want Done with the result", last)
	}
	// A pass that proposes candidates for these values starts once a round,
	// but a stuck one only in rounds where nothing was accepted before it;
	// one that proposes none never starts.
	starts, accepted := map[string]int{}, 0
	for _, ev := range events {
		switch ev.Kind {
		case PassStart:
			starts[ev.Pass]++
		case Accepted:
			accepted++
		}
	}
	for _, p := range passes {
		if n := starts[p.name]; n > 0 && n != r.Stats.Rounds && !(p.stuck && n <= r.Stats.Rounds) {
			t.Errorf("pass %s started %d times in %d rounds", p.name, n, r.Stats.Rounds)
		}
	}
	for _, name := range []string{"lists", "tokens", "remove", "ints", "runes"} {
		if starts[name] != r.Stats.Rounds {
			t.Errorf("pass %s started %d times in %d rounds", name, starts[name], r.Stats.Rounds)
		}
	}
	for _, name := range []string{"zero", "floats", "bools", "bytes"} { // nothing to propose
		if starts[name] != 0 {
			t.Errorf("pass %s started %d times, with nothing to propose", name, starts[name])
		}
	}
	if accepted != r.Stats.Accepted {
		t.Errorf("%d Accepted events; Stats: %d accepted", accepted, r.Stats.Accepted)
	}
	runs, acc := 0, 0
	for i, ps := range r.Stats.Passes {
		if ps.Name != passes[i].name {
			t.Errorf("Passes[%d].Name = %q, want %q", i, ps.Name, passes[i].name)
		}
		runs += ps.Runs
		acc += ps.Accepted
	}
	if runs != r.Stats.Runs || acc != r.Stats.Accepted || r.Stats.Time <= 0 {
		t.Errorf("per-pass runs %d, accepted %d; Stats %+v", runs, acc, r.Stats)
	}
	if fmt.Sprint(r.Args) != "[bad 4]" || r.Stats.Stop != StopDone {
		t.Errorf("result %v, stop %v", r.Args, r.Stats.Stop)
	}
}

func TestStrings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		got  fmt.Stringer
		want string
	}{
		{Pass, "pass"}, {Fail, "fail"}, {OtherFail, "other fail"}, {Verdict(9), "Verdict(9)"},
		{StopDone, "done"}, {StopMaxRuns, "max runs"}, {StopDeadline, "deadline"}, {StopCanceled, "canceled"},
		{StopOracleError, "oracle error"}, {StopReason(9), "StopReason(9)"},
		{PassStart, "pass start"}, {Accepted, "accepted"}, {Done, "done"}, {EventKind(9), "EventKind(9)"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("String() = %q, want %q", s, tc.want)
		}
	}
}
