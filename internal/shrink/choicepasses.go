package shrink

import (
	"iter"
	"math"
	mbits "math/bits"
	"slices"
	"strconv"
)

// The shrink passes of choice sequences, entries of the passes table like
// the others, cheapest and most structural first. Each works on the record
// of the best sequence (its choices, and the spans of the draws that made
// them) and proposes sequences of canonical tokens, each strictly smaller
// than the best, shortlex. The oracle replays
// a candidate, and the engine keeps its normal form.
//
// No pass changes a choice drawn inside a NoShrink span; a span and all of
// its choices can go only with an enclosing span.
//
//   - delete spans: blocks of sibling spans (elements of collections,
//     steps of a sequence of commands, draws of a property, filter
//     attempts) of halving sizes, above 8 at aligned offsets, the others
//     (for steps, every size from 8 down) at every offset; alone, with the choice before them one
//     lower (a length they depend on), and with the later choices at the
//     top of their ranges lower by the block's size (indexes of a last
//     element), and with an earlier integer that counts the block's kind
//     of span lower by its size (a length drawn before a loop);
//   - descendants: a span replaced by a descendant of the same generator (a
//     subtree for its tree), and a collection replaced by one of its
//     elements (100 elements collapse to 1 in one move);
//   - zero spans: all the choices of a span set to their simplest;
//   - lower choices: each choice toward its simplest value: integers by a
//     binary search on their distance to their target (zero or the nearer
//     bound; bools to false, branch indexes toward 0), then, inside a
//     Filter, a short linear scan (a filter's accepted values may not be
//     contiguous); a OneOf's branch index toward earlier branches, their
//     first choice at its maximum;
//     floats toward simpler floats;
//   - sort spans: runs of sibling spans of one generator sorted by their
//     tokens, so that the result is the same whatever order the failure had;
//   - merge collections, flatten, relabel elements: regroup.go;
//   - redistribute pairs: value moved from one number to a later one,
//     keeping their sum ([51 50] → [0 101]), between integers and floats
//     too;
//   - common offset: several integers moved by the same amount, keeping
//     their differences (and equal values equal).

// choicePasses are the passes of choice sequences, in the order a round
// runs them.
var choicePasses = []ValuePass{
	{"delete spans", onChoices(deleteSpans)},
	{"descendants", onChoices(descendants)},
	{"zero spans", onChoices(zeroSpans)},
	{"lower choices", onChoices(lowerChoices)},
	{"sort spans", onChoices(sortSpans)},
	{"merge collections", onChoices(mergeCollections)},
	{"flatten", onChoices(flatten)},
	{"relabel elements", onChoices(relabelElements)},
	{"redistribute pairs", onChoices(redistributePairs)},
	{"gather elements", onChoices(gatherElements)},
	{"common offset", onChoices(commonOffset)},
}

// onChoices lifts a pass over a choice sequence to a [ValuePass]: it
// applies to choice sequences that have a record, and drops the candidates
// that are not smaller. The passes keep their position as node, i, j of a
// pos, the cursor of the engine's passes.
func onChoices(f func(s *ChoiceSeq, from pos, yield func(pos, []byte) bool)) func(Value, Mark) iter.Seq2[Mark, Value] {
	return func(v Value, from Mark) iter.Seq2[Mark, Value] {
		s := v.(*ChoiceSeq)
		return func(yield func(Mark, Value) bool) {
			if s.Rec == nil {
				return
			}
			f(s, pos{node: from.Node, i: from.I, j: from.J}, func(p pos, cand []byte) bool {
				c := &ChoiceSeq{Data: cand}
				if c.Compare(s) >= 0 {
					return true
				}
				return yield(Mark{Node: p.node, I: p.i, J: p.j}, c)
			})
		}
	}
}

// Analysis is what the passes need to know of a record, computed once per
// best sequence.
type Analysis struct {
	Frozen      []bool    // per choice: drawn inside a NoShrink span
	filtered    []bool    // per choice: drawn inside a Filter
	scattered   []bool    // per choice: drawn inside a Scattered span
	branch      []bool    // per choice: the branch index of a OneOf
	frozenSpan  []bool    // per span: NoShrink, or inside one
	subtreeEnd  []int32   // per span: the index after its last descendant
	children    [][]int32 // per span, its child spans; the last entry: the top-level spans
	groups      []int32   // the spans with children in preorder, -1 (the top) first
	numeric     []int32   // the integer choices of more than two values, not frozen
	movable     []int32   // those, the other integers but flags and branches, and the floats, not frozen
	start, stop []int     // per span: its tokens, data[start:stop]
}

func (s *ChoiceSeq) Analysis() *Analysis {
	if s.an != nil {
		return s.an
	}
	rec := s.Rec
	n := len(rec.Spans)
	an := &Analysis{
		Frozen:     make([]bool, len(rec.Choices)),
		filtered:   make([]bool, len(rec.Choices)),
		scattered:  make([]bool, len(rec.Choices)),
		branch:     make([]bool, len(rec.Choices)),
		frozenSpan: make([]bool, n),
		subtreeEnd: make([]int32, n),
		children:   make([][]int32, n+1),
		start:      make([]int, n),
		stop:       make([]int, n),
	}
	for i, sp := range rec.Spans {
		p := sp.Parent
		an.frozenSpan[i] = sp.Drawer.NoShrink || p >= 0 && an.frozenSpan[p]
		if p < 0 {
			p = int32(n)
		}
		an.children[p] = append(an.children[p], int32(i))
		an.subtreeEnd[i] = int32(i + 1)
		if sp.First < sp.Last {
			an.start[i], an.stop[i] = int(rec.Choices[sp.First].Start), int(rec.Choices[sp.Last-1].End)
		}
		for c := sp.First; c < sp.Last; c++ {
			an.Frozen[c] = an.Frozen[c] || an.frozenSpan[i]
			an.filtered[c] = an.filtered[c] || sp.Drawer.Filter
			an.scattered[c] = an.scattered[c] || sp.Drawer.Scattered
		}
		if sp.Drawer.Depth && sp.First < sp.Last {
			an.branch[sp.First] = true
		}
	}
	for i := n - 1; i >= 0; i-- {
		if p := rec.Spans[i].Parent; p >= 0 {
			an.subtreeEnd[p] = max(an.subtreeEnd[p], an.subtreeEnd[i])
		}
	}
	an.groups = append(an.groups, -1)
	for i := range n {
		if len(an.children[i]) > 0 {
			an.groups = append(an.groups, int32(i))
		}
	}
	flag := make([]bool, len(rec.Choices)) // the continue flags of elements
	for _, sp := range rec.Spans {
		if sp.Flagged && sp.First < sp.Last {
			flag[sp.First] = true
		}
	}
	for i, c := range rec.Choices {
		switch {
		case an.Frozen[i]:
		case c.Kind == KindInt && c.Hi-c.Lo >= 2:
			an.numeric = append(an.numeric, int32(i))
			an.movable = append(an.movable, int32(i))
		case c.Kind == KindInt && c.Hi-c.Lo == 1 && !flag[i] && !an.branch[i]:
			an.movable = append(an.movable, int32(i)) // a bool or a last index: it can take one unit
		case c.Kind == KindFloat:
			an.movable = append(an.movable, int32(i))
		}
	}
	s.an = an
	return an
}

// kids returns the child spans of group g (-1: the top level).
func (an *Analysis) kids(g int32) []int32 {
	if g < 0 {
		return an.children[len(an.children)-1]
	}
	return an.children[g]
}

// Splice returns data with data[start:end] replaced by repl, in new memory.
func Splice(data []byte, start, end int, repl ...[]byte) []byte {
	n := len(data) - (end - start)
	for _, r := range repl {
		n += len(r)
	}
	c := make([]byte, 0, n)
	c = append(c, data[:start]...)
	for _, r := range repl {
		c = append(c, r...)
	}
	return append(c, data[end:]...)
}

// deleteSpans deletes blocks of sibling spans as [spanBlocks] yields them.
// The cursor is (node, i, j) = (group, size, offset); after a deletion the
// pass stays at that size and offset, where the next siblings have moved
// in.
func deleteSpans(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an := s.Analysis()
	for gi := from.node; gi < len(an.groups); gi++ {
		g := an.groups[gi]
		if g >= 0 && an.frozenSpan[g] {
			continue
		}
		ch := an.kids(g)
		start := pos{}
		if gi == from.node {
			start = from
		}
		steps := g >= 0 && s.Rec.Spans[g].Drawer.Steps // statemachine.go
		for bp, b := range spanBlocks(len(ch), steps, start) {
			off, size := b[0], b[1]-b[0]
			block := ch[off : off+size]
			if slices.ContainsFunc(block, func(c int32) bool { return an.frozenSpan[c] }) {
				continue
			}
			start, end := an.start[block[0]], an.stop[block[size-1]]
			if start >= end || simplestChoices(s.Rec, block) && allZero(s.Data[end:]) {
				// Simplest choices followed by simplest choices only come
				// back in the normal form (replay reads them past the
				// end): deleting them is no progress, and with the choice
				// before them lowered by one it would only lower that
				// choice, one unit a run.
				continue
			}
			p := pos{node: gi, i: bp.i, j: bp.j}
			if !yield(p, Splice(s.Data, start, end)) {
				return
			}
			// Elements among a collection's first min have no flag: to
			// delete them, the elements that take their places lose
			// theirs.
			if c := shiftedDeletion(s, an, ch, off, size); c != nil {
				if !yield(p, c) {
					return
				}
			}
			// The same with the choice just before the block one lower:
			// the length of a collection whose elements follow it, as
			// in FlatMap(IntRange(1, 5), n → SliceOfN(g, n, n)), which
			// must shrink with the elements (minithesis' trick).
			if ci := s.Rec.Spans[block[0]].First - 1; ci >= 0 && !an.Frozen[ci] {
				if c := &s.Rec.Choices[ci]; c.Kind == KindInt && c.Val > 0 && int(c.End) == start {
					if !yield(p, Splice(s.Data, int(c.Start), end, AppendIntToken(nil, c.Val-1))) {
						return
					}
				}
			}
			// The same with an earlier integer that counts the block's
			// kind of span lower by the block's size: a length drawn
			// before a loop of draws, and the element deleted from the
			// middle (n = 4, then four bools: n = 3 without the third).
			if c := countBefore(s, an, ch, block); c != nil {
				if !yield(p, Splice(s.Data, int(c.Start), end, c.lowered(uint64(size)), s.Data[c.End:start])) {
					return
				}
			}
			// The same with the later choices at the top of their ranges
			// lower by the block's size: indexes of the last element of a
			// collection that the block's spans added to, as in the step
			// Remove(2) of a list after three steps Append, whose range
			// shrinks with the list (a sequence of commands,
			// statemachine.go).
			if lowered := atTopLowered(s, an, s.Rec.Spans[block[size-1]].Last, size); lowered != nil {
				if !yield(p, Splice(lowered, start, end)) {
					return
				}
			}
		}
	}
}

// simplestChoices reports whether every choice of the spans holds the
// simplest value of its domain.
func simplestChoices(rec *Record, spans []int32) bool {
	for _, sp := range spans {
		for _, c := range rec.Choices[rec.Spans[sp].First:rec.Spans[sp].Last] {
			if !c.simplest() {
				return false
			}
		}
	}
	return true
}

// countBefore returns the nearest integer choice before the block, of
// three values or more, whose value is the number of spans among ch of
// the block's generator (by name) and can go as low as that number less the
// block's size; or nil. The choice just before the block is left to the
// caller's other candidate.
func countBefore(s *ChoiceSeq, an *Analysis, ch, block []int32) *Choice {
	spans := s.Rec.Spans
	kind := spans[block[0]].Drawer.Name // a loop may make a generator per draw
	count := uint64(0)
	for _, c := range ch {
		if spans[c].Drawer.Name == kind {
			count++
		}
	}
	start := an.start[block[0]]
	before, _ := slices.BinarySearch(an.numeric, spans[block[0]].First) // an.numeric is in order
	for k := before - 1; k >= 0; k-- {
		c := &s.Rec.Choices[an.numeric[k]]
		r := c.Interval()
		if r.Value(c.Val) != count { // a signed value too: the same bits
			continue
		}
		if int(c.End) == start && len(block) == 1 {
			return nil // the caller's candidate
		}
		if _, ok := Shift(c, r.Value(c.Val), uint64(len(block)), false); !ok {
			return nil
		}
		return c
	}
	return nil
}

// allZero reports whether b holds only zero tokens, each the simplest
// value of any choice.
func allZero(b []byte) bool {
	return !slices.ContainsFunc(b, func(c byte) bool { return c != 0 })
}

// atTopLowered returns the data with the integer choices from first on
// that are at the top of their ranges (of three values or more, above
// their targets) lowered by n, to their targets if below n; or nil if
// there are none.
func atTopLowered(s *ChoiceSeq, an *Analysis, first int32, n int) []byte {
	var parts [][]byte
	prev := 0
	for ci := int(first); ci < len(s.Rec.Choices); ci++ {
		c := &s.Rec.Choices[ci]
		r := c.Interval()
		if c.Kind != KindInt || an.Frozen[ci] || r.Size() < 2 || r.target() != r.Lo || c.Val != r.Size() {
			continue
		}
		parts = append(parts, s.Data[prev:c.Start], AppendIntToken(nil, c.Val-min(c.Val, uint64(n))))
		prev = int(c.End)
	}
	if parts == nil {
		return nil
	}
	return Splice(s.Data, 0, prev, parts...)
}

// spanBlocks yields the [start, end) blocks of n sibling spans that
// deleteSpans tries: those of [blocks], so that isolating one span of n (a
// step of a sequence of commands) takes O(log n) runs; or, for the steps of
// a sequence of commands (every), every size from smallBlock down to 1:
// steps often go in pairs or threes that only go together (a Push and the
// Pop that takes it back, an Open and its Close), and halving sizes from 7
// or 12 never try 2. The elements of collections are values, which go one
// by one as well as in pairs. The cursor is (pos.i, pos.j) = (size,
// offset).
func spanBlocks(n int, every bool, from pos) iter.Seq2[pos, [2]int] {
	return blockSizes(n, every, from)
}

// shiftedDeletion returns the deletion of children ch[off:off+size] of a
// collection, some of which have no continue flag (they are among the
// collection's first min elements), with the flags of as many flagged
// elements after them removed, as they move into the first min; or nil if
// the block has no unflagged element, or not enough flagged ones follow.
func shiftedDeletion(s *ChoiceSeq, an *Analysis, ch []int32, off, size int) []byte {
	spans := s.Rec.Spans
	unflagged := 0
	for _, c := range ch[off : off+size] {
		if spans[c].Drawer.Element && !spans[c].Flagged {
			unflagged++
		}
	}
	if unflagged == 0 {
		return nil
	}
	var parts [][]byte
	for _, c := range ch[off+size:] {
		if !spans[c].Drawer.Element {
			return nil
		}
		if !spans[c].Flagged {
			parts = append(parts, s.Data[an.start[c]:an.stop[c]])
			continue
		}
		flag := s.Rec.Choices[spans[c].First]
		parts = append(parts, s.Data[flag.End:an.stop[c]])
		if unflagged--; unflagged == 0 {
			return Splice(s.Data, an.start[ch[off]], an.stop[c], parts...)
		}
	}
	return nil
}

// descendants replaces each span by each of its descendants of the same
// generator (phase 0), and each collection by each of its elements (phase
// 1). The cursor is (node, i, j) = (span, phase, next descendant or
// element).
func descendants(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for si := from.node; si < len(spans); si++ {
		if an.frozenSpan[si] || an.start[si] >= an.stop[si] {
			continue
		}
		start, end := an.start[si], an.stop[si]
		phase, k := 0, int32(si+1)
		if si == from.node {
			phase, k = from.i, max(int32(from.j), k)
		}
		if phase == 0 {
			for d := k; d < an.subtreeEnd[si]; d++ {
				if spans[d].Drawer != spans[si].Drawer || an.stop[d]-an.start[d] >= end-start || an.start[d] >= an.stop[d] ||
					frozenBetween(an, spans[si].First, spans[d].First) || frozenBetween(an, spans[d].Last, spans[si].Last) {
					continue
				}
				if !yield(pos{node: si, i: 0, j: int(d + 1)}, Splice(s.Data, start, end, s.Data[an.start[d]:an.stop[d]])) {
					return
				}
			}
			phase, k = 1, 0
		}
		ch := an.children[si]
		if len(ch) < 2 || !spans[ch[0]].Drawer.Element {
			continue
		}
		first, last := an.start[ch[0]], an.stop[ch[len(ch)-1]]
		for e := k; int(e) < len(ch); e++ {
			c := ch[e]
			if frozenBetween(an, spans[ch[0]].First, spans[c].First) || frozenBetween(an, spans[c].Last, spans[ch[len(ch)-1]].Last) {
				continue
			}
			if !yield(pos{node: si, i: 1, j: int(e + 1)}, Splice(s.Data, first, last, s.Data[an.start[c]:an.stop[c]])) {
				return
			}
		}
	}
}

// frozenBetween reports whether a choice in [first, last) is frozen.
func frozenBetween(an *Analysis, first, last int32) bool {
	return first < last && slices.Contains(an.Frozen[first:last], true)
}

// zeroSpans sets all the choices of each span of two or more choices to
// their simplest value. The cursor's node is the next span.
func zeroSpans(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, rec := s.Analysis(), s.Rec
	for si := from.node; si < len(rec.Spans); si++ {
		sp := rec.Spans[si]
		if sp.Last-sp.First < 2 || an.frozenSpan[si] || an.start[si] >= an.stop[si] {
			continue
		}
		if !slices.ContainsFunc(rec.Choices[sp.First:sp.Last], func(c Choice) bool { return !c.simplest() }) {
			continue
		}
		zeros := make([]byte, sp.Last-sp.First) // the token 0 is every choice's simplest value
		if !yield(pos{node: si + 1}, Splice(s.Data, an.start[si], an.stop[si], zeros)) {
			return
		}
	}
}

// The phases of lowering a choice.
const (
	lowerZero   = iota // the simplest value
	lowerSearch        // a binary search; j is the distance down to a value known not to fail
	lowerScan          // a linear scan below the value, inside a Filter; j is the step
	lowerList          // floats: a list of simpler values; j is the index
	lowerOther         // the previous ranks, on the other side of the target
	lowerBits          // the distance with its low set bits cleared; j is the set bits kept
)

// filterScan is how far below a value the linear scan of a filtered
// choice goes.
const filterScan = 256

// lowerChoices lowers each choice in turn. The cursor is (node, i, j) =
// (choice, phase, phase state).
func lowerChoices(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, rec := s.Analysis(), s.Rec
	for ci := from.node; ci < len(rec.Choices); ci++ {
		c := &rec.Choices[ci]
		if an.Frozen[ci] || c.simplest() {
			continue
		}
		st := pos{node: ci}
		if ci == from.node {
			st = from
		}
		put := func(p pos, tok []byte) bool {
			p.node = ci
			return yield(p, Splice(s.Data, int(c.Start), int(c.End), tok))
		}
		if st.i == lowerZero && an.branch[ci] && ci+1 < len(rec.Choices) && !an.Frozen[ci+1] {
			// An earlier branch of a OneOf, whose first choice reads its
			// maximum (a boundary token): the branch's values below it are
			// left to the next passes (v = 100 in the second branch
			// becomes 10, then 6, in the first).
			next := &rec.Choices[ci+1]
			for k := range c.Val {
				if !yield(pos{node: ci}, Splice(s.Data, int(c.Start), int(next.End), AppendIntToken(nil, k), []byte{BoundaryTokens})) {
					return
				}
			}
		}
		var ok bool
		if c.Kind == KindInt {
			ok = lowerInt(c, st, an.filtered[ci], an.scattered[ci], put)
		} else {
			ok = lowerFloat(c, st, put)
		}
		if !ok {
			return
		}
	}
}

// lowerInt proposes simpler values of an integer choice: its target, the
// value at the same distance on the simpler side (1 for -1), then, keeping
// the side, a binary search on the distance to the target (the ranks of one
// side alternate with those of the other, so a search on ranks would not
// be monotone), then the two previous ranks, then for a scattered choice
// the distances with only its highest bits, then for a filtered choice a
// linear scan. It reports false if yield did.
func lowerInt(c *Choice, st pos, filtered, scattered bool, yield func(pos, []byte) bool) bool {
	r := c.Interval()
	v := r.Value(c.Val)
	up, d := above(c, v)
	t := r.target()
	at := func(dist uint64) []byte { // the token of the value at dist on v's side
		if up {
			return AppendIntToken(nil, r.Rank(t+dist))
		}
		return AppendIntToken(nil, r.Rank(t-dist))
	}
	if st.i == lowerZero {
		if !yield(pos{i: lowerScan, j: filterScan + 1}, AppendIntToken(nil, 0)) {
			return false
		}
		if !up && d <= r.Hi-t { // the mirror, above: simpler at the same distance
			if !yield(pos{i: lowerSearch, j: int(d)}, AppendIntToken(nil, r.Rank(t+d))) {
				return false
			}
		}
		st = pos{i: lowerSearch, j: int(d)}
	}
	if st.i == lowerSearch {
		// Propose d-g, g = ⌈e/2⌉ where e is the distance from d down to a
		// distance known not to fail (0 to start with); if it passes, e = g
		// and again: d/2 first, then closer to d, ending at d-1. Accepted,
		// the search resumes with e = ⌊e/2⌋, the distance from the new value
		// to the same passing one: a true binary search, log₂ d runs.
		for e := min(uint64(st.j), d); e >= 2; {
			g := e - e/2
			if !yield(pos{i: lowerSearch, j: int(e / 2)}, at(d-g)) {
				return false
			}
			e = g
		}
		st = pos{i: lowerOther}
	}
	if st.i == lowerOther {
		// The values just before in rank order, on the other side of the
		// target if v's side is blocked (a set holding 0 and 1 takes -1).
		for j := uint64(1); j <= 2 && j < c.Val; j++ {
			if !yield(pos{i: lowerSearch, j: int(d)}, AppendIntToken(nil, c.Val-j)) {
				return false
			}
		}
		st = pos{i: lowerBits, j: 1}
	}
	if st.i == lowerBits {
		// The distance with only its highest set bits: where the failing
		// values are scattered, the binary search may stop at the start of
		// a later run of them (an astral letter: U+10028 after the gap
		// before it, where U+10000 fails too).
		for k := st.j; scattered && k < mbits.OnesCount64(d); k++ {
			if !yield(pos{i: lowerSearch, j: int(d)}, at(highBits(d, k))) {
				return false
			}
		}
		st = pos{i: lowerScan, j: 2}
	}
	if st.i == lowerScan && filtered {
		for j := uint64(st.j); j <= filterScan && j < d; j++ {
			if !yield(pos{i: lowerSearch, j: int(d - j)}, at(d-j)) {
				return false
			}
		}
	}
	return true
}

// highBits returns d with only its k highest set bits.
func highBits(d uint64, k int) uint64 {
	var h uint64
	for range k {
		top := uint64(1) << (mbits.Len64(d) - 1)
		h, d = h|top, d&^top
	}
	return h
}

// lowerFloat proposes simpler values of a float choice: the simplest value
// of its range, a list of simpler values, then a binary search on the
// integer part of the magnitude. Each must lie in the range and have a
// smaller token.
func lowerFloat(c *Choice, st pos, yield func(pos, []byte) bool) bool {
	r, f := c.FloatInterval(), c.Float()
	cur := AppendFloatToken(nil, f)
	try := func(p pos, g float64) bool {
		if !r.Contains(g) || math.IsNaN(g) {
			return true
		}
		tok := AppendFloatToken(nil, g)
		if compareTokens(tok, cur) >= 0 {
			return true
		}
		return yield(p, tok)
	}
	if st.i == lowerZero {
		if !try(pos{i: lowerList, j: 0}, r.Simplest()) {
			return false
		}
		st = pos{i: lowerList}
	}
	if st.i == lowerList {
		cs := simplerFloats(f)
		for j := st.j; j < len(cs); j++ {
			if !try(pos{i: lowerList, j: 0}, cs[j]) { // accepted: the list of the new value
				return false
			}
		}
		st = pos{i: lowerSearch, j: -1}
	}
	if st.i == lowerSearch && !math.IsInf(f, 0) && !math.IsNaN(f) {
		// The binary search of lowerInt, on the index of the magnitude of
		// an integer, or on the integer part of a fraction, which keeps its
		// fractional part (1000.75 for 863276.75).
		whole, frac := math.Modf(math.Abs(f))
		idx := floatIndex(whole)
		d := uint64(st.j)
		if st.j < 0 {
			d = idx
		}
		for d = min(d, idx); d >= 2; {
			g := d - d/2
			if !try(pos{i: lowerSearch, j: int(d / 2)}, math.Copysign(fromFloatIndex(idx-g)+frac, f)) {
				return false
			}
			d = g
		}
	}
	return true
}

// simplerFloats lists candidates simpler than f: its positive counterpart,
// the integers on either side (toward 0 first), f with the fewer
// significant bits in its integer part, f with fewer significant bits (cut,
// then rounded) and fewer significant decimal digits; for ±Inf and NaN,
// finite values. The caller keeps those whose token is smaller.
func simplerFloats(f float64) []float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []float64{0, 1, -1, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1)}
	}
	cs := []float64{math.Abs(f)}
	if f == math.Trunc(f) {
		if math.Abs(f) > exactInts {
			// Above 2⁵³ an integer with fewer significant bits has a
			// shorter token, the next power of two among them.
			cs = append(cs, fewerBits(f)...)
		}
		return cs
	}
	tr := math.Trunc(f)
	cs = append(cs, tr, tr+math.Copysign(1, f))
	// The integer part with fewer significant bits, down and up, the
	// fraction kept: 512.5 and 1024.5 for 1000.5.
	if whole := uint64(math.Abs(tr)); whole > 0 && whole < 1<<53 {
		for keep := 1; keep < mbits.Len64(whole); keep++ {
			drop := uint(mbits.Len64(whole) - keep)
			down := whole >> drop << drop
			for _, w := range []uint64{down, down + 1<<drop} {
				cs = append(cs, math.Copysign(float64(w), f)+(f-tr))
			}
		}
	}
	cs = append(cs, fewerBits(f)...)
	for k := 1; k < 17; k++ { // decimal digits
		if g, err := strconv.ParseFloat(strconv.FormatFloat(f, 'e', k-1, 64), 64); err == nil {
			cs = append(cs, g)
			if g == f {
				break
			}
		}
	}
	return cs
}

// fewerBits returns f with fewer significant bits in its mantissa, cut
// and then rounded, from none kept (a power of two) to 51.
func fewerBits(f float64) []float64 {
	var cs []float64
	bits := math.Float64bits(f)
	for keep := 0; keep < 52; keep++ {
		drop := uint(52 - keep)
		if bits&(1<<drop-1) == 0 {
			break
		}
		cut := bits >> drop << drop
		cs = append(cs, math.Float64frombits(cut), math.Float64frombits(cut+bits&(1<<(drop-1))<<1))
	}
	return cs
}

// sortSpans sorts each run of consecutive sibling spans of one generator
// by their tokens (step 0), then swaps adjacent ones out of order (step
// p+1 swaps p and p+1). The cursor is (node, i, j) = (group, run, step).
func sortSpans(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for gi := from.node; gi < len(an.groups); gi++ {
		g := an.groups[gi]
		if g >= 0 && an.frozenSpan[g] {
			continue
		}
		runs := sortableRuns(an, spans, an.kids(g))
		ri, step := 0, 0
		if gi == from.node {
			ri, step = from.i, from.j
		}
		for ; ri < len(runs); ri, step = ri+1, 0 {
			run := runs[ri]
			pieces := make([][]byte, len(run))
			for i, c := range run {
				pieces[i] = s.Data[an.start[c]:an.stop[c]]
			}
			start, end := an.start[run[0]], an.stop[run[len(run)-1]]
			if step == 0 {
				sorted := slices.Clone(pieces)
				slices.SortStableFunc(sorted, compareTokens)
				if !yield(pos{node: gi, i: ri, j: 0}, Splice(s.Data, start, end, sorted...)) {
					return
				}
				step = 1
			}
			for p := step - 1; p+1 < len(pieces); p++ {
				if compareTokens(pieces[p], pieces[p+1]) <= 0 {
					continue
				}
				swapped := slices.Clone(pieces)
				swapped[p], swapped[p+1] = swapped[p+1], swapped[p]
				if !yield(pos{node: gi, i: ri, j: p + 1}, Splice(s.Data, start, end, swapped...)) {
					return
				}
			}
		}
	}
}

// sortableRuns returns the runs of two or more consecutive children of one
// generator, not frozen, whose tokens are adjacent.
func sortableRuns(an *Analysis, spans []Span, ch []int32) [][]int32 {
	var runs [][]int32
	for i := 0; i < len(ch); {
		j := i + 1
		for j < len(ch) && spans[ch[j]].Drawer == spans[ch[i]].Drawer && an.stop[ch[j-1]] == an.start[ch[j]] &&
			!an.frozenSpan[ch[j]] && an.start[ch[j]] < an.stop[ch[j]] {
			j++
		}
		if j-i >= 2 && !an.frozenSpan[ch[i]] && an.start[ch[i]] < an.stop[ch[i]] {
			runs = append(runs, ch[i:j])
		}
		i = j
	}
	return runs
}

// pairWindow bounds the distance, in integer choices, between the two
// choices of a redistribution.
const pairWindow = 8

// Shift returns value v of c moved by d, up or down, and whether it stays
// in the range.
func Shift(c *Choice, v, d uint64, up bool) (uint64, bool) {
	r := c.Interval()
	if up {
		return v + d, d <= r.Hi-v
	}
	return v - d, d <= v-r.Lo
}

// above reports whether value v of c lies above its target, and its
// distance to it.
func above(c *Choice, v uint64) (bool, uint64) {
	r := c.Interval()
	t := r.target()
	if r.Signed && int64(v) > int64(t) || !r.Signed && v > t {
		return true, v - t
	}
	return false, t - v
}

// redistributePairs moves value from a numeric choice toward its target
// and into a later one (within pairWindow numeric choices), keeping their
// sum: all of it the first choice can give and the second take, then
// halves of it. Integers and floats move into each other ([421.5 580] →
// [0 1001.5] for floats, [1001.0 0] → [0.0 1001] for a float and an int).
// The cursor is (node, i) = (first choice among the movable ones, distance
// to the second); an accepted move starts the pair again.
func redistributePairs(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, rec := s.Analysis(), s.Rec
	num := an.movable
	for a := from.node; a < len(num); a++ {
		ci := &rec.Choices[num[a]]
		if ci.simplest() {
			continue
		}
		off := 1
		if a == from.node {
			off = max(from.i, 1)
		}
		for ; off <= pairWindow && a+off < len(num); off++ {
			cj := &rec.Choices[num[a+off]]
			var moves iter.Seq[[2][]byte]
			if ci.Kind == KindInt && cj.Kind == KindInt {
				moves = intMoves(ci, cj)
			} else {
				moves = numberMoves(ci, cj)
			}
			for toks := range moves {
				cand := Splice(s.Data, int(ci.Start), int(cj.End), toks[0], s.Data[ci.End:cj.Start], toks[1])
				if !yield(pos{node: a, i: off}, cand) {
					return
				}
			}
		}
	}
}

// intMoves yields the tokens of integer choices ci and cj
// with value moved from ci toward its target into cj: all it can move at
// step 0, half at step 1, and so on.
func intMoves(ci, cj *Choice) iter.Seq[[2][]byte] {
	return func(yield func([2][]byte) bool) {
		ri, rj := ci.Interval(), cj.Interval()
		vi, vj := ri.Value(ci.Val), rj.Value(cj.Val)
		up, dist := above(ci, vi)
		capacity := rj.Hi - vj // room for vj to move the same way as the value leaves vi
		if !up {
			capacity = vj - rj.Lo
		}
		d := min(dist, capacity)
		for step := 0; step < 64 && d>>step > 0; step++ {
			dd := d >> step
			ni, _ := Shift(ci, vi, dd, !up)
			nj, _ := Shift(cj, vj, dd, up)
			if !yield([2][]byte{AppendIntToken(nil, ri.Rank(ni)), AppendIntToken(nil, rj.Rank(nj))}) {
				return
			}
		}
	}
}

// numberMoves is intMoves for a pair of which one or both are floats: the
// amounts are whole if either is an integer, and each value must stay in
// its range (integers within ±2⁵³, where floats hold them exactly).
func numberMoves(ci, cj *Choice) iter.Seq[[2][]byte] {
	return func(yield func([2][]byte) bool) {
		vi, ti, ok := number(ci)
		vj, _, ok2 := number(cj)
		if !ok || !ok2 {
			return
		}
		whole := ci.Kind == KindInt || cj.Kind == KindInt
		d := vi - ti
		if r := room(cj, vj, d > 0); r < math.Abs(d) {
			d = math.Copysign(r, d) // all cj can take: [123 878] → [1 1000] in [0, 1000]
		}
		for step := 0; step < 64; step++ {
			amt := math.Ldexp(d, -step)
			if whole {
				amt = math.Trunc(amt)
			}
			if amt == 0 || !whole && math.Abs(amt) < math.Abs(d)/(1<<20) {
				return
			}
			tki, tkj := numberToken(ci, vi-amt), numberToken(cj, vj+amt)
			if tki == nil || tkj == nil {
				continue
			}
			if !yield([2][]byte{tki, tkj}) {
				return
			}
		}
	}
}

// room returns how far numeric choice c can move from its value v, up or
// down, within its range.
func room(c *Choice, v float64, up bool) float64 {
	var lo, hi float64
	if c.Kind == KindFloat {
		lo, hi = c.FloatInterval().Lo, c.FloatInterval().Hi
	} else if r := c.Interval(); r.Signed {
		lo, hi = float64(int64(r.Lo)), float64(int64(r.Hi))
	} else {
		lo, hi = float64(r.Lo), float64(r.Hi)
	}
	if up {
		return hi - v
	}
	return v - lo
}

// number returns the value of a numeric choice as a float, and its
// target; ok is false for an integer beyond ±2⁵³ or a float not finite.
func number(c *Choice) (v, target float64, ok bool) {
	if c.Kind == KindFloat {
		f := c.Float()
		return f, c.FloatInterval().Simplest(), !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	r := c.Interval()
	asFloat := func(u uint64) (float64, bool) {
		if r.Signed {
			x := int64(u)
			return float64(x), x >= -exactInts && x <= exactInts
		}
		return float64(u), u <= exactInts
	}
	v, ok = asFloat(r.Value(c.Val))
	target, ok2 := asFloat(r.target())
	return v, target, ok && ok2
}

// numberToken returns the canonical token of value x for the choice c, or
// nil if c cannot take it.
func numberToken(c *Choice, x float64) []byte {
	if c.Kind == KindFloat {
		if !c.FloatInterval().Contains(x) {
			return nil
		}
		return AppendFloatToken(nil, x)
	}
	if x != math.Trunc(x) || math.Abs(x) > exactInts {
		return nil
	}
	r := c.Interval()
	u := uint64(x)
	if r.Signed {
		u = uint64(int64(x))
	} else if x < 0 {
		return nil
	}
	if !r.contains(u) {
		return nil
	}
	return AppendIntToken(nil, r.Rank(u))
}

// commonOffset moves several integer choices by the same amount, keeping
// their differences: all of those above their targets toward them, all of
// those below toward them, then each pair of consecutive ones on one side,
// then each pair whose first is not at its target, both moved the way the
// first goes to its target (lo = -10, hi = 0 becomes -1, 9 when hi - lo
// matters), then all those of one value, if three or more; by the largest
// amount that the first can go, then halves of it. The cursor is (node,
// j) = (group, step).
func commonOffset(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, rec := s.Analysis(), s.Rec
	type group struct {
		members []int32
		pair    bool // all move the way the first goes
	}
	var ups, downs []int32
	for _, ci := range an.numeric {
		c := &rec.Choices[ci]
		if c.Val == 0 {
			continue
		}
		if up, _ := above(c, c.Interval().Value(c.Val)); up {
			ups = append(ups, ci)
		} else {
			downs = append(downs, ci)
		}
	}
	groups := []group{{members: ups}, {members: downs}}
	for _, side := range [][]int32{ups, downs} {
		for i := 0; i+1 < len(side); i++ {
			groups = append(groups, group{members: side[i : i+2]})
		}
	}
	for i := 0; i+1 < len(an.numeric); i++ {
		if rec.Choices[an.numeric[i]].Val != 0 {
			groups = append(groups, group{members: an.numeric[i : i+2], pair: true})
		}
	}
	// The choices of equal values, three or more (two are a pair above):
	// a key that a Put, another Put and a Get of a sequence of commands
	// share (Hypothesis' duplicated blocks).
	same := map[[2]uint64][]int32{}
	var values [][2]uint64 // in order of first appearance
	for _, ci := range an.numeric {
		c := &rec.Choices[ci]
		if c.Val == 0 {
			continue
		}
		k := [2]uint64{c.Interval().Value(c.Val), 0}
		if c.Signed {
			k[1] = 1
		}
		if same[k] == nil {
			values = append(values, k)
		}
		same[k] = append(same[k], ci)
	}
	for _, k := range values {
		if len(same[k]) >= 3 {
			groups = append(groups, group{members: same[k]})
		}
	}
	for gi := from.node; gi < len(groups); gi++ {
		g := groups[gi]
		if len(g.members) < 2 {
			continue
		}
		first := &rec.Choices[g.members[0]]
		up, d := above(first, first.Interval().Value(first.Val)) // the first goes down if up
		for _, ci := range g.members {
			c := &rec.Choices[ci]
			_, dist := above(c, c.Interval().Value(c.Val))
			if !g.pair {
				d = min(d, dist)
			}
		}
		step := 0
		if gi == from.node {
			step = from.j
		}
	steps:
		for ; step < 64 && d>>step > 0; step++ {
			dd := d >> step
			var parts [][]byte
			prev := int(rec.Choices[g.members[0]].Start)
			for _, ci := range g.members {
				c := &rec.Choices[ci]
				r := c.Interval()
				v := r.Value(c.Val)
				down := up
				if !g.pair {
					down, _ = above(c, v)
				}
				nv, ok := Shift(c, v, dd, !down)
				if !ok {
					continue steps
				}
				parts = append(parts, s.Data[prev:c.Start], AppendIntToken(nil, r.Rank(nv)))
				prev = int(c.End)
			}
			cand := Splice(s.Data, int(rec.Choices[g.members[0]].Start), prev, parts...)
			if !yield(pos{node: gi, j: 0}, cand) {
				return
			}
		}
	}
}
