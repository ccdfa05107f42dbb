// Package fuzzshrink minimizes failing inputs of Go native fuzz tests.
//
// Given a tuple of fuzz arguments that fails (the values of one
// testdata/fuzz entry) and an [Oracle] that tells whether a candidate tuple
// still fails the same way, [Shrink] searches for the smallest tuple that
// does. It shrinks every native fuzz type (string, []byte, bool, and the
// integer and float types), all arguments jointly, and never accepts a
// candidate that fails differently ([OtherFail]). [Minimize] is the
// one-value convenience for ordinary tests:
//
//	s := fuzzshrink.Minimize(input, func(s string) bool { return parse(s) != nil })
//
// # The order
//
// Every accepted candidate is strictly smaller than the best tuple before it
// in one well-founded order, so the search terminates: first the total
// length of the string and []byte arguments, then argument by argument,
// left to right, the simpler value: false before true; integers toward 0,
// positive before negative; floats finite before ±Inf before NaN, integers
// before fractions, integers toward 0 and fractions toward fewer significant
// digits; strings and byte slices shortlex, so runes go toward lower code
// points. compareArgs in order.go defines it exactly.
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
// The search stops when a full round accepts nothing, or when a budget
// ([MaxRuns], [Deadline], [Timeout], or the context) runs out, and returns
// the best tuple found so far.
//
// Passes propose candidates lazily. Each candidate carries a cursor, the
// position in its pass, and after accepting a candidate the engine resumes
// the pass at that position on the new best tuple instead of starting it
// over: block removal continues at the same size and offset, and lowering a
// number is a true binary search (about log₂|v| runs to find a threshold).
//
// # Runs
//
// The oracle gets candidates in batches ([BatchSize]) in proposal order;
// the engine accepts the first Fail of a batch and discards the rest, so
// with a deterministic oracle results do not depend on the batch size. No
// candidate is run twice: the engine remembers a 128-bit hash of every
// candidate it ran, never the candidate. Each candidate is freshly allocated
// and shares no memory with the engine's state or other candidates, so an
// oracle may keep it; like a fuzz function, it must not modify it.
package fuzzshrink
