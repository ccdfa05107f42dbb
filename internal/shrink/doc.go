// Package shrink is the engine that fuzzmin and package fuzzshrink share:
// a greedy search that shrinks a tuple of arguments against an oracle, in
// rounds of passes, with budgets, a cache of the candidates run, and
// events. It knows the native fuzz types and the composite values of
// fuzzshrink.Fuzz; another kind of argument plugs in as a [Value], which
// brings its own size, order, identity and passes: the choice sequences of
// generators ([ChoiceSeq], whose passes are in choicepasses.go) are one.
//
// [Shrink] minimizes a tuple against an [Oracle], which tells whether a
// candidate still fails the same way ([Fail]), passes ([Pass]), or fails
// differently ([OtherFail], never accepted: another bug); [Classify] is that
// rule for failure signatures. An oracle that implements [Normalizer]
// replaces an accepted candidate by its normal form.
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
// slices by length, then text before binary data (a control character, or
// bytes that are not UTF-8), then text in the printable-first order of
// characters: digits, lowercase letters, uppercase letters, space, the
// other printable ASCII characters, then the rest by code point, so that
// characters go toward '0' and an irrelevant character reads 0, not \x00;
// and binary data by its bytes' values, so that an irrelevant byte of a
// binary format reads 00, as its length fields and flags do, and a lowered
// length is smaller, not 0x30303030; composite values by their leaves in
// order.
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
//   - fields: in binary data, read the integer fields off the input (both
//     byte orders): lengths before what they count, counts before blocks
//     and records, offsets, sizes, the input's total, dimensions whose
//     product sizes the pixels, the length of what follows an IPv4
//     header (fields.go), and the checksums that guard parts of it:
//     CRC-32, Adler-32, CRC-64, IPv4 header sums, whose last word takes
//     up the difference while the sum's field stays (package formats);
//     replace the input by a frame's
//     content, remove blocks and records with their count, frames with
//     their length, the end of a region or the zeros before text at its
//     start, rows and columns with the
//     dimensions, a type name by a shorter one, each with every field
//     that sizes what it removes fixed up, and every checksum computed
//     again, in the same candidate (fieldmoves.go); the candidates of
//     every other pass that change one stretch of such an input have
//     their checksums computed again too, and a removal whose fixed-up
//     form differs from the plain one is tried plain after it (whole
//     records guarded by sums go as they are);
//   - lengths: in binary data, find the length fields whose records tile
//     the input, from its start or after a file header; remove whole
//     records, and lower a record's length field while removing what it
//     no longer counts from its end, or the zeros before text at its
//     start, in one candidate, with the header's total;
//   - trees: in binary data, parse the input to its last byte as nested
//     tag-length-value records (BER, or a tag of 0 to 2 bytes and a length
//     of 1, 2 or 4); remove a record's children, put a record in the place
//     of an enclosing one of its tag, cut a leaf's content, each with every
//     enclosing length written again; once fields, lengths or trees
//     accepts anything, the three run again, before the passes after them;
//   - inflate: in binary data, find the zlib streams and gzip members
//     whose trailers hold their content's checksum, the xz streams and
//     the files of a zip or tar archive, shrink each content with the
//     moves of the passes below, and encode it again in the form that
//     makes the stream smallest (compress/flate's, or one block of
//     literals in the fixed codes; for xz, LZMA or uncompressed chunks;
//     for an archive, the whole archive), its checksums computed again and
//     the fields around it fixed up (inflate.go; reading and writing the
//     formats is package formats');
//   - lists: remove blocks of items of each container, outer containers
//     first (hierarchical delta debugging): members and elements, lines and
//     blocks of lines, statements, arguments, attributes;
//   - hoist: replace a bracket span or a block by a shorter one inside it,
//     up to 4 levels deeper ({"a":[x]} → x);
//   - spans: remove a span with an adjacent comma, semicolon or space, or
//     remove only its delimiters;
//   - tokens: remove blocks of tokens;
//   - remove: remove contiguous blocks of bytes (of runes, for valid UTF-8
//     strings), of slice elements and of map entries, of sizes n, n/2, …,
//     1: large blocks at aligned offsets, ddmin-style, blocks of up to 8 at
//     every offset, down to single elements;
//   - rewrap: in texts of up to 64 bytes, move the brackets of a span
//     onto a later line, or a later text argument, that holds one value,
//     when that is smaller: a program that wraps its input becomes one whose
//     input comes wrapped, whose own part can then go (`[.]|f` on `0` →
//     `.|f` on `[0]` → `.` on `[0]`);
//   - pairs: remove two close blocks of tokens at once (`"></td>` → `"/>`);
//     it runs only in rounds where no pass before it accepted anything;
//   - words: remove a word or a field (a dotted key, a path) at every
//     place it occurs, or put "0", "a" or a shorter word of the input in
//     each place, then at pairs of places: a name defined in one place and
//     used in others; it runs only in rounds where no pass before it
//     accepted anything;
//   - counts: lower an integer argument by k and remove the last k units
//     (bytes, runes, lines, comma-separated elements) of another in one
//     candidate, then the first k, k by binary search: a count and what it
//     counts, as in len(s) == n, or a limit into it, as in s[n-1] == ' '
//     (counts.go); it runs only in stuck rounds;
//   - zero: set a composite argument, then each of its fields, elements,
//     pointers and map values in turn, to the zero value;
//   - sort: order the elements of slices and arrays, and the values of
//     maps, from simplest to most complex, so that the result does not
//     depend on the order the failure had them in;
//   - redistribute: merge a byte or rune into the next one ([51 50] →
//     [101]); move magnitude from an integer argument onto a later one,
//     their sum kept ((38, MaxInt-37) → (1, MaxInt) where a+b overflows);
//   - offset: lower the integer arguments, and the integer fields and
//     elements of composite values, by a common amount (a == b stays
//     true);
//   - ints: 0, then the positive counterpart, then a binary search toward 0;
//   - floats: 0, positive, finite values for ±Inf and NaN, the nearest
//     integers, then for integers the same binary search, for fractions
//     fewer significant digits and the halves n+0.5;
//   - bools: false;
//   - literals: replace a span or a token by 0, a or an empty string, set
//     blocks of tokens to '0' at once, and put for an escape (%XX, \xXX,
//     \uXXXX) the printable ASCII character it stands for;
//   - numbers: in text, lower each decimal number by a binary search on
//     its value, so that a threshold is reached from a number with more
//     digits (0<<=100 → 0<<=64);
//   - bytes: each byte of []byte (and of strings that are not valid UTF-8)
//     toward '0' in the printable-first order: '0', the last character of
//     each lower class, every punctuation character for a control
//     character, then a binary search within its own class; of binary
//     data, first every byte that makes it binary as '0' at once, then
//     each byte toward 0 by a binary search on its value;
//   - runes: each rune of a valid UTF-8 string in the same way, skipping
//     surrogates, so that the string stays valid;
//   - swap: swap adjacent bytes or runes that are out of order (00!0 →
//     000!); it runs only in rounds where no pass before it accepted
//     anything;
//   - shift: binary data with 00, then 01, put in before a byte above it
//     and the first zero of the 8 bytes after taken out (02 05 00 00 →
//     01 02 05 00: an option moved past a no-op), in the same rounds;
//   - cuts: the toolchain's own removals (cuts.go): the tail by 1024, 512,
//     …, 1 bytes, then every range of two bytes or more, from each start,
//     longest first; it runs only in rounds where no other pass accepted
//     anything, at most as many candidates in a search as the other passes
//     ran (and at least every range of 128 bytes), and makes every result
//     within that budget a fixed point of the toolchain's minimizer's
//     removals; once half a search's budget (MaxRuns, or its time) is
//     spent with the other passes still accepting, it runs once, to its
//     first accepted candidate, so that a search the budget ends is not
//     behind the toolchain either.
//
// Choice sequences, the argument of a target of generators, have passes of
// their own, listed in choicepasses.go and regroup.go: they delete spans
// (with a length or count before them lowered in the same candidate),
// replace spans by descendants, zero spans, lower choices, sort spans,
// merge sibling collections, flatten nested ones into their parent,
// relabel interchangeable elements, move value between numbers (integers
// and floats), gather runs of integer elements into one holding their
// sum, and offset integers together; they order sequences shortlex
// on their bytes, and after accepting a candidate the engine keeps its
// normal form.
//
// A pass that has accepted nothing in two rounds in a row runs, until it
// accepts something again, only in rounds where the passes before it
// accepted nothing, as the stuck passes do: on an input where it does not
// pay it costs no runs while others make progress, and the last round
// still runs every pass.
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
package shrink
