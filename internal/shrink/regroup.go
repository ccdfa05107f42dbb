package shrink

import (
	"math"
	"slices"
)

// The passes that make one part of a choice sequence larger to make the
// whole smaller: they move elements between collections, and relabel
// them.
//
//   - merge collections: the elements of a collection moved to the end of
//     the one before it among its siblings, made by the same generator,
//     which goes ([[0 0] [0 0 0]] → [[0 0 0 0 0]]: one flag and one end
//     fewer);
//   - flatten: an element of a collection replaced by the elements of a
//     collection of the same generator inside it, as a subtree's children
//     taking its place in its parent's list;
//   - relabel elements: the distinct values of a collection's elements
//     reassigned in order of first appearance, the smallest first, so that
//     positions that are interchangeable end in the simplest order ("110"
//     → "001" where only the shape of the runs matters);
//   - gather elements: a run of integer elements replaced by one holding
//     their sum ([9 223 223] → [455]).

// elements returns the element children of span x, the spans of the
// elements of the collection x draws, or nil if x is not a collection.
func (an *Analysis) elements(spans []Span, x int32) []int32 {
	ch := an.children[x]
	if len(ch) == 0 || !spans[ch[0]].Drawer.Element {
		return nil
	}
	return ch
}

// collectionIn returns the first span in the subtree of span x, x
// included, that draws a collection with elements, or -1.
func (an *Analysis) collectionIn(spans []Span, x int32) int32 {
	for d := x; d < an.subtreeEnd[x]; d++ {
		if an.elements(spans, d) != nil {
			return d
		}
	}
	return -1
}

// drawnIn returns the first span in the subtree of span x, x included,
// that generator g drew, or -1.
func (an *Analysis) drawnIn(spans []Span, x int32, g *Drawer) int32 {
	for d := x; d < an.subtreeEnd[x]; d++ {
		if spans[d].Drawer == g {
			return d
		}
	}
	return -1
}

// values returns the tokens of the elements' values, without their flags.
func (an *Analysis) values(s *ChoiceSeq, elems []int32) [][]byte {
	var vals [][]byte
	for _, e := range elems {
		sp := s.Rec.Spans[e]
		if !sp.Flagged {
			vals = append(vals, s.Data[an.start[e]:an.stop[e]])
			continue
		}
		vals = append(vals, s.Data[s.Rec.Choices[sp.First].End:an.stop[e]])
	}
	return vals
}

// allFlagged reports whether every element has a flag: whether they can
// move into another collection, whose elements are flagged.
func allFlagged(spans []Span, elems []int32) bool {
	return !slices.ContainsFunc(elems, func(e int32) bool { return !spans[e].Flagged })
}

// unfrozen reports whether the spans hold no frozen choice.
func (an *Analysis) unfrozen(spans ...int32) bool {
	return !slices.ContainsFunc(spans, func(x int32) bool { return an.frozenSpan[x] })
}

// mergeCollections merges each pair of siblings, of one generator, that
// hold collections of one generator: the elements of the second move to the
// end of the first's, and the second goes. The cursor is (node, i) =
// (group, sibling).
func mergeCollections(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for gi := from.node; gi < len(an.groups); gi++ {
		g := an.groups[gi]
		if g >= 0 && an.frozenSpan[g] {
			continue
		}
		ch := an.kids(g)
		i := 1
		if gi == from.node {
			i = max(from.i, 1)
		}
		for ; i < len(ch); i++ {
			a, b := ch[i-1], ch[i]
			if spans[a].Drawer != spans[b].Drawer || !an.unfrozen(a, b) || an.stop[a] != an.start[b] {
				continue
			}
			cb := an.collectionIn(spans, b)
			if cb < 0 {
				continue
			}
			ca := an.drawnIn(spans, a, spans[cb].Drawer) // an empty one has no elements
			if ca < 0 {
				continue
			}
			moved := an.elements(spans, cb)
			if !allFlagged(spans, moved) {
				continue
			}
			at := an.start[ca] // empty: before the flag that ends it
			if ea := an.elements(spans, ca); ea != nil {
				at = an.stop[ea[len(ea)-1]]
			}
			cand := Splice(s.Data, at, an.stop[b], s.Data[an.start[moved[0]]:an.stop[moved[len(moved)-1]]], s.Data[at:an.start[b]])
			if !yield(pos{node: gi, i: i}, cand) {
				return
			}
		}
	}
}

// flatten replaces each element of a collection by the elements of a
// collection of the same generator inside it. The cursor is (node, i) =
// (span, element).
func flatten(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for p := int32(from.node); int(p) < len(spans); p++ {
		elems := an.elements(spans, p)
		if elems == nil || an.frozenSpan[p] {
			continue
		}
		i := 0
		if int(p) == from.node {
			i = from.i
		}
		for ; i < len(elems); i++ {
			e := elems[i]
			if !spans[e].Flagged || !an.unfrozen(e) {
				continue
			}
			for d := e + 1; d < an.subtreeEnd[e]; d++ {
				inner := an.elements(spans, d)
				if spans[d].Drawer != spans[p].Drawer || len(inner) == 0 {
					continue
				}
				if !allFlagged(spans, inner) {
					continue
				}
				cand := Splice(s.Data, an.start[e], an.stop[e], s.Data[an.start[inner[0]]:an.stop[inner[len(inner)-1]]])
				if !yield(pos{node: int(p), i: i}, cand) {
					return
				}
				break
			}
		}
	}
}

// relabelElements reassigns the distinct values of each collection's
// elements: the first to appear takes the smallest, and so on. The
// cursor's node is the collection's span.
func relabelElements(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for p := int32(from.node); int(p) < len(spans); p++ {
		elems := an.elements(spans, p)
		if len(elems) < 2 || !an.unfrozen(p) || !an.unfrozen(elems...) {
			continue
		}
		vals := an.values(s, elems)
		var order [][]byte // the distinct values, by first appearance
		for _, v := range vals {
			if !slices.ContainsFunc(order, func(o []byte) bool { return string(o) == string(v) }) {
				order = append(order, v)
			}
		}
		sorted := slices.Clone(order)
		slices.SortFunc(sorted, compareTokens)
		if slices.EqualFunc(order, sorted, func(a, b []byte) bool { return string(a) == string(b) }) {
			continue
		}
		label := map[string][]byte{}
		for k, v := range order {
			label[string(v)] = sorted[k]
		}
		var parts [][]byte
		prev := an.start[elems[0]]
		for k, e := range elems {
			vstart := an.stop[e] - len(vals[k])
			parts = append(parts, s.Data[prev:vstart], label[string(vals[k])])
			prev = an.stop[e]
		}
		if !yield(pos{node: int(p) + 1}, Splice(s.Data, an.start[elems[0]], prev, parts...)) {
			return
		}
	}
}

// gatherElements replaces a run of consecutive elements of a collection,
// each one integer, by one element holding their sum, for runs of up to
// pairWindow elements. It is redistribute pairs for the one case that
// pass cannot reach: the order counts bytes, and a value crossing the
// largest one-byte token grows by two, so that [9 223] → [0 232] is
// larger, and [9 223 223 223 223] → [901] is reached only in one move. So
// it tries only runs of one-byte tokens whose sum takes more. The cursor
// is (node, i) = (collection's span, first element).
func gatherElements(s *ChoiceSeq, from pos, yield func(pos, []byte) bool) {
	an, spans := s.Analysis(), s.Rec.Spans
	for p := int32(from.node); int(p) < len(spans); p++ {
		elems := an.elements(spans, p)
		if len(elems) < 2 || an.frozenSpan[p] {
			continue
		}
		i := 0
		if int(p) == from.node {
			i = from.i
		}
		for ; i+1 < len(elems); i++ {
			c := an.soleInt(s, elems[i])
			if c == nil || c.Val >= SmallTokens {
				continue
			}
			r := c.Interval()
			sum := r.Value(c.Val)
			for k := i + 1; k < len(elems) && k-i <= pairWindow; k++ {
				e := elems[k]
				d := an.soleInt(s, e)
				if d == nil || d.Val >= SmallTokens || d.Interval() != r || !spans[e].Flagged || an.stop[elems[k-1]] != an.start[e] {
					break
				}
				var ok bool
				if sum, ok = add(r, sum, r.Value(d.Val)); !ok {
					break
				}
				if r.Rank(sum) < SmallTokens {
					continue
				}
				cand := Splice(s.Data, int(c.Start), an.stop[e], AppendIntToken(nil, r.Rank(sum)), s.Data[c.End:an.stop[elems[i]]])
				if !yield(pos{node: int(p), i: i}, cand) {
					return
				}
			}
		}
	}
}

// soleInt returns the one choice of element span e besides its flag if it
// is an integer of three values or more, not frozen; or nil.
func (an *Analysis) soleInt(s *ChoiceSeq, e int32) *Choice {
	sp := s.Rec.Spans[e]
	first := sp.First
	if sp.Flagged {
		first++
	}
	if sp.Last-first != 1 || an.frozenSpan[e] {
		return nil
	}
	if c := &s.Rec.Choices[first]; c.Kind == KindInt && c.Hi-c.Lo >= 2 {
		return c
	}
	return nil
}

// add returns a+b, values of range r, and whether the sum lies in it.
func add(r Interval, a, b uint64) (uint64, bool) {
	sum := a + b
	if r.Signed {
		x, y := int64(a), int64(b)
		if y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y {
			return 0, false
		}
	} else if sum < a {
		return 0, false
	}
	return sum, r.contains(sum)
}
