// Package fuzzshrink minimizes failing inputs of Go fuzz tests, lets fuzz
// tests take structured Go values that shrink as values, and lets fuzz
// tests and ordinary tests check properties of generated values that
// shrink as the draws of their generators, sequences of commands against a
// model among them.
//
// # In fuzz tests
//
// [Fuzz] is f.Fuzz for functions whose arguments may be structs, slices,
// arrays, maps and pointers as well as the native fuzz types; [Add] adds a
// seed of such values:
//
//	func FuzzConfig(f *testing.F) {
//		fuzzshrink.Add(f, Config{Name: "x"}, 3)
//		fuzzshrink.Fuzz(f, func(t *testing.T, cfg Config, n int) { … })
//	}
//
// Under go test and go test -fuzz the target behaves exactly like one
// written with f.Fuzz. When the fuzzmin command minimizes a failing corpus
// entry of the target, the search runs inside the test process and shrinks
// the values structurally: elements and entries are removed, fields set to
// zero, then the values inside shrink. A type can generate and shrink itself
// by implementing [Custom].
//
// # Generators
//
// A [Gen] describes a value space whose invariants hold by construction: a
// pair a ≤ b, a list of distinct ids, a size followed by that many
// elements, a tree of bounded depth, a string over a grammar's alphabet. A
// property draws values from generators with [Gen.Draw], under a label:
//
//	fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
//		n := fuzzshrink.IntRange(1, 5).Draw(t, "n")
//		xs := fuzzshrink.SliceOfN(fuzzshrink.Int(), n, n).Draw(t, "xs")
//		…
//	})
//
// [T] embeds the test's *testing.T. The primitives ([Int], [IntRange] and
// the sized and unsigned variants, [Float64], [Float64Range], [Bool],
// [Byte], [Rune], [RuneFrom], [String], [StringOf], [StringN], [Bytes])
// favour small values and the bounds of their ranges. Combinators build
// generators from others: [Map], [FlatMap] (a value that depends on
// another), [Gen.Filter], [NoShrink], [Just], [SampledFrom], [OneOf] and
// [Frequency] (weighted), [Chance] (a weighted bool), [Ptr], [Compose] (a
// value from several draws), [Deferred] (recursion, with the base case in
// any position of its OneOf); the collections [SliceOf], [SliceOfN],
// [SliceOfDistinct], [SliceOfDistinctBy] (distinct by a key), [MapOf],
// [Permutation]; [StringMatching] (the strings a regular expression
// matches); and [Make] derives a generator from a Go type.
//
// Generators draw typed choices from a choice sequence: under [Fuzz], the
// fuzz input, one []byte that every mutation of the fuzzer turns into
// other valid values; under [Check], generated cases. Failures shrink as
// choice sequences, by passes of the same engine (deleting the spans of
// draws and collection elements, replacing a tree by a subtree, lowering
// choices, sorting, merging and flattening collections, moving value
// between numbers), so that shrinking keeps
// the invariants: a failure is reported as the simplest draws the search
// found, "n = 2", "xs = []int{2, 9}". [AddDraws] adds a fuzz seed by the
// values of its draws.
//
// # In ordinary tests
//
// [Check] runs a property of generators on random cases, shrinks the first
// failure at once, reports it with the seed that reproduces it, and
// persists it in testdata/fuzz/<test name>/, where it runs first from then
// on:
//
//	func TestSort(t *testing.T) {
//		fuzzshrink.Check(t, func(t *fuzzshrink.T) {
//			xs := fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "xs")
//			…
//		})
//	}
//
// [Target] guides it toward failures past a threshold, and [Find] returns
// the simplest value of a generator that satisfies a condition.
//
// # State machines
//
// Stateful code (a cache, a store, a pool, a parser with a session) fails
// after a sequence of operations. [Repeat] runs a sequence of [Command]
// values, drawn from the property's T, against the system under test and
// a model of it: each command has a Name, a precondition on the model
// (Pre), and a Run that draws its arguments, acts on the system, checks
// its postconditions with t.Fatalf or t.Errorf, and advances the model:
//
//	fuzzshrink.Repeat(t, 1, 50, &model,
//		fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) { … }},
//		fuzzshrink.Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: …},
//	)
//
// A [Machine] adds an invariant, checked after every step; a state in
// which no command can run is a failure. It runs in properties of [Check]
// and of [Fuzz]. A failure shrinks as a
// sequence: blocks of steps go, never below the minimum length, then each
// remaining step's arguments shrink through their generators. Replay
// checks the preconditions again and skips a step whose precondition no
// longer holds, so the result is the steps that ran, reported with the
// original and the failing step:
//
//	Original: [Push(3), Pop(), Push(5), Push(1), Pop()]
//	Shrunk:   [Push(0), Push(1), Pop()] (5 shrink steps)
//	Failure:  postcondition failed at step 3, Pop(): got 0, want 1
//
// in go test's output, and in fuzzmin's under the entry. [AddDraws] adds a
// seed by the names of its steps ([StepsLabel]).
//
// [Minimize] shrinks one value against a predicate, without fuzzing, within
// the budgets [ShrinkRuns] and [ShrinkTime]:
//
//	small := fuzzshrink.Minimize(cfg, func(c Config) bool { return Apply(c) != nil })
//
// # How values shrink
//
// Every search here, of a fuzz target's values, of a choice sequence or of
// a value given to Minimize, runs in rounds of passes, structure first
// (removing records, items, tokens, bytes, elements), then values
// (integers toward 0, floats toward short integers, characters toward
// '0'), until a round accepts nothing or a budget runs out. A candidate
// counts only if it fails the same way as the original (the same kind of
// failure at the same place, with the same constant text); one that fails
// another way is never accepted, but reported: another bug. Every accepted
// candidate is strictly smaller than the best before it in one
// well-founded order: first the total size, then argument by argument the
// simpler value. The engine is shared with the fuzzmin command, and is not
// part of this package's API.
package fuzzshrink
