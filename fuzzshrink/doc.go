// Package fuzzshrink minimizes failing inputs of Go fuzz tests, lets fuzz
// tests take structured Go values that shrink as values, and lets fuzz
// tests and ordinary tests check properties of generated values that
// shrink as the draws of their generators.
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
// another), [Gen.Filter], [NoShrink], [Just], [SampledFrom], [OneOf],
// [Compose] (a value from several draws), [Deferred] (recursion); the
// collections [SliceOf], [SliceOfN], [SliceOfDistinct], [MapOf]; and
// [Make] derives a generator from a Go type.
//
// Generators draw typed choices from a choice sequence: under [Fuzz], the
// fuzz input, one []byte that every mutation of the fuzzer turns into
// other valid values; under [Check], generated cases. Failures shrink as
// choice sequences, by passes of the same engine (deleting the spans of
// draws and collection elements, replacing a tree by a subtree, lowering
// choices, sorting, moving value between integers), so that shrinking keeps
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
// [Minimize] shrinks one value against a predicate, without fuzzing:
//
//	small := fuzzshrink.Minimize(cfg, func(c Config) bool { return Apply(c) != nil })
//
// # The engine
//
// [Shrink] minimizes a tuple of arguments against an [Oracle], which tells
// whether a candidate still fails the same way ([Fail]), passes ([Pass]), or
// fails differently ([OtherFail], never accepted: another bug). [Predicate]
// adapts a function to an Oracle. Options set budgets ([MaxRuns],
// [Deadline], [Timeout]; the context cancels too), the batch size of an
// oracle with a high cost per call ([BatchSize]), and a [Observe] of the
// search. [Result] holds the best tuple found and [Stats].
//
// # The order
//
// Every accepted candidate is strictly smaller than the best tuple before it
// in one well-founded order, so the search terminates: first the total size
// (the length of the string and []byte arguments, the weight of composite
// ones: nodes plus bytes), then argument by argument, left to right, the
// simpler value: false before true; integers toward 0, positive before
// negative; floats finite before ±Inf before NaN, integers before fractions,
// integers toward 0 and fractions toward fewer significant digits; strings
// and byte slices shortlex, so runes go toward lower code points; composite
// values by their leaves in order.
//
// # The passes
//
// A round runs these passes in order, each over every argument, left to
// right:
//
//   - remove: delete contiguous blocks of bytes (of runes, for valid UTF-8
//     strings), of slice elements and of map entries, of sizes n, n/2, …, 1
//     at aligned offsets, ddmin-style;
//   - zero: set a composite argument, then each of its fields, elements,
//     pointers and map values in turn, to the zero value;
//   - redistribute: move value from an element to a nearby later one
//     ([51 50] → [0 101], which removal then shortens to [101]);
//   - ints: 0, then the positive counterpart, then a binary search toward 0;
//   - floats: 0, positive, finite values for ±Inf and NaN, the nearest
//     integers, then for integers the same binary search, for fractions
//     fewer significant digits;
//   - bools: false;
//   - bytes: each byte of []byte (and of strings that are not valid UTF-8)
//     toward 0: 0, then a binary search;
//   - runes: each rune of a valid UTF-8 string toward U+0000 in the same
//     way, skipping surrogates, so that the string stays valid.
//
// Choice sequences, the argument of a target of generators, have passes of
// their own, listed in choicepasses.go: they delete spans, replace spans by
// descendants, zero spans, lower choices, sort spans, redistribute and
// offset integers; they order sequences shortlex on their bytes, and after
// accepting a candidate the engine keeps its normal form.
//
// The search stops when a full round accepts nothing, or when a budget runs
// out, and returns the best tuple found so far.
//
// Passes propose candidates lazily. Each candidate carries a cursor, the
// position in its pass, and after accepting a candidate the engine resumes
// the pass at that position on the new best tuple instead of starting it
// over: block removal continues at the same size and offset, and lowering a
// number is a true binary search (about log₂|v| runs to find a threshold).
//
// # Runs
//
// The oracle gets candidates in batches in proposal order; the engine
// accepts the first Fail of a batch and discards the rest, so with a
// deterministic oracle results do not depend on the batch size. No
// candidate is run twice: the engine remembers a 128-bit hash of every
// candidate it ran, never the candidate. Each candidate is freshly allocated
// and shares no memory with the engine's state or other candidates, so an
// oracle may keep it; like a fuzz function, it must not modify it.
package fuzzshrink
