package fuzzshrink

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// kvSM checks a key-value store whose Put does not overwrite a key it
// holds: the failure needs three steps, Put(k, a), Put(k, b), Get(k).
func kvSM(t *T) {
	store, model := map[int]int{}, map[int]int{}
	key := IntRange(0, 1000)
	Repeat(t, 0, -1, &model,
		Command[map[int]int]{Name: "Put", Run: func(t *T, m *map[int]int) {
			k, v := key.Draw(t, "k"), IntRange(0, 1000).Draw(t, "v")
			if _, ok := store[k]; !ok {
				store[k] = v
			}
			(*m)[k] = v
		}},
		Command[map[int]int]{Name: "Get", Run: func(t *T, m *map[int]int) {
			k := key.Draw(t, "k")
			if got, want := store[k], (*m)[k]; got != want {
				t.Fatalf("Get(%d) = %d, want %d", k, got, want)
			}
		}},
		Command[map[int]int]{Name: "Delete", Run: func(t *T, m *map[int]int) {
			k := key.Draw(t, "k")
			delete(store, k)
			delete(*m, k)
		}},
	)
}

// kv200 returns the choice sequence of 200 steps of kvSM that fail at the
// last: steps 31, 121 and 200 are Put(7, 3), Put(7, 9) and Get(7); the
// others put, get and delete other keys, and never put a key the store
// holds.
func kv200(tb testing.TB) []byte {
	rng := rand.New(rand.NewPCG(200, 1))
	var names []string
	var args []any
	held := map[int]bool{}
	var keys []int
	for i := range 200 {
		switch {
		case i == 30:
			names, args = append(names, "Put"), append(args, "k", 7, "v", 3)
		case i == 120:
			names, args = append(names, "Put"), append(args, "k", 7, "v", 9)
		case i == 199:
			names, args = append(names, "Get"), append(args, "k", 7)
		case len(keys) == 0 || rng.IntN(2) == 0:
			k := 10 + rng.IntN(990)
			for held[k] {
				k = 10 + rng.IntN(990)
			}
			held[k] = true
			keys = append(keys, k)
			names, args = append(names, "Put"), append(args, "k", k, "v", rng.IntN(1001))
		case rng.IntN(3) > 0:
			names, args = append(names, "Get"), append(args, "k", keys[rng.IntN(len(keys))])
		default:
			j := rng.IntN(len(keys))
			k := keys[j]
			keys = append(keys[:j], keys[j+1:]...)
			delete(held, k)
			names, args = append(names, "Delete"), append(args, "k", k)
		}
	}
	s := seed{values: map[string][]any{StepsLabel: {names}}, order: []string{StepsLabel}}
	for i := 0; i < len(args); i += 2 {
		s.values[args[i].(string)] = append(s.values[args[i].(string)], args[i+1])
	}
	data, err := s.choices(kvSM)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// TestRepeat_200Steps: 200 steps shrink to the three the failure needs.
func TestRepeat_200Steps(t *testing.T) {
	t.Parallel()
	data := kv200(t)
	if _, report := replaySM(kvSM, data); !strings.Contains(report, "postcondition failed at step 200, Get(7): Get(7) = 3, want 9") {
		t.Fatalf("the original:\n%s", report)
	}
	best, _, runs := shrinkSM(t, kvSM, data)
	_, report := replaySM(kvSM, best)
	if want := "Shrunk:   [Put(0, 0), Put(0, 1), Get(0)] (0 shrink steps)\nFailure:  postcondition failed at step 3, Get(0): Get(0) = 0, want 1"; report != want {
		t.Errorf("shrunk to\n%s\nwant\n%s", report, want)
	}
	t.Logf("200 steps, %d bytes → 3 steps, %d bytes: %d runs", len(data), len(best), runs)
}

// BenchmarkRepeat200 measures the shrinking of a failure of 200 steps to
// the three it needs, in process, as Check shrinks it: the runs and the
// time it takes.
func BenchmarkRepeat200(b *testing.B) {
	data := kv200(b)
	c := newChecker(nil, kvSM, []CheckOption{CorpusDir("")})
	want, t := c.replay(data)
	norm, rec := t.rec.Normalize()
	runs := 0
	for b.Loop() {
		o := &choiceOracle{run: c.replay, want: want}
		r, err := shrink.Shrink(context.Background(), []any{&shrink.ChoiceSeq{Data: norm, Rec: rec}}, o)
		if err != nil || len(r.Args[0].(*shrink.ChoiceSeq).Data) != 11 {
			b.Fatalf("%v, %v", r.Args, err)
		}
		runs += o.runs
	}
	b.ReportMetric(float64(runs)/float64(b.N), "runs/op")
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "candidates/s")
}

// BenchmarkRepeatSessionRate measures candidates per second of fuzzmin's
// minimize session of a state machine target: the failure of 200 steps
// shrunk to 3, each candidate recorded in the session's file before it
// runs, as the command runs it.
func BenchmarkRepeatSessionRate(b *testing.B) {
	data := kv200(b)
	runs := 0
	for b.Loop() {
		s := &minimizeSession{dir: b.TempDir(), cfg: session.Config{Target: "FuzzKV", Entry: "e"}}
		res := s.minimizeChoices(nil, kvSM, data)
		if res.Error != "" || !strings.Contains(res.Draws, "Shrunk:   [Put(0, 0), Put(0, 1), Get(0)]") {
			b.Fatalf("%+v", res)
		}
		runs += res.Runs
	}
	b.ReportMetric(float64(runs)/float64(b.N), "runs/op")
	b.ReportMetric(float64(runs)/b.Elapsed().Seconds(), "candidates/s")
}

// BenchmarkRepeatReplay measures a run of the 200 steps as a fuzz target
// runs an input under go test -fuzz (no record), and as the shrinker
// replays a candidate (with the record).
func BenchmarkRepeatReplay(b *testing.B) {
	data := kv200(b)
	var spare shrink.Record
	for _, bc := range []struct {
		name string
		run  func()
	}{
		{"fuzz", func() { runCaptured(newT(nil, data, nil), kvSM) }},
		{"record", func() { spare = runChoices(nil, kvSM, data, false, &spare).rec }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bc.run()
			}
			b.ReportMetric(200*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
