package shrink

import (
	"slices"
)

// The structure of text: what the text passes (text.go) cut along. Most
// fuzz targets that take a string or []byte parse it (JSON, TOML, YAML,
// HTML, shell, URLs, expressions, Go source), and removing bytes at random
// offsets mostly yields candidates the parser rejects. Following hierarchical
// delta debugging, the text passes remove and move whole units of the
// structure instead. The structure is found without knowing the format, and
// tolerates input that does not match it: what does not match is ignored.
//
//   - Spans: brackets (), [], {} and <>, matched with a stack (a closer
//     with no opener is ignored, an opener with no closer dropped; < and >
//     pair only within a line, since they are comparison operators too);
//     quotes " ' and `, closed on the same line, with backslash escapes,
//     whose content is opaque; and blocks of lines by indentation (below).
//   - Lists: the items of a container (the whole text, the content of a
//     bracket span, or the lines nested in a block), split at its top-level
//     newlines into blocks, at its top-level commas and semicolons into
//     items (both lists, for a bracket span that has both; at the top of a
//     text of several lines, a semicolon belongs to its line), or, when it
//     has neither, at its top-level whitespace.
//   - Blocks: a line with the lines after it that are indented more, and the
//     line that closes it if there is one: the next line at the same
//     indentation if it starts with a closing bracket or with an opening one
//     and a slash (`}`, `</tr>`). Blank lines take the indentation of the
//     next line.
//   - Tokens: runs of letters, digits and _ (and of bytes above 0x7F, so that
//     UTF-8 is never cut), runs of spaces and tabs, and any other byte alone.
//
// Every boundary is at an ASCII byte or between two tokens, so a cut along
// the structure keeps valid UTF-8 valid.

// A rng is the byte range [start, end) of a string.
type rng struct{ start, end int }

func (r rng) len() int { return r.end - r.start }

type spanKind uint8

const (
	spanBracket spanKind = iota
	spanQuote
	spanBlock
)

// A span is a bracket pair, a quoted string or a block of lines, with its
// content [in0, in1): inside the delimiters, or the nested lines of a block
// (after its first line, before its closing line). Spans nest: they are
// kept in preorder, each with its parent's index (-1 at the top).
type textSpan struct {
	rng
	in0, in1 int
	kind     spanKind
	parent   int
	depth    int
}

// A list is the items of one container. sep tells whether items are
// separated (by commas, semicolons or whitespace, which removing an item
// removes too) or contiguous (blocks of lines, which include their
// newlines).
type list struct {
	items []rng
	sep   bool
}

// extent is the range from the list's first item to its last.
func (l list) extent() rng { return rng{l.items[0].start, l.items[len(l.items)-1].end} }

// A text is the structure of one string.
type text struct {
	spans []textSpan
	lists []list
}

// openerOf maps a closing bracket to its opening one.
func openerOf(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	case '}':
		return '{'
	case '>':
		return '<'
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// structure finds the spans and lists of s.
func structure[S byteString](s S) *text {
	t := &text{spans: scanSpans(s)}
	addBlocksAndLists(t, s)
	return t
}

// scanSpans returns the bracket and quote spans of s in preorder.
func scanSpans[S byteString](s S) []textSpan {
	var spans []textSpan
	var stack []int // offsets of open brackets
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			stack = slices.DeleteFunc(stack, func(o int) bool { return s[o] == '<' })
		case '"', '\'', '`':
			if j := closingQuote(s, i); j > 0 {
				spans = append(spans, textSpan{rng: rng{i, j + 1}, in0: i + 1, in1: j, kind: spanQuote})
				i = j
			}
		case '(', '[', '{', '<':
			stack = append(stack, i)
		case ')', ']', '}', '>':
			o := openerOf(c)
			for k := len(stack) - 1; k >= 0; k-- {
				if s[stack[k]] == o {
					spans = append(spans, textSpan{rng: rng{stack[k], i + 1}, in0: stack[k] + 1, in1: i, kind: spanBracket})
					stack = stack[:k]
					break
				}
			}
		}
	}
	sortTextSpans(spans)
	return spans
}

// closingQuote returns the offset of the quote that closes the one at i on
// the same line, or -1.
func closingQuote[S byteString](s S, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case q:
			return j
		case '\n':
			return -1
		case '\\':
			if q != '`' {
				j++
			}
		}
	}
	return -1
}

// sortTextSpans puts spans in preorder (outer before inner) and sets parents
// and depths. The spans are laminar: any two are nested or disjoint.
func sortTextSpans(spans []textSpan) {
	slices.SortStableFunc(spans, func(a, b textSpan) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var stack []int
	for i := range spans {
		for len(stack) > 0 && spans[stack[len(stack)-1]].end <= spans[i].start {
			stack = stack[:len(stack)-1]
		}
		spans[i].parent, spans[i].depth = -1, 0
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			spans[i].parent, spans[i].depth = p, spans[p].depth+1
		}
		stack = append(stack, i)
	}
}

// addBlocksAndLists finds, for the whole text and every bracket span, its
// top-level separators; adds the blocks of lines as spans; and lists the
// items of every container.
func addBlocksAndLists[S byteString](t *text, s S) {
	// The containers: the whole text, then the bracket spans in preorder.
	// Children of each container: its direct child spans.
	children := make([][]int, len(t.spans)+1) // index 0: the root
	for i, sp := range t.spans {
		children[sp.parent+1] = append(children[sp.parent+1], i)
	}
	var blocks []textSpan
	var lists []list
	container := func(in0, in1 int, kids []int, root bool) {
		// Top-level segments of the content: the ranges between child spans.
		var newlines, commas []int
		var segs []rng
		pos := in0
		for _, k := range kids {
			segs = append(segs, rng{pos, t.spans[k].start})
			pos = t.spans[k].end
		}
		segs = append(segs, rng{pos, in1})
		for _, g := range segs {
			for i := g.start; i < g.end; i++ {
				switch s[i] {
				case '\n':
					newlines = append(newlines, i)
				case ',', ';':
					commas = append(commas, i)
				}
			}
		}
		if len(newlines) > 0 {
			var items []rng
			blocks, lists, items = groupBlocks(s, splitLines(s, in0, in1, newlines), blocks, lists)
			lists = append(lists, list{items: items})
		}
		// A list's commas and semicolons, but not those of whole lines of
		// text (comments, statements), which the lines list covers.
		if len(commas) > 0 && !(root && len(newlines) > 0) {
			lists = append(lists, list{items: splitAt(s, in0, in1, commas), sep: true})
		}
		if len(newlines) == 0 && len(commas) == 0 {
			if items := splitSpace(s, in1, segs); len(items) > 0 {
				lists = append(lists, list{items: items, sep: true})
			}
		}
	}
	container(0, len(s), children[0], true)
	for i, sp := range t.spans {
		if sp.kind == spanBracket {
			container(sp.in0, sp.in1, children[i+1], false)
		}
	}
	// Outer lists first, as hierarchical delta debugging goes top-down.
	slices.SortStableFunc(lists, func(a, b list) int {
		ea, eb := a.extent(), b.extent()
		if ea.start != eb.start {
			return ea.start - eb.start
		}
		return eb.end - ea.end
	})
	t.lists = lists
	if len(blocks) > 0 {
		t.spans = append(t.spans, blocks...)
		sortTextSpans(t.spans)
	}
}

// splitLines returns the lines of [in0, in1) split at the given newlines,
// each with its newline; a last empty line is dropped.
func splitLines[S byteString](s S, in0, in1 int, newlines []int) []rng {
	var lines []rng
	start := in0
	for _, nl := range newlines {
		lines = append(lines, rng{start, nl + 1})
		start = nl + 1
	}
	if start < in1 {
		lines = append(lines, rng{start, in1})
	}
	return lines
}

// groupBlocks groups lines into blocks by indentation (see the top of this
// file), nested blocks included, and appends them to blocks, and the list of
// the blocks nested in each block to lists. It returns the top-level blocks.
func groupBlocks[S byteString](s S, lines []rng, blocks []textSpan, lists []list) ([]textSpan, []list, []rng) {
	indent := make([]int, len(lines))
	next := 0 // indentation of the next non-blank line
	for i := len(lines) - 1; i >= 0; i-- {
		n, blank := 0, true
		for j := lines[i].start; j < lines[i].end; j++ {
			if c := s[j]; c == ' ' || c == '\t' {
				n++
				continue
			} else if c != '\n' && c != '\r' {
				blank = false
			}
			break
		}
		if blank {
			n = next
		}
		indent[i], next = n, n
	}
	var group func(a, b int) []rng
	group = func(a, b int) []rng {
		var items []rng
		for i := a; i < b; {
			j := i + 1
			for j < b && indent[j] > indent[i] {
				j++
			}
			kidsEnd := j
			if j > i+1 && j < b && indent[j] == indent[i] && closes(s, lines[j]) {
				j++
			}
			blk := textSpan{rng: rng{lines[i].start, lines[j-1].end}, kind: spanBlock}
			blk.in0, blk.in1 = blk.end, blk.end
			items = append(items, blk.rng)
			if kidsEnd > i+1 {
				blk.in0, blk.in1 = lines[i].end, lines[kidsEnd-1].end
				blocks = append(blocks, blk)
				lists = append(lists, list{items: group(i+1, kidsEnd)})
			} else {
				blocks = append(blocks, blk)
			}
			i = j
		}
		return items
	}
	items := group(0, len(lines))
	return blocks, lists, items
}

// closes reports whether a line closes the block before it: it starts, after
// its indentation, with a closing bracket, or with an opening bracket and a
// slash.
func closes[S byteString](s S, line rng) bool {
	i := line.start
	for i < line.end && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == line.end {
		return false
	}
	if openerOf(s[i]) != 0 {
		return true
	}
	switch s[i] {
	case '(', '[', '{', '<':
		return i+1 < line.end && s[i+1] == '/'
	}
	return false
}

// splitAt splits [in0, in1) at the separators at the given offsets into
// items trimmed of spaces and newlines.
func splitAt[S byteString](s S, in0, in1 int, seps []int) []rng {
	var items []rng
	start := in0
	for _, c := range append(seps, in1) {
		items = append(items, trim(s, rng{start, c}))
		start = c + 1
	}
	return items
}

func trim[S byteString](s S, r rng) rng {
	for r.start < r.end && isSpaceOrNewline(s[r.start]) {
		r.start++
	}
	for r.end > r.start && isSpaceOrNewline(s[r.end-1]) {
		r.end--
	}
	return r
}

func isSpaceOrNewline(c byte) bool { return isSpace(c) || c == '\n' }

// splitSpace splits the content ending at in1, whose top-level segments are
// segs, at its top-level runs of spaces into items.
func splitSpace[S byteString](s S, in1 int, segs []rng) []rng {
	var items []rng
	start := -1
	for gi, g := range segs {
		for i := g.start; i < g.end; i++ {
			if isSpace(s[i]) {
				if start >= 0 {
					items = append(items, rng{start, i})
					start = -1
				}
			} else if start < 0 {
				start = i
			}
		}
		if gi+1 < len(segs) && start < 0 {
			start = g.end // a child span starts an item
		}
	}
	if start >= 0 {
		items = append(items, rng{start, in1})
	}
	return items
}

// tokens splits s into tokens (see the top of this file).
func tokens[S byteString](s S) []rng {
	var ts []rng
	for i := 0; i < len(s); {
		j := i + 1
		switch c := s[i]; {
		case isWord(c):
			for j < len(s) && isWord(s[j]) {
				j++
			}
		case c == ' ' || c == '\t':
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
		}
		ts = append(ts, rng{i, j})
		i = j
	}
	return ts
}

func isWord(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }
