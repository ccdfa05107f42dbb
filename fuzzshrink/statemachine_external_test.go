package fuzzshrink_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// sequence returns the Original, Shrunk and Failure lines of a report,
// without their headings, and the shrunk sequence's number of steps.
func sequence(t *testing.T, report string) (orig, shrunk, fail string) {
	t.Helper()
	for _, l := range strings.Split(report, "\n") {
		switch {
		case strings.HasPrefix(l, "    Original: "):
			orig = strings.TrimPrefix(l, "    Original: ")
		case strings.HasPrefix(l, "    Shrunk:   "):
			shrunk = strings.TrimPrefix(l, "    Shrunk:   ")
		case strings.HasPrefix(l, "    Failure:  "):
			fail = strings.TrimPrefix(l, "    Failure:  ")
		}
	}
	return orig, shrunk, fail
}

// shrinkSteps cuts " (N shrink steps)" off a Shrunk line.
var shrinkSteps = regexp.MustCompile(` \(\d+ shrink steps?\)$`)

// shrinksTo checks that prop, under every seed, shrinks to the steps want
// (without the count of shrink steps) and fails with the failure line fail.
func shrinksTo(t *testing.T, prop func(*fuzzshrink.T), want, fail string) {
	t.Helper()
	for seed := uint64(1); seed <= seeds; seed++ {
		report := check(t, prop, fuzzshrink.Seed(seed))
		_, shrunk, got := sequence(t, report)
		if shrinkSteps.ReplaceAllString(shrunk, "") != want || got != fail {
			t.Errorf("seed %d: shrunk %s, failure %s\n%s", seed, shrunk, got, report)
		}
	}
}

// runsOf returns the runs a report says the shrinking took.
func runsOf(t *testing.T, report string) int {
	t.Helper()
	m := regexp.MustCompile(` in (\d+) runs,`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no runs in the report:\n%s", report)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// checkFrom runs Check on prop with data as a persisted failure, which it
// replays and shrinks first, and returns the report.
func checkFrom(t *testing.T, prop func(*fuzzshrink.T), data []byte, opts ...fuzzshrink.CheckOption) string {
	t.Helper()
	dir := t.TempDir()
	b, err := encoding.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "original"), b, 0o666); err != nil {
		t.Fatal(err)
	}
	report := check(t, prop, append([]fuzzshrink.CheckOption{fuzzshrink.CorpusDir(dir), fuzzshrink.Seed(1)}, opts...)...)
	if !strings.Contains(report, "Shrunk from the persisted failure") {
		t.Fatalf("the persisted failure did not fail:\n%s", report)
	}
	return report
}

// force returns the choice sequence of prop with the draws given, as
// AddDraws takes them.
func force(t *testing.T, prop func(*fuzzshrink.T), labelsAndValues ...any) []byte {
	t.Helper()
	data, err := fuzzshrink.Force(prop, labelsAndValues...)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// queueStack is a stack whose Pop returns the oldest element: a queue by
// mistake.
type queueStack struct{ xs []int }

func (s *queueStack) Push(v int) { s.xs = append(s.xs, v) }

func (s *queueStack) Pop() int {
	v := s.xs[0]
	s.xs = s.xs[1:]
	return v
}

// stackProp checks queueStack against a model, a slice used as a stack.
func stackProp(t *fuzzshrink.T) {
	s := &queueStack{}
	var model []int
	fuzzshrink.Repeat(t, 1, 50, &model,
		fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) {
			v := fuzzshrink.IntRange(0, 100).Draw(t, "v")
			s.Push(v)
			*m = append(*m, v)
		}},
		fuzzshrink.Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *fuzzshrink.T, m *[]int) {
			got, want := s.Pop(), (*m)[len(*m)-1]
			*m = (*m)[:len(*m)-1]
			if got != want {
				t.Fatalf("got %d, want %d", got, want)
			}
		}},
	)
}

// TestAcceptance_Stack: from [Push(3), Pop(), Push(5), Push(1), Pop(),
// Pop()], the queue by mistake shrinks to exactly [Push(0), Push(1), Pop()],
// failing at step 3; and so do the failures that Check generates.
func TestAcceptance_Stack(t *testing.T) {
	t.Parallel()
	data := force(t, stackProp, fuzzshrink.StepsLabel, []string{"Push", "Pop", "Push", "Push", "Pop"}, "v", 3, "v", 5, "v", 1)
	// The sixth step, which the run never reaches (the fifth fails): its
	// continue flag and Pop's index, and the flag that ends the sequence.
	data = append(data, 1, 1, 0)
	report := checkFrom(t, stackProp, data)
	orig, shrunk, fail := sequence(t, report)
	if orig != "[Push(3), Pop(), Push(5), Push(1), Pop()]" ||
		shrinkSteps.ReplaceAllString(shrunk, "") != "[Push(0), Push(1), Pop()]" ||
		fail != "postcondition failed at step 3, Pop(): got 0, want 1" {
		t.Errorf("original %s, shrunk %s, failure %s\n%s", orig, shrunk, fail, report)
	}
	t.Logf("%s: %d runs", shrunk, runsOf(t, report))

	shrinksTo(t, stackProp, "[Push(0), Push(1), Pop()]", "postcondition failed at step 3, Pop(): got 0, want 1")
}

// ledger is an account ledger whose Withdraw does not check the funds.
type ledger struct{ balances map[string]int }

func (l *ledger) Open(name string) {
	if _, ok := l.balances[name]; !ok {
		l.balances[name] = 0
	}
}

func (l *ledger) Withdraw(name string, amount int) { l.balances[name] -= amount }

// ledgerModel is the accounts opened, in order, and their balances.
type ledgerModel struct {
	names    []string
	balances map[string]int
}

// ledgerProp checks the invariant of the ledger, no balance below 0,
// after each step of Open(name) and Withdraw(account, amount).
func ledgerProp(t *fuzzshrink.T) {
	l := &ledger{balances: map[string]int{}}
	m := &ledgerModel{balances: map[string]int{}}
	fuzzshrink.Repeat(t, 0, -1, m,
		fuzzshrink.Command[ledgerModel]{Name: "Open", Run: func(t *fuzzshrink.T, m *ledgerModel) {
			name := fuzzshrink.String().Draw(t, "name")
			l.Open(name)
			if _, ok := m.balances[name]; !ok {
				m.names = append(m.names, name)
				m.balances[name] = 0
			}
		}},
		fuzzshrink.Command[ledgerModel]{Name: "Withdraw",
			Pre: func(m *ledgerModel) bool { return len(m.names) > 0 },
			Run: func(t *fuzzshrink.T, m *ledgerModel) {
				name := fuzzshrink.SampledFrom(m.names...).Draw(t, "account")
				amount := fuzzshrink.IntRange(1, 1000).Draw(t, "amount")
				l.Withdraw(name, amount)
				if m.balances[name] >= amount {
					m.balances[name] -= amount
				}
				if b := l.balances[name]; b < 0 {
					t.Fatalf("the balance of %q is %d", name, b)
				}
			}},
	)
}

// TestAcceptance_Ledger: a failure of 31 steps shrinks to exactly
// [Open(""), Withdraw("", 1)]; and so do the failures Check generates.
func TestAcceptance_Ledger(t *testing.T) {
	t.Parallel()
	var names []string
	args := []any{}
	for i := range 30 {
		names = append(names, "Open")
		args = append(args, "name", "account-"+strconv.Itoa(i))
	}
	names = append(names, "Withdraw")
	args = append(args, "account", "account-17", "amount", 500)
	data := force(t, ledgerProp, append([]any{fuzzshrink.StepsLabel, names}, args...)...)
	report := checkFrom(t, ledgerProp, data)
	orig, shrunk, fail := sequence(t, report)
	if n := strings.Count(orig, "Open("); n != 30 || !strings.HasSuffix(orig, `Withdraw("account-17", 500)]`) {
		t.Errorf("original %s", orig)
	}
	if shrinkSteps.ReplaceAllString(shrunk, "") != `[Open(""), Withdraw("", 1)]` ||
		fail != `postcondition failed at step 2, Withdraw("", 1): the balance of "" is -1` {
		t.Errorf("shrunk %s, failure %s\n%s", shrunk, fail, report)
	}
	t.Logf("31 steps → %s: %d runs", shrunk, runsOf(t, report))

	for seed := uint64(1); seed <= seeds; seed++ {
		report := check(t, ledgerProp, fuzzshrink.Seed(seed))
		if _, shrunk, _ := sequence(t, report); shrinkSteps.ReplaceAllString(shrunk, "") != `[Open(""), Withdraw("", 1)]` {
			t.Errorf("seed %d: shrunk %s\n%s", seed, shrunk, report)
		}
	}
}

// counterProp checks a counter whose Add(n) adds one more for n ≥ 50, in
// sequences of at least 3 steps: after each Add if atEnd is false, after
// the sequence if it is true.
func counterProp(atEnd bool) func(t *fuzzshrink.T) {
	return func(t *fuzzshrink.T) {
		got, want := 0, 0
		check := func(t *fuzzshrink.T) {
			if got != want {
				t.Fatalf("counter %d, want %d", got, want)
			}
		}
		fuzzshrink.Repeat(t, 3, 20, &want,
			fuzzshrink.Command[int]{Name: "Inc", Run: func(t *fuzzshrink.T, m *int) {
				got++
				*m++
			}},
			fuzzshrink.Command[int]{Name: "Add", Run: func(t *fuzzshrink.T, m *int) {
				n := fuzzshrink.IntRange(0, 100).Draw(t, "n")
				got += n
				if n >= 50 {
					got++
				}
				*m += n
				if !atEnd {
					check(t)
				}
			}},
		)
		check(t)
	}
}

// TestAcceptance_MinLength: sequences of at least 3 steps whose failure
// needs one Add(n ≥ 50) shrink to 3 steps, never fewer.
func TestAcceptance_MinLength(t *testing.T) {
	t.Parallel()
	// The postcondition of Add fails at step 5 of 7.
	prop := counterProp(false)
	data := force(t, prop, fuzzshrink.StepsLabel, []string{"Inc", "Add", "Inc", "Add", "Add", "Inc", "Inc"}, "n", 7, "n", 20, "n", 70)
	report := checkFrom(t, prop, data)
	orig, shrunk, fail := sequence(t, report)
	if orig != "[Inc(), Add(7), Inc(), Add(20), Add(70)]" || shrinkSteps.ReplaceAllString(shrunk, "") != "[Inc(), Inc(), Add(50)]" ||
		fail != "postcondition failed at step 3, Add(50): counter 53, want 52" {
		t.Errorf("original %s, shrunk %s, failure %s\n%s", orig, shrunk, fail, report)
	}

	// Generated, checked after the sequence: always 3 steps.
	shrinksTo(t, counterProp(true), "[Inc(), Inc(), Add(50)]", "failed after step 3, the last: counter 53, want 52")

	// Generated, checked after each Add: 3 steps, even when the original
	// failed before its third step (the steps before its failing one are
	// made up to 3, as shrinking cannot).
	short := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		report := check(t, counterProp(false), fuzzshrink.Seed(seed))
		orig, shrunk, fail := sequence(t, report)
		if strings.Count(orig, "(") < 3 {
			short++
		}
		if shrinkSteps.ReplaceAllString(shrunk, "") != "[Inc(), Inc(), Add(50)]" || fail != "postcondition failed at step 3, Add(50): counter 53, want 52" {
			t.Errorf("seed %d: shrunk %s, failure %s\n%s", seed, shrunk, fail, report)
		}
	}
	t.Logf("%d of %d generated failures failed before their third step", short, seeds)
}

// TestRepeat_SkippedStepsDoNotCount: a persisted failure whose first Pop
// cannot run (a candidate in which the Push it relied on was deleted) is
// replayed without it: the Original line, and the step of the failure,
// count only the steps that ran.
func TestRepeat_SkippedStepsDoNotCount(t *testing.T) {
	t.Parallel()
	// Pop(), Push(5), Push(1), Pop(): the first Pop is skipped.
	data := []byte{1, 0, 5, 1, 0, 1, 1, 1, 0}
	report := checkFrom(t, stackProp, data, fuzzshrink.ShrinkRuns(1))
	orig, shrunk, fail := sequence(t, report)
	if orig != "[Push(5), Push(1), Pop()]" {
		t.Errorf("original %s\n%s", orig, report)
	}
	// One run: the normal form, without the skipped step, is the best.
	if shrunk != "[Push(5), Push(1), Pop()] (0 shrink steps)" || fail != "postcondition failed at step 3, Pop(): got 5, want 1" {
		t.Errorf("shrunk %s, failure %s\n%s", shrunk, fail, report)
	}
}

// TestRepeat_NoArguments: commands without arguments shrink as steps: a
// counter whose Dec fails when it comes down from 2.
func TestRepeat_NoArguments(t *testing.T) {
	t.Parallel()
	prop := func(t *fuzzshrink.T) {
		got, want := 0, 0
		fuzzshrink.Repeat(t, 0, 30, &want,
			fuzzshrink.Command[int]{Name: "Inc", Run: func(t *fuzzshrink.T, m *int) { got++; *m++ }},
			fuzzshrink.Command[int]{Name: "Dec", Pre: func(m *int) bool { return *m > 0 }, Run: func(t *fuzzshrink.T, m *int) {
				if got == 2 {
					got-- // forgets to go down twice
				}
				got--
				*m--
				if got != *m {
					t.Fatalf("counter %d, want %d", got, *m)
				}
			}},
			fuzzshrink.Command[int]{Name: "Reset", Run: func(t *fuzzshrink.T, m *int) { got, *m = 0, 0 }},
		)
	}
	shrinksTo(t, prop, "[Inc(), Inc(), Dec()]", "postcondition failed at step 3, Dec(): counter 0, want 1")
}

// TestRepeat_ArgumentsFromTheModel: the arguments of a step may depend on
// the model: Remove(i) draws an index into the list the model holds, and
// after the steps before it are deleted, it reads an index in a shorter
// list.
func TestRepeat_ArgumentsFromTheModel(t *testing.T) {
	t.Parallel()
	prop := func(t *fuzzshrink.T) {
		var list, model []int
		fuzzshrink.Repeat(t, 0, 40, &model,
			fuzzshrink.Command[[]int]{Name: "Append", Run: func(t *fuzzshrink.T, m *[]int) {
				v := fuzzshrink.IntRange(0, 9).Draw(t, "v")
				list = append(list, v)
				*m = append(*m, v)
			}},
			fuzzshrink.Command[[]int]{Name: "Remove", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *fuzzshrink.T, m *[]int) {
				i := fuzzshrink.IntRange(0, len(*m)-1).Draw(t, "i")
				j := i
				if j > 0 {
					j-- // the bug: removes the element before
				}
				list = append(list[:j:j], list[j+1:]...)
				*m = append((*m)[:i:i], (*m)[i+1:]...)
				if !slices.Equal(list, *m) {
					t.Fatalf("got %v, want %v", list, *m)
				}
			}},
		)
	}
	shrinksTo(t, prop, "[Append(0), Append(1), Remove(1)]", "postcondition failed at step 3, Remove(1): got [1], want [0]")
}

// TestRepeat_FailureIdentity: a candidate that fails another way (Push(0)
// panics, another bug) is never accepted; the report names it.
func TestRepeat_FailureIdentity(t *testing.T) {
	t.Parallel()
	prop := func(t *fuzzshrink.T) {
		s := &queueStack{}
		var model []int
		fuzzshrink.Repeat(t, 1, 50, &model,
			fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) {
				v := fuzzshrink.IntRange(0, 100).Draw(t, "v")
				if v == 0 {
					panic("zero")
				}
				s.Push(v)
				*m = append(*m, v)
			}},
			fuzzshrink.Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *fuzzshrink.T, m *[]int) {
				got, want := s.Pop(), (*m)[len(*m)-1]
				*m = (*m)[:len(*m)-1]
				if got != want {
					t.Fatalf("got %d, want %d", got, want)
				}
			}},
		)
	}
	data := force(t, prop, fuzzshrink.StepsLabel, []string{"Push", "Pop", "Push", "Push", "Pop"}, "v", 3, "v", 5, "v", 1)
	report := checkFrom(t, prop, data)
	_, shrunk, fail := sequence(t, report)
	if shrinkSteps.ReplaceAllString(shrunk, "") != "[Push(1), Push(2), Pop()]" || fail != "postcondition failed at step 3, Pop(): got 1, want 2" ||
		!strings.Contains(report, "Other failures met while shrinking") || !strings.Contains(report, "panic: zero at statemachine_external_test.go:") {
		t.Errorf("shrunk %s, failure %s\n%s", shrunk, fail, report)
	}
}

// TestRepeat_Panic: a step that panics is reported as such.
func TestRepeat_Panic(t *testing.T) {
	t.Parallel()
	prop := func(t *fuzzshrink.T) {
		var xs []int
		fuzzshrink.Repeat(t, 0, 20, &xs,
			fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) {
				*m = append(*m, fuzzshrink.IntRange(0, 9).Draw(t, "v"))
			}},
			fuzzshrink.Command[[]int]{Name: "Get", Run: func(t *fuzzshrink.T, m *[]int) {
				_ = (*m)[fuzzshrink.IntRange(0, 3).Draw(t, "i")] // no Pre, no bounds check
			}},
		)
	}
	shrinksTo(t, prop, "[Get(0)]", "panic at step 1, Get(0): runtime error: index out of range [0] with length 0")
}

// TestAcceptance_Invariant: an invariant checked after every step fails
// after the step that broke it, and shrinks to the fewest and simplest
// steps, every seed.
func TestAcceptance_Invariant(t *testing.T) {
	t.Parallel()
	prop := func(t *fuzzshrink.T) {
		in, n := map[int]bool{}, 0 // a set that counts an element added twice
		model := map[int]bool{}
		fuzzshrink.Machine[map[int]bool]{
			Min: 0, Max: 50, Model: &model,
			Commands: []fuzzshrink.Command[map[int]bool]{
				{Name: "Has", Run: func(t *fuzzshrink.T, m *map[int]bool) {
					if v := fuzzshrink.IntRange(0, 9).Draw(t, "v"); in[v] != (*m)[v] {
						t.Fatalf("Has(%d) = %v", v, in[v])
					}
				}},
				{Name: "Add", Run: func(t *fuzzshrink.T, m *map[int]bool) {
					v := fuzzshrink.IntRange(0, 9).Draw(t, "v")
					in[v], n = true, n+1
					(*m)[v] = true
				}},
			},
			Invariant: func(t *fuzzshrink.T, m *map[int]bool) {
				if n != len(*m) {
					t.Fatalf("Len %d, want %d", n, len(*m))
				}
			},
		}.Run(t)
	}
	shrinksTo(t, prop, "[Add(0), Add(0)]", "invariant failed after step 2, Add(0): Len 2, want 1")
}

// TestAcceptance_Stuck: a state in which no command can run is a failure,
// and shrinks to the fewest steps that reach it, every seed.
func TestAcceptance_Stuck(t *testing.T) {
	t.Parallel()
	type door struct{ open, locked bool }
	prop := func(t *fuzzshrink.T) {
		var d door
		fuzzshrink.Repeat(t, 0, 50, &d,
			fuzzshrink.Command[door]{Name: "Open", Pre: func(d *door) bool { return !d.open && !d.locked }, Run: func(_ *fuzzshrink.T, d *door) { d.open = true }},
			fuzzshrink.Command[door]{Name: "Close", Pre: func(d *door) bool { return d.open }, Run: func(_ *fuzzshrink.T, d *door) { d.open = false }},
			// The bug: a locked door has no Unlock.
			fuzzshrink.Command[door]{Name: "Lock", Pre: func(d *door) bool { return !d.open && !d.locked }, Run: func(_ *fuzzshrink.T, d *door) { d.locked = true }},
		)
	}
	shrinksTo(t, prop, "[Lock()]", "failed after step 1, the last: no command can run: every command's Pre is false")
}
