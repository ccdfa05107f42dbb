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
// It runs in properties of [Check] and of [Fuzz]. A failure shrinks as a
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
// integers toward 0 and fractions toward fewer significant digits, then
// fewer significant bits (2.5 before 2.1), then toward 0; strings and byte
// slices shortlex in the printable-first order of characters: digits,
// lowercase letters, uppercase letters, space, the other printable ASCII
// characters, then the rest by code point, so that characters go toward
// '0' and an irrelevant byte reads 0, not \x00; composite values by their
// leaves in order.
//
// # The passes
//
// A round runs these passes in order, each over every argument, left to
// right: structure first, since a shorter input makes every later run
// cheaper, then values. Strings and byte slices are read as text whatever
// their format: bracket and quote spans, blocks of lines by indentation,
// the items of each container (at its newlines, commas and semicolons, or
// spaces), and tokens; nothing in it knows JSON, TOML or HTML.
//
//   - lengths: in binary data, find the length fields whose records tile
//     the input; remove whole records, and lower a record's length field
//     while removing what it no longer counts, in one candidate;
//   - lists: remove blocks of items of each container, outer containers
//     first (hierarchical delta debugging): members and elements, lines and
//     blocks of lines, statements, arguments, attributes;
//   - hoist: replace a bracket span or a block by a shorter one inside it,
//     up to 4 levels deeper ({"a":[X]} → X);
//   - spans: remove a span with an adjacent comma, semicolon or space, or
//     remove only its delimiters;
//   - tokens: remove blocks of tokens;
//   - remove: remove contiguous blocks of bytes (of runes, for valid UTF-8
//     strings), of slice elements and of map entries, of sizes n, n/2, …,
//     1: large blocks at aligned offsets, ddmin-style, blocks of up to 8 at
//     every offset, down to single elements;
//   - pairs: remove two close blocks of tokens at once (`"></td>` → `"/>`);
//     it runs only in rounds where no pass before it accepted anything;
//   - zero: set a composite argument, then each of its fields, elements,
//     pointers and map values in turn, to the zero value;
//   - sort: order the elements of slices and arrays, and the values of
//     maps, from simplest to most complex, so that the result does not
//     depend on the order the failure had them in;
//   - redistribute: merge a byte or rune into the next one ([51 50] →
//     [101]);
//   - offset: lower the integer arguments, and the integer fields and
//     elements of composite values, by a common amount (a == b stays
//     true);
//   - ints: 0, then the positive counterpart, then a binary search toward 0;
//   - floats: 0, positive, finite values for ±Inf and NaN, the nearest
//     integers, then for integers the same binary search, for fractions
//     fewer significant digits and the halves n+0.5;
//   - bools: false;
//   - literals: replace a span or a token by 0, a or an empty string, and
//     set blocks of tokens to '0' at once;
//   - bytes: each byte of []byte (and of strings that are not valid UTF-8)
//     toward '0' in the printable-first order: '0', the last character of
//     each lower class, every punctuation character for a control
//     character, then a binary search within its own class;
//   - runes: each rune of a valid UTF-8 string in the same way, skipping
//     surrogates, so that the string stays valid;
//   - swap: swap adjacent bytes or runes that are out of order (00!0 →
//     000!); it runs only in rounds where no pass before it accepted
//     anything.
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
// Isolating a few interesting bytes in n costs O(log n) runs; a round on
// an input where nothing can go costs O(n) runs per pass.
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
