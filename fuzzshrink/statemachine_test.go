package fuzzshrink

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// stackSM is a stack checked against a model; buggy makes Pop return the
// oldest element. Its commands: Push(v), Pop() (the model not empty),
// Clear() (no precondition).
func stackSM(buggy bool) func(t *T) {
	return func(t *T) {
		var xs, model []int
		Repeat(t, 1, 50, &model,
			Command[[]int]{Name: "Push", Run: func(t *T, m *[]int) {
				v := IntRange(0, 100).Draw(t, "v")
				xs = append(xs, v)
				*m = append(*m, v)
			}},
			Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *T, m *[]int) {
				var got int
				if buggy {
					got, xs = xs[0], xs[1:]
				} else {
					got, xs = xs[len(xs)-1], xs[:len(xs)-1]
				}
				want := (*m)[len(*m)-1]
				*m = (*m)[:len(*m)-1]
				if got != want {
					t.Fatalf("got %d, want %d", got, want)
				}
			}},
			Command[[]int]{Name: "Clear", Run: func(t *T, m *[]int) {
				xs, *m = nil, nil
			}},
		)
	}
}

// replaySM replays data through prop, keeping the draws, and returns the
// run and its report lines.
func replaySM(prop func(*T), data []byte) (*T, string) {
	t := runChoices(nil, prop, data, true, nil)
	return t, strings.Join(drawLines(t, nil, 0, t.sig.Failed(), ""), "\n")
}

// TestRepeat_SkipOnReplay: a step whose precondition does not hold when a
// candidate is replayed (the step it relied on was deleted) is skipped: it
// does not run, is not reported, does not count as a step, and its span
// is not in the normal form.
func TestRepeat_SkipOnReplay(t *testing.T) {
	t.Parallel()
	// Push(9), Pop(), Push(5), Push(1), Pop(): the steps and their tokens
	// (the first without a continue flag, then flag 1 and the index).
	orig := []byte{0, 9, 1, 1, 1, 0, 5, 1, 0, 1, 1, 1, 0}
	for _, tc := range []struct {
		name       string
		data, norm []byte
		report     string
	}{
		{
			"original",
			orig,
			orig[:12],
			"Shrunk:   [Push(9), Pop(), Push(5), Push(1), Pop()] (0 shrink steps)\n" +
				"Failure:  postcondition failed at step 5, Pop(): got 5, want 1",
		},
		{
			// Push(9) deleted: Pop, the first step, has no flag, and is
			// skipped; the next step has none either.
			"first deleted",
			orig[2:],
			[]byte{0, 5, 1, 0, 1, 1, 1},
			"Shrunk:   [Push(5), Push(1), Pop()] (0 shrink steps)\n" +
				"Failure:  postcondition failed at step 3, Pop(): got 5, want 1",
		},
		{
			// Push(5) turned into Clear: the Pop after the Clear is skipped.
			"cleared",
			[]byte{0, 9, 1, 2, 1, 1, 1, 0, 7, 1, 0, 1, 1, 1, 0},
			[]byte{0, 9, 1, 2, 1, 0, 7, 1, 0, 1, 1, 1},
			"Shrunk:   [Push(9), Clear(), Push(7), Push(1), Pop()] (0 shrink steps)\n" +
				"Failure:  postcondition failed at step 5, Pop(): got 7, want 1",
		},
	} {
		tt, report := replaySM(stackSM(true), tc.data)
		norm, _ := tt.rec.Normalize()
		if report != tc.report || !bytes.Equal(norm, tc.norm) {
			t.Errorf("%s: report\n%s\nnormal form %v, want\n%s\n%v", tc.name, report, norm, tc.report, tc.norm)
		}
		// The normal form replays to the same run.
		if _, again := replaySM(stackSM(true), norm); again != report {
			t.Errorf("%s: the normal form replays as\n%s", tc.name, again)
		}
	}
}

// TestRepeat_NormalForm: on random data (fuzz inputs, candidates), the
// normal form of a run replays to the same steps and failure, and is its
// own normal form; and it never holds a skipped step.
func TestRepeat_NormalForm(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		data := make([]byte, rng.IntN(40))
		for j := range data {
			data[j] = byte(rng.IntN(4)) // mostly small tokens: long runs, many skips
			if rng.IntN(10) == 0 {
				data[j] = byte(rng.Uint32())
			}
		}
		prop := stackSM(i%2 == 0)
		tt, report := replaySM(prop, data)
		norm, _ := tt.rec.Normalize()
		t2, again := replaySM(prop, norm)
		norm2, _ := t2.rec.Normalize()
		if again != report || t2.sig != tt.sig || !bytes.Equal(norm, norm2) || len(norm) > len(data)+60 {
			t.Fatalf("%v: report\n%s\nnormal form %v replays as\n%s\nnormal form %v", data, report, norm, again, norm2)
		}
		// No step is skipped in the normal form: every index read runs.
		if seq := nthSeq(t2, 0); seq != nil && seq.steps != countSteps(t2.rec) {
			t.Fatalf("%v: %d steps ran, %d step spans", norm, seq.steps, countSteps(t2.rec))
		}
	}
}

// countSteps counts the step spans of a record.
func countSteps(rec shrink.Record) int {
	n := 0
	for _, sp := range rec.Spans {
		if sp.Drawer == stepInfo {
			n++
		}
	}
	return n
}

// TestRepeat_PastTheEnd: past the end of the data every index reads 0; a
// step whose command 0 is not enabled takes the first command enabled,
// so that a sequence reaches its minimum and replay ends.
func TestRepeat_PastTheEnd(t *testing.T) {
	t.Parallel()
	prop := func(t *T) {
		n := 0
		Repeat(t, 3, 10, &n,
			Command[int]{Name: "Dec", Pre: func(m *int) bool { return *m > 0 }, Run: func(t *T, m *int) { *m-- }},
			Command[int]{Name: "Inc", Run: func(t *T, m *int) { *m++ }},
		)
		t.Fatalf("n = %d", n)
	}
	tt, report := replaySM(prop, nil)
	if want := "Shrunk:   [Inc(), Dec(), Inc()] (0 shrink steps)\nFailure:  failed after step 3, the last: n = 1"; report != want {
		t.Errorf("report\n%s\nwant\n%s", report, want)
	}
	if norm, _ := tt.rec.Normalize(); !bytes.Equal(norm, []byte{1, 0, 1, 0}) {
		t.Errorf("normal form %v", norm)
	}
}

// TestRepeat_NoCommandCanRun: a state in which no command's Pre holds is
// a failure, even before the minimum of steps, and so is it in a Machine.
func TestRepeat_NoCommandCanRun(t *testing.T) {
	t.Parallel()
	dec := Command[int]{Name: "Dec", Pre: func(m *int) bool { return *m > 0 }, Run: func(t *T, m *int) { *m-- }}
	for name, prop := range map[string]func(t *T){
		"Repeat": func(t *T) {
			n := 2
			Repeat(t, 5, 10, &n, dec)
		},
		"Machine": func(t *T) {
			n := 2
			Machine[int]{Min: 5, Max: 10, Model: &n, Commands: []Command[int]{dec}}.Run(t)
		},
	} {
		want := "Shrunk:   [Dec(), Dec()] (0 shrink steps)\nFailure:  failed after step 2, the last: no command can run: every command's Pre is false"
		if _, report := replaySM(prop, nil); report != want {
			t.Errorf("%s: report\n%s\nwant\n%s", name, report, want)
		}
	}
}

// TestRepeat_Lengths: a sequence has min to max steps, whatever the data.
func TestRepeat_Lengths(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, lens := range [][2]int{{0, 0}, {0, 1}, {2, 2}, {3, 7}, {1, -1}} {
		for range 200 {
			data := make([]byte, rng.IntN(60))
			for j := range data {
				data[j] = byte(rng.Uint32())
			}
			steps := 0
			prop := func(t *T) {
				var m struct{}
				Repeat(t, lens[0], lens[1], &m, Command[struct{}]{Name: "A", Run: func(t *T, _ *struct{}) { steps++ }})
			}
			steps = 0
			runChoices(nil, prop, data, false, nil)
			if steps < lens[0] || lens[1] >= 0 && steps > lens[1] {
				t.Fatalf("%v: %d steps, want [%d, %d]", lens, steps, lens[0], lens[1])
			}
			// Generated too.
			steps = 0
			g := newT(nil, nil, newGenerator(rng.Uint64(), 100))
			runCaptured(g, prop)
			if steps < lens[0] || lens[1] >= 0 && steps > lens[1] {
				t.Fatalf("generated %v: %d steps", lens, steps)
			}
		}
	}
}

// TestRepeat_Panics: Repeat rejects what it cannot run.
func TestRepeat_Panics(t *testing.T) {
	t.Parallel()
	var m int
	run := func(*T, *int) {}
	for name, f := range map[string]func(t *T){
		"lengths":  func(t *T) { Repeat(t, 3, 2, &m, Command[int]{Name: "A", Run: run}) },
		"negative": func(t *T) { Repeat(t, -1, 2, &m, Command[int]{Name: "A", Run: run}) },
		"none":     func(t *T) { Repeat[int](t, 0, 2, &m) },
		"no name":  func(t *T) { Repeat(t, 0, 2, &m, Command[int]{Run: run}) },
		"no run":   func(t *T) { Repeat(t, 0, 2, &m, Command[int]{Name: "A"}) },
	} {
		tt := newT(nil, nil, nil)
		if sig := runCaptured(tt, f); sig.Kind != failure.Panic || !strings.Contains(fmt.Sprint(tt.panicValue), "fuzzshrink.Repeat") {
			t.Errorf("%s: %v, %v", name, sig, tt.panicValue)
		}
	}
}

// writesSM writes values to a register that breaks on a value of 50 or
// more, which a check after the sequence finds: the failure needs that one
// Write, wherever it is.
func writesSM(t *T) {
	broken, m := false, 0
	Repeat(t, 0, -1, &m, Command[int]{Name: "Write", Run: func(t *T, m *int) {
		if IntRange(0, 100).Draw(t, "v") >= 50 {
			broken = true
		}
	}})
	if broken {
		t.Fatal("broken")
	}
}

// writes returns the choice sequence of Write(v) for each v.
func writes(vs ...int) []byte {
	var data []byte
	for _, v := range vs {
		data = append(data, 1, byte(v))
	}
	return append(data, 0)
}

// shrinkSM shrinks the failure of prop on data as Check does, and returns
// the result, the runs of the delete spans pass until the sequence has
// its final length, and all the runs.
func shrinkSM(t testing.TB, prop func(*T), data []byte) (best []byte, deleteRuns, runs int) {
	c := newChecker(nil, prop, []CheckOption{CorpusDir("")})
	want, tt := c.replay(data)
	if !want.Failed() {
		t.Fatalf("%v does not fail", data)
	}
	norm, rec := tt.rec.Normalize()
	o := &choiceOracle{run: c.replay, want: want}
	steps := map[*shrink.ChoiceSeq]int{} // the steps of each best sequence
	var deletes []int                    // the runs of delete spans at each accepted candidate
	r, err := shrink.Shrink(context.Background(), []any{&shrink.ChoiceSeq{Data: norm, Rec: rec}}, o, shrink.Observe(func(ev shrink.Event) {
		if ev.Kind == shrink.Accepted {
			seq := ev.Args[0].(*shrink.ChoiceSeq)
			steps[seq] = countSteps(*seq.Rec)
			deletes = append(deletes, passRuns(ev.Stats, "delete spans"))
			deletes = append(deletes, steps[seq])
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	final := countSteps(*r.Args[0].(*shrink.ChoiceSeq).Rec)
	for i := 0; i < len(deletes); i += 2 {
		if deletes[i+1] == final {
			deleteRuns = deletes[i]
			break
		}
	}
	return r.Args[0].(*shrink.ChoiceSeq).Data, deleteRuns, r.Stats.Runs
}

// passRuns returns the runs of the pass of that name.
func passRuns(st shrink.Stats, name string) int {
	for _, p := range st.Passes {
		if p.Name == name {
			return p.Runs
		}
	}
	panic(name)
}

// TestRepeat_OneStepOfMany: a failure that needs step 7 of 12 alone is
// isolated in O(log n) runs of block removal; the runs are printed for
// growing sequences with the step at the same relative place.
func TestRepeat_OneStepOfMany(t *testing.T) {
	t.Parallel()
	for _, n := range []int{12, 24, 48, 96, 192, 384, 768} {
		vs := make([]int, n)
		for i := range vs {
			vs[i] = i % 50
		}
		vs[n*7/12-1] = 77 // step 7 of 12
		best, deleteRuns, runs := shrinkSM(t, writesSM, writes(vs...))
		if !bytes.Equal(best, []byte{1, 50, 0}) {
			t.Errorf("n = %d: shrunk to %v, want [Write(50)]", n, best)
		}
		t.Logf("step %d of %d: %d runs of block removal to isolate it, %d runs in all", n*7/12, n, deleteRuns, runs)
		if limit := 4*bits.Len(uint(n)) + 8; deleteRuns > limit {
			t.Errorf("%d runs of block removal for %d steps, want at most %d", deleteRuns, n, limit)
		}
	}
}

// TestSession_Repeat: fuzzmin's session of a target of generators that
// runs a state machine reports the result as the sequence of commands,
// with the original and the failure, in Result.Draws, which the command
// prints under the entry and in -json.
func TestSession_Repeat(t *testing.T) {
	// Push(3), Pop(), Push(5), Push(1), Pop(), Pop(), as a fuzzer might
	// find it.
	data := []byte{0, 3, 1, 1, 1, 0, 5, 1, 0, 1, 1, 1, 1, 1, 0}
	s := &minimizeSession{dir: t.TempDir(), cfg: session.Config{Target: "FuzzStack", Entry: "e"}}
	res := s.minimizeChoices(t, stackSM(true), data)
	want := "Original: [Push(3), Pop(), Push(5), Push(1), Pop()]\n" +
		"Shrunk:   [Push(0), Push(1), Pop()] (" + fmt.Sprint(res.Accepted) + " shrink steps)\n" +
		"Failure:  postcondition failed at step 3, Pop(): got 0, want 1"
	if res.Error != "" || res.Draws != want || res.Value != `[]byte("\x00\x00\x01\x00\x01\x01\x01")` {
		t.Fatalf("result %+v, want draws\n%s", res, want)
	}
	if res.Want.Kind != failure.Fail || !strings.HasPrefix(res.Want.Pos, "statemachine_test.go:") {
		t.Errorf("signature %v", res.Want)
	}
}

// TestRepeat_AddDraws: AddDraws forces the steps by the names of their
// commands, and says why it cannot.
func TestRepeat_AddDraws(t *testing.T) {
	t.Parallel()
	force := func(values ...any) ([]byte, error) {
		s := seed{values: map[string][]any{}}
		for i := 0; i < len(values); i += 2 {
			s.values[values[i].(string)] = append(s.values[values[i].(string)], values[i+1])
			s.order = append(s.order, values[i].(string))
		}
		return s.choices(stackSM(false))
	}
	data, err := force(StepsLabel, []string{"Push", "Clear", "Push", "Pop"}, "v", 7, "v", 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, report := replaySM(stackSM(false), data); report != "Shrunk:   [Push(7), Clear(), Push(3), Pop()] (0 shrink steps)" {
		t.Errorf("%v replays as\n%s", data, report)
	}
	for _, tc := range []struct {
		steps any
		err   string
	}{
		{[]string{"Push", "Peek"}, `draw "Repeat" of Repeat: no command "Peek"`},
		{[]string{"Pop"}, `draw "Repeat" of Repeat: step 1, Pop: its Pre does not hold`},
		{[]string{}, `draw "Repeat" of Repeat: 0 steps, want at least 1`},
		{"Push", `draw "Repeat" of Repeat: a value of type string, want []string, the names of its commands`},
	} {
		if _, err := force(StepsLabel, tc.steps); err == nil || err.Error() != tc.err {
			t.Errorf("%v: %v, want %s", tc.steps, err, tc.err)
		}
	}
}
