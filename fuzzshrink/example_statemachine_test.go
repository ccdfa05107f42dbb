package fuzzshrink_test

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// Stack is a stack whose Pop returns the oldest element: a queue by
// mistake.
type Stack struct{ xs []int }

func (s *Stack) Push(v int) { s.xs = append(s.xs, v) }

func (s *Stack) Pop() int {
	v := s.xs[0]
	s.xs = s.xs[1:]
	return v
}

// testStack stands in for the *testing.T of TestStack.
type testStack struct{ stdoutTB }

func (testStack) Name() string { return "TestStack" }

// Repeat runs sequences of commands against the system under test and a
// model of it, here a slice used as a stack; each command checks its
// postconditions. A failure shrinks to the fewest and simplest steps, and
// is reported as the sequence that ran.
func ExampleRepeat() {
	t := testStack{}
	fuzzshrink.Check(t, func(t *fuzzshrink.T) {
		s := &Stack{}
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
	}, fuzzshrink.Seed(2), fuzzshrink.CorpusDir(""))
	// Output:
	// fuzzshrink: TestStack failed (seed 2)
	//     Original: [Push(40), Pop(), Push(89), Push(0), Pop()]
	//     Shrunk:   [Push(0), Push(1), Pop()] (8 shrink steps)
	//     Failure:  postcondition failed at step 3, Pop(): got 0, want 1
	//     example_statemachine_test.go:45: got 0, want 1
	// Shrunk from case 7 (size 6) of seed 2 in 47 runs, 8 accepted, 2 rounds of passes
	// Choice sequence: []byte("\x00\x00\x01\x00\x01\x01\x01")
	// To generate the same cases: go test -run='^TestStack$' -fuzzshrink.seed=2
}

// A fuzz target can run a state machine too: go test -fuzz mutates the
// choice sequence that its steps replay, and fuzzmin shrinks a failure as
// a sequence. AddDraws adds a seed by the names of its steps, under
// StepsLabel, and the values of their labelled draws.
func ExampleRepeat_fuzz() {
	fuzzStack := func(f *testing.F) {
		fuzzshrink.AddDraws(f, fuzzshrink.StepsLabel, []string{"Push", "Push", "Pop"}, "v", 3, "v", 5)
		fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
			s := &Stack{}
			var model []int
			fuzzshrink.Repeat(t, 0, -1, &model,
				fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) {
					v := fuzzshrink.IntRange(0, 100).Draw(t, "v")
					s.Push(v)
					*m = append(*m, v)
				}},
				fuzzshrink.Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *fuzzshrink.T, m *[]int) {
					if got, want := s.Pop(), (*m)[len(*m)-1]; got != want {
						t.Fatalf("got %d, want %d", got, want)
					}
					*m = (*m)[:len(*m)-1]
				}},
			)
		})
	}
	_ = fuzzStack // in a _test.go file: func FuzzStack(f *testing.F) { … }
}

// Set is a set of small ints that loses count when an element is added
// twice.
type Set struct {
	in map[int]bool
	n  int
}

func (s *Set) Add(v int) {
	if s.in == nil {
		s.in = map[int]bool{}
	}
	s.in[v] = true
	s.n++ // the bug: an element already in counts again
}

func (s *Set) Len() int { return s.n }

// testSet stands in for the *testing.T of TestSet.
type testSet struct{ stdoutTB }

func (testSet) Name() string { return "TestSet" }

// A Machine checks an invariant after every step: here, that the set's
// Len is the model's. Its failure is reported after the step that broke
// it, and shrinks as a failure of that step does.
func ExampleMachine() {
	t := testSet{}
	fuzzshrink.Check(t, func(t *fuzzshrink.T) {
		s := &Set{}
		model := map[int]bool{}
		fuzzshrink.Machine[map[int]bool]{
			Min: 1, Max: 50, Model: &model,
			Commands: []fuzzshrink.Command[map[int]bool]{{Name: "Add", Run: func(t *fuzzshrink.T, m *map[int]bool) {
				v := fuzzshrink.IntRange(0, 9).Draw(t, "v")
				s.Add(v)
				(*m)[v] = true
			}}},
			Invariant: func(t *fuzzshrink.T, m *map[int]bool) {
				if s.Len() != len(*m) {
					t.Fatalf("Len %d, want %d", s.Len(), len(*m))
				}
			},
		}.Run(t)
	}, fuzzshrink.Seed(1), fuzzshrink.CorpusDir(""))
	// Output:
	// fuzzshrink: TestSet failed (seed 1)
	//     Original: [Add(5), Add(9), Add(5)]
	//     Shrunk:   [Add(0), Add(0)] (2 shrink steps)
	//     Failure:  invariant failed after step 2, Add(0): Len 2, want 1
	//     example_statemachine_test.go:128: Len 2, want 1
	// Shrunk from case 2 (size 1) of seed 1 in 11 runs, 2 accepted, 2 rounds of passes
	// Choice sequence: []byte("\x00\x01\x00")
	// To generate the same cases: go test -run='^TestSet$' -fuzzshrink.seed=1
}
