package shrink

import (
	"iter"
	"slices"
	"strconv"
)

// The text passes shrink string and []byte arguments (and leaves) along
// their structure (see structure.go), whatever their encoding: every cut is
// at an ASCII byte or between tokens, and every replacement is ASCII, so
// valid UTF-8 stays valid. Each computes the structure of the current value
// when the engine first pulls a candidate, so a pass costs nothing on values
// that the engine does not reach.

// textArg applies a text shrinker to string and []byte values.
func textArg(shrinkBytes func([]byte, pos) iter.Seq2[pos, []byte], shrinkString func(string, pos) iter.Seq2[pos, string]) func(any, pos) iter.Seq2[pos, any] {
	return func(v any, from pos) iter.Seq2[pos, any] {
		switch x := v.(type) {
		case []byte:
			if len(x) > 0 {
				return boxed(shrinkBytes(x, from))
			}
		case string:
			if len(x) > 0 {
				return boxed(shrinkString(x, from))
			}
		}
		return nil
	}
}

var (
	listsArg    = textArg(removeItems[[]byte], removeItems[string])
	hoistArg    = textArg(hoist[[]byte], hoist[string])
	spansArg    = textArg(cutSpans[[]byte], cutSpans[string])
	tokensArg   = textArg(removeTokens[[]byte], removeTokens[string])
	pairsArg    = textArg(removePairs[[]byte], removePairs[string])
	rewrapArg   = onText(textArg(rewrap[[]byte], rewrap[string]))
	literalsArg = onText(textArg(literals[[]byte], literals[string]))
	numbersArg  = onText(textArg(lowerNumbers[[]byte], lowerNumbers[string]))
)

// onText restricts a pass to text: its replacements by digits and letters
// are not smaller in binary data, whose bytes compare by value.
func onText(f func(v any, from pos) iter.Seq2[pos, any]) func(v any, from pos) iter.Seq2[pos, any] {
	return func(v any, from pos) iter.Seq2[pos, any] {
		switch x := v.(type) {
		case []byte:
			if isBinary(x) {
				return nil
			}
		case string:
			if isBinary(x) {
				return nil
			}
		}
		return f(v, from)
	}
}

// cut returns s without the ranges rs, which are sorted and disjoint.
func cut[S byteString](s S, rs ...rng) S { return replaceAt(s, rs, "") }

// replaceAt returns s with each of the ranges at (sorted, disjoint)
// replaced by with.
func replaceAt[S byteString](s S, at []rng, with string) S {
	n := len(s) + len(at)*len(with)
	for _, r := range at {
		n -= r.len()
	}
	c := make([]byte, 0, n)
	prev := 0
	for _, r := range at {
		c = append(append(c, s[prev:r.start]...), with...)
		prev = r.end
	}
	return S(append(c, s[prev:]...))
}

// replace returns s with range r replaced by repl.
func replace[S byteString](s S, r rng, repl string) S {
	c := make([]byte, 0, len(s)-r.len()+len(repl))
	c = append(c, s[:r.start]...)
	c = append(c, repl...)
	return S(append(c, s[r.end:]...))
}

// itemsRange is the range that removing items [a, b) of l deletes: for
// separated items, with the separator after them, or before them for the
// last ones, so that `[1, 2, 3]` loses `2, ` or `, 3`.
func itemsRange(l list, a, b int) rng {
	items := l.items
	switch {
	case !l.sep:
		return rng{items[a].start, items[b-1].end}
	case b < len(items):
		return rng{items[a].start, items[b].start}
	case a > 0:
		return rng{items[a-1].end, items[b-1].end}
	}
	return rng{items[a].start, items[b-1].end}
}

// removeItems removes blocks of items from each list of the structure, outer
// lists first, with the sizes and offsets of [blocks]: hierarchical delta
// debugging. It removes JSON members and elements, lines and blocks of
// lines, statements, arguments and attributes, whole. The cursor is
// (pos.k, pos.i, pos.j) = (list, block size, offset).
func removeItems[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		t := structure(s)
		for k := from.k; k < len(t.lists); k++ {
			l := t.lists[k]
			start := pos{}
			if k == from.k {
				start = from
			}
			for p, b := range blocks(len(l.items), start) {
				r := itemsRange(l, b[0], b[1])
				if r.len() == 0 {
					continue
				}
				p.k = k
				if !yield(p, cut(s, r)) {
					return
				}
			}
		}
	}
}

// Hoisting replaces a span by a smaller span inside it, at most hoistDepth
// levels deeper: {"a":[x]} → x, a block of lines by one of its lines. It
// collapses nesting that no removal can, since removing an opening bracket
// alone breaks the text. Per span it tries at most hoistMax spans, the
// shortest first: the first that fails is the largest reduction.
const (
	hoistDepth = 4
	hoistMax   = 64
)

// hoist yields s with a bracket span or block replaced by a span inside it
// (see hoistDepth). The cursor is (pos.k, pos.i) = (span, candidate).
func hoist[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		t := structure(s)
		var inner []int
		for k := from.k; k < len(t.spans); k++ {
			sp := t.spans[k]
			if sp.kind == spanQuote {
				continue
			}
			inner = inner[:0]
			for d := k + 1; d < len(t.spans) && t.spans[d].start < sp.end; d++ {
				if ds := t.spans[d]; ds.kind != spanQuote && ds.depth-sp.depth <= hoistDepth && ds.len() < sp.len() {
					inner = append(inner, d)
				}
			}
			slices.SortStableFunc(inner, func(a, b int) int { return t.spans[a].len() - t.spans[b].len() })
			i := 0
			if k == from.k {
				i = from.i
			}
			for ; i < min(len(inner), hoistMax); i++ {
				d := t.spans[inner[i]]
				c := make([]byte, 0, len(s)-sp.len()+d.len())
				c = append(c, s[:sp.start]...)
				c = append(c, s[d.start:d.end]...)
				c = append(c, s[sp.end:]...)
				if !yield(pos{k: k, i: i}, S(c)) {
					return
				}
			}
		}
	}
}

// cutSpans yields s without a span and an adjacent separator (a comma or
// semicolon and the spaces around it, or spaces), then without the span's
// delimiters, keeping its content: its brackets or quotes, or the first and
// closing lines of a block. The cursor is pos.k, the span: after a cut,
// the span that took the place of the one cut is tried.
func cutSpans[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		t := structure(s)
		for k := from.k; k < len(t.spans); k++ {
			sp := t.spans[k]
			if !yield(pos{k: k}, cut(s, withSeparator(s, sp.rng))) {
				return
			}
			if sp.kind == spanBlock && sp.in0 == sp.in1 {
				continue // a single line has no delimiters
			}
			if !yield(pos{k: k}, cut(s, rng{sp.start, sp.in0}, rng{sp.in1, sp.end})) {
				return
			}
		}
	}
}

// withSeparator extends r by a separator after it (spaces, a comma or
// semicolon, spaces) or, failing that, before it.
func withSeparator[S byteString](s S, r rng) rng {
	e := r.end
	for e < len(s) && isSpace(s[e]) {
		e++
	}
	if e < len(s) && (s[e] == ',' || s[e] == ';') {
		e++
		for e < len(s) && isSpace(s[e]) {
			e++
		}
		return rng{r.start, e}
	}
	b := r.start
	for b > 0 && isSpace(s[b-1]) {
		b--
	}
	if b > 0 && (s[b-1] == ',' || s[b-1] == ';') {
		b--
		for b > 0 && isSpace(s[b-1]) {
			b--
		}
		return rng{b, r.end}
	}
	if e > r.end {
		return rng{r.start, e}
	}
	return rng{b, r.end}
}

// removeTokens removes blocks of tokens with the sizes and offsets of
// [blocks]. The cursor is (pos.i, pos.j) = (block size, offset).
func removeTokens[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		ts := tokens(s)
		for p, b := range blocks(len(ts), from) {
			if !yield(p, cut(s, rng{ts[b[0]].start, ts[b[1]-1].end})) {
				return
			}
		}
	}
}

// The pairs of token blocks that removePairs tries, in order: the sizes of
// the two blocks and the number of tokens kept between them. `"></td>` →
// `"/>` removes `><` and `td` around `/`.
var pairShapes = [...]struct{ a, gap, b int }{
	{2, 1, 2}, {2, 1, 1}, {1, 1, 2}, {1, 1, 1},
	{2, 2, 2}, {2, 2, 1}, {1, 2, 2}, {1, 2, 1},
}

// removePairs removes two blocks of tokens that are close but not adjacent
// at once, which no single removal can do when each alone breaks the text
// (an end tag's `><` and its name). It is what the toolchain's subset pass
// achieves by removing every substring, at O(n) runs instead of O(n²): the
// blocks are of 1 or 2 tokens, 1 or 2 tokens apart. The engine runs it only
// in rounds where no pass before it accepted anything. The cursor is
// (pos.k, pos.i) = (first token, shape).
func removePairs[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		ts := tokens(s)
		for k := from.k; k < len(ts); k++ {
			i := 0
			if k == from.k {
				i = from.i
			}
			for ; i < len(pairShapes); i++ {
				sh := pairShapes[i]
				b0 := k + sh.a + sh.gap
				if b0+sh.b > len(ts) {
					continue
				}
				a := rng{ts[k].start, ts[k+sh.a-1].end}
				b := rng{ts[b0].start, ts[b0+sh.b-1].end}
				if !yield(pos{k: k, i: i}, cut(s, a, b)) {
					return
				}
			}
		}
	}
}

// Moving brackets: a program that wraps its input in brackets fails as the
// same program without them on the input wrapped ([.]|f on 0 as .|f on
// [0]), and only the second can lose the program's part that the input
// now holds (.|f → .). No removal or replacement goes from one to the
// other, as each half alone breaks the text or the failure. The moves pair
// spans with lines or arguments, so rewrap tries only texts of up to
// rewrapMax bytes.
const rewrapMax = 64

// rewrap yields s with the brackets of a span moved onto a later line that
// holds one value (a token or a span), when that is smaller: `[.]|f` and
// `0` → `.|f` and `[0]`. The cursor is (pos.k, pos.i) = (span, line).
func rewrap[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		if len(s) > rewrapMax {
			return
		}
		ts, t := tokens(s), structure(s)
		var values []rng // the lines that hold one value, trimmed
		for start := 0; start < len(s); {
			end := nextNewline(s, start)
			if r := trim(s, rng{start, end}); holdsValue(ts, t, r) {
				values = append(values, r)
			}
			start = end + 1
		}
		for k := from.k; k < len(t.spans); k++ {
			sp := t.spans[k]
			if sp.kind != spanBracket || sp.in0 == sp.in1 {
				continue
			}
			i := 0
			if k == from.k {
				i = from.i
			}
			for nl := nextNewline(s, sp.end); i < len(values); i++ {
				v := values[i]
				if v.start < nl {
					continue // not on a later line
				}
				c := make([]byte, 0, len(s))
				c = append(c, s[:sp.start]...)
				c = append(c, s[sp.in0:sp.in1]...)
				c = append(c, s[sp.end:v.start]...)
				c = append(c, s[sp.start:sp.in0]...)
				c = append(c, s[v.start:v.end]...)
				c = append(c, s[sp.in1:sp.end]...)
				c = append(c, s[v.end:]...)
				if compareText(S(c), s) < 0 && !yield(pos{k: k, i: i}, S(c)) {
					return
				}
			}
		}
	}
}

// rewrapTuple moves the brackets in the same way from a text argument onto
// a later one that holds one value: a program and its input given as two
// arguments. The cursor is pos.k, the number of moves before.
func rewrapTuple(t []any, from pos) iter.Seq2[pos, []any] {
	return func(yield func(pos, []any) bool) {
		texts := make([][]byte, len(t)) // the short text arguments
		values := make([]rng, len(t))   // the value each holds, if one
		for i, a := range t {
			if b, ok := sized(a); ok && len(b) <= rewrapMax && !isBinary(b) {
				texts[i] = b
				if v := trim(b, rng{0, len(b)}); holdsValue(tokens(b), structure(b), v) {
					values[i] = v
				}
			}
		}
		k := 0
		for i, s := range texts {
			for _, sp := range structure(s).spans {
				if sp.kind != spanBracket || sp.in0 == sp.in1 {
					continue
				}
				for j := i + 1; j < len(texts); j++ {
					d, v := texts[j], values[j]
					if v.len() == 0 {
						continue
					}
					if k++; k <= from.k {
						continue
					}
					c := slices.Clone(t)
					c[i] = withBytes(t[i], slices.Concat(s[:sp.start], s[sp.in0:sp.in1], s[sp.end:]))
					c[j] = withBytes(t[j], slices.Concat(d[:v.start], s[sp.start:sp.in0], d[v.start:v.end], s[sp.in1:sp.end], d[v.end:]))
					if compareArgs(c, t) < 0 && !yield(pos{k: k}, c) {
						return
					}
				}
			}
		}
	}
}

// holdsValue reports whether r, of a text of tokens ts and structure t, is
// one value: a token or a span.
func holdsValue(ts []rng, t *text, r rng) bool {
	return r.len() > 0 && (slices.Contains(ts, r) || slices.ContainsFunc(t.spans, func(sp textSpan) bool { return sp.rng == r }))
}

// nextNewline returns the offset of the first newline of s at or after i,
// or len(s).
func nextNewline[S byteString](s S, i int) int {
	for i < len(s) && s[i] != '\n' {
		i++
	}
	return i
}

// Literals that a span or token may be replaced by: the simplest number, the
// simplest word, the empty string (in the span's own quotes).
var literalValues = [...]string{"0", "a"}

// literals yields s with a span or a token replaced by a short literal when
// that is smaller: a bracket span by 0 or a, a quoted string by its empty
// form ("") or 0, a token by 0 or a; then every byte of blocks of tokens set
// to '0' at once (aligned blocks, as [blocks] has them above smallBlock), so
// that irrelevant characters take their final value in one run, not one per
// character. The cursor is (pos.k, pos.i, pos.j): k is the stage (spans,
// tokens, fill, escapes), then the span or token and the literal, or the
// block size and offset, or where the next escape is looked for. Last, an
// escape (%XX, \xXX, \uXXXX) is replaced by the printable ASCII character
// it stands for.
func literals[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		t := structure(s)
		try := func(p pos, r rng, repl string) bool {
			if !smallerSegment(s, r, repl) {
				return true
			}
			return yield(p, replace(s, r, repl))
		}
		k, i, j := from.k, from.i, from.j
		if k == 0 {
			for ; i < len(t.spans); i, j = i+1, 0 {
				sp := t.spans[i]
				if sp.kind == spanBlock {
					continue
				}
				reps := padded(s, sp.rng, literalValues[:])
				if sp.kind == spanQuote {
					reps = []string{string([]byte{s[sp.start], s[sp.start]}), "0"}
				}
				for ; j < len(reps); j++ {
					if !try(pos{k: 0, i: i}, sp.rng, reps[j]) {
						return
					}
				}
			}
			k, i, j = 1, 0, 0
		}
		ts := tokens(s)
		if k == 1 {
			for ; i < len(ts); i, j = i+1, 0 {
				for ; j < len(literalValues); j++ {
					if !try(pos{k: 1, i: i}, ts[i], literalValues[j]) {
						return
					}
				}
			}
			k, i, j = 2, 0, 0
		}
		if k == 2 {
			size, off := i, j
			if size == 0 {
				size = len(ts)
			}
			for size = min(size, len(ts)); size > 0; size, off = size/2, 0 {
				for ; off < len(ts); off += size {
					r := rng{ts[off].start, ts[min(off+size, len(ts))-1].end}
					if !smallerFill(s, r) {
						continue
					}
					c := make([]byte, len(s))
					copy(c, s)
					for x := r.start; x < r.end; x++ {
						c[x] = '0'
					}
					if !yield(pos{k: 2, i: size, j: off}, S(c)) {
						return
					}
				}
			}
			i = 0
		}
		for at := i; at < len(s); at++ {
			if n, c := escapeAt(s, at); n > 0 {
				if !yield(pos{k: 3, i: at + 1}, replace(s, rng{at, at + n}, c)) {
					return
				}
			}
		}
	}
}

// escapeAt returns the length of the escape that s has at i, a URL's %XX
// or a quoted string's \xXX or \uXXXX, and the printable ASCII character
// it stands for; or 0.
func escapeAt[S byteString](s S, i int) (int, string) {
	var n, digits int
	switch {
	case s[i] == '%':
		n, digits = 3, 2
	case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'x':
		n, digits = 4, 2
	case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u':
		n, digits = 6, 4
	default:
		return 0, ""
	}
	if i+n > len(s) {
		return 0, ""
	}
	c, err := strconv.ParseUint(string(s[i+n-digits:i+n]), 16, 32)
	if err != nil || c < 0x20 || c >= 0x7f {
		return 0, ""
	}
	return n, string(rune(c))
}

// lowerNumbers yields s with a decimal number (a run of up to 18 ASCII
// digits) lowered by the binary search of the ints pass (see
// [magnitudes]): a threshold (a shift count of 64, a size of 1000) is
// reached from any larger number, 100 or 6444644444 alike, where removing
// and lowering digits one at a time stop at the first number with fewer
// digits that still fails. The cursor is (pos.i, pos.s) = (number, search
// state).
func lowerNumbers[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		var runs []rng
		for i := 0; i < len(s); i++ {
			if !isDigit(s[i]) {
				continue
			}
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			runs = append(runs, rng{i, j})
			i = j
		}
		for i := from.i; i < len(runs); i++ {
			r := runs[i]
			if r.len() > 18 {
				continue
			}
			v, _ := strconv.ParseUint(string(s[r.start:r.end]), 10, 64)
			st := magSearch{}
			if i == from.i {
				st = from.s
			}
			for st, m := range magnitudes(false, v, v, st) {
				repl := strconv.FormatUint(m.mag, 10)
				if !smallerSegment(s, r, repl) {
					continue
				}
				if !yield(pos{i: i, s: st}, replace(s, r, repl)) {
					return
				}
			}
		}
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// padded returns the literals, each followed by its forms with a space
// before, after, or both, where the text around r has no space: a span
// between two tokens may have separated them (`(/(max 0)0)` → `(/ 0 0)`).
func padded[S byteString](s S, r rng, lits []string) []string {
	left := r.start > 0 && !isSpaceOrNewline(s[r.start-1])
	right := r.end < len(s) && !isSpaceOrNewline(s[r.end])
	if !left && !right {
		return lits
	}
	var out []string
	for _, l := range lits {
		out = append(out, l)
		if left {
			out = append(out, " "+l)
		}
		if right {
			out = append(out, l+" ")
		}
		if left && right {
			out = append(out, " "+l+" ")
		}
	}
	return out
}

// smallerSegment reports whether replacing range r of s by repl makes s
// smaller.
func smallerSegment[S byteString](s S, r rng, repl string) bool {
	if len(repl) != r.len() {
		return len(repl) < r.len()
	}
	return compareText(repl, string(s[r.start:r.end])) < 0
}

// smallerFill reports whether range r of s has a byte other than '0'.
func smallerFill[S byteString](s S, r rng) bool {
	for x := r.start; x < r.end; x++ {
		if s[x] != '0' {
			return true
		}
	}
	return false
}
