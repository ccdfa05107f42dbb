package shrink

import (
	"iter"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// The moves of the fields pass (see fields.go), in the order it runs them.
// The cursor is (pos.k, pos.i, pos.j, pos.s) = (move, item, step, search
// state), each on the model of the best input.
//
//   - hoist: the input replaced by the content of one of its frames (a
//     certificate by the key inside it);
//   - counts: blocks or records removed with their count: all but the
//     first, all but the last, then each from the last;
//   - frames: a frame removed whole, its length field with it;
//   - trim: the end of a frame's or a size's region cut, or the bytes
//     before where an offset points, by a binary search on what remains;
//   - tags: a frame's text (a type name) replaced by shorter text that
//     another frame holds;
//   - dims: rows, then columns, of a two-dimensional region removed from
//     its end or its start, with the fields that count them;
//   - heads: the zeros a region that trim cuts starts with, before text:
//     what the bytes pass left of the head of a name whose end the code
//     under test reads (see [zeroHead]).
const (
	moveHoist = iota
	moveCounts
	moveFrames
	moveTrim
	moveTags
	moveDims
	moveHeads
	numMoves
)

// fieldsArg applies the fields pass to binary []byte and string
// arguments of up to maxFieldsInput bytes.
func fieldsArg(v any, from pos) iter.Seq2[pos, any] { return fieldsSealed(v, from, nil) }

// fieldsSealed is fieldsArg for an argument with sums, which every move
// seals.
func fieldsSealed(v any, from pos, sums []formats.Sum) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		if len(x) <= maxFieldsInput && isBinary(x) {
			return boxed(shrinkFields(x, from, sums))
		}
	case string:
		if len(x) <= maxFieldsInput && isBinary(x) {
			return boxed(shrinkFields(x, from, sums))
		}
	}
	return nil
}

// maxFieldsInput bounds the inputs the fields pass reads a model of: the
// model costs O(n) per field width and more where values are small, and
// on a larger input the byte-level passes first cut it down to where
// each of its moves is cheap to find.
const maxFieldsInput = 16 << 10

// shrinkFields yields the moves of the model of s in the byte order that
// fits it best, then in the other. The cursor's k is order·numMoves +
// move.
func shrinkFields[S byteString](s0 S, from pos, sums []formats.Sum) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		s := []byte(s0)
		first := littleFirst(s)
		var m *model
		for k := from.k; k < 2*numMoves; k++ {
			if m == nil || k == numMoves {
				m = newModel(s, first != (k >= numMoves), sums)
			}
			start := pos{}
			if k == from.k {
				start = from
			}
			for p, c := range m.moves(k%numMoves, start) {
				if c == nil || len(c) > len(m.s) || len(c) == len(m.s) && string(c) == string(m.s) {
					continue
				}
				p.k = k
				if !yield(p, S(c)) {
					return
				}
			}
		}
	}
}

// moves yields the candidates of move k from cursor from (its k unset).
func (m *model) moves(k int, from pos) iter.Seq2[pos, []byte] {
	switch k {
	case moveHoist:
		return m.hoists(from)
	case moveCounts:
		return m.countMoves(from)
	case moveFrames:
		return m.frameMoves(from)
	case moveTrim:
		return m.trims(from, false)
	case moveTags:
		return m.tags(from)
	case moveDims:
		return m.dimMoves(from)
	}
	return m.trims(from, true)
}

// hoists yields the contents of the frames, largest first.
func (m *model) hoists(from pos) iter.Seq2[pos, []byte] {
	fs := slices.Clone(m.frames)
	slices.SortStableFunc(fs, func(a, b region) int { return (b.end - b.start) - (a.end - a.start) })
	return func(yield func(pos, []byte) bool) {
		seen := map[rng]bool{}
		for i := from.i; i < len(fs); i++ {
			r := rng{fs[i].start, fs[i].end}
			if seen[r] || r.end-r.start >= len(m.s)-1 {
				continue
			}
			seen[r] = true
			if !yield(pos{i: i + 1}, slices.Clone(m.s[r.start:r.end])) {
				return
			}
		}
	}
}

// countMoves removes the blocks of each count: all but the first, all but
// the last, then each from the last. The cursor is (i, j) = (count, step).
func (m *model) countMoves(from pos) iter.Seq2[pos, []byte] {
	return func(yield func(pos, []byte) bool) {
		for i := from.i; i < len(m.counts); i++ {
			c := m.counts[i]
			bs := c.blocks
			n := len(bs)
			j := 0
			if i == from.i {
				j = from.j
			}
			// Step 0: all but the first; 1: all but the last; 2+t: the
			// block n-1-t.
			for ; j < 2+n; j++ {
				var rs []rng
				var lower uint64
				switch {
				case j == 0 && n > 1:
					rs, lower = []rng{{bs[1].start, bs[n-1].end}}, uint64(n-1)
				case j == 1 && n > 1:
					rs, lower = []rng{{bs[0].start, bs[n-2].end}}, uint64(n-1)
				case j >= 2:
					b := bs[n-1-(j-2)]
					rs, lower = []rng{b}, 1
				default:
					continue
				}
				l := c.Field
				for _, c := range m.variants(rs, &l, lower, nil) {
					if !yield(pos{i: i, j: j}, c) {
						return
					}
				}
			}
		}
	}
}

// frameMoves removes each frame with its length field and its tail.
func (m *model) frameMoves(from pos) iter.Seq2[pos, []byte] {
	return func(yield func(pos, []byte) bool) {
		for i := from.i; i < len(m.frames); i++ {
			f := m.frames[i]
			for _, c := range m.variants([]rng{{f.At, f.end + f.tail}}, nil, 0, nil) {
				if !yield(pos{i: i}, c) {
					return
				}
			}
		}
	}
}

// trims cuts the end of each frame's or size's region, and of what lies
// between an offset and where it points (the pixels before a directory),
// or with heads the zeros it starts with: a binary search on what remains,
// which is first nothing.
func (m *model) trims(from pos, heads bool) iter.Seq2[pos, []byte] {
	regions := append(slices.Clone(m.frames), m.sizes...)
	for _, o := range m.offsets {
		if v := int(o.Get(m.s)); v > o.End() {
			regions = append(regions, region{Field: o, start: o.End(), end: v})
		}
	}
	return func(yield func(pos, []byte) bool) {
		seen := map[rng]bool{}
		for i := from.i; i < len(regions); i++ {
			r := regions[i]
			if seen[rng{r.start, r.end}] {
				continue
			}
			seen[rng{r.start, r.end}] = true
			st := magSearch{}
			if i == from.i {
				st = from.s
			}
			size := r.end - r.start
			if heads {
				size = zeroHead(m.s[r.start:r.end])
			}
			for st, keep := range magnitudes(false, uint64(size), uint64(size), st) {
				gone := rng{r.start + int(keep.mag), r.end}
				if heads {
					gone = rng{r.start, r.start + size - int(keep.mag)}
				}
				for _, c := range m.variants([]rng{gone}, nil, 0, nil) {
					if !yield(pos{i: i, s: st}, c) {
						return
					}
				}
			}
		}
	}
}

// tags replaces the text of each frame by the shorter texts that other
// frames hold, shortest first.
func (m *model) tags(from pos) iter.Seq2[pos, []byte] {
	var texts [][]byte
	for _, f := range m.frames {
		if t := m.s[f.start:f.end]; textual(t) && !slices.ContainsFunc(texts, func(u []byte) bool { return string(u) == string(t) }) {
			texts = append(texts, t)
		}
	}
	slices.SortStableFunc(texts, func(a, b []byte) int { return len(a) - len(b) })
	return func(yield func(pos, []byte) bool) {
		for i := from.i; i < len(m.frames); i++ {
			f := m.frames[i]
			t := m.s[f.start:f.end]
			if !textual(t) {
				continue
			}
			j := 0
			if i == from.i {
				j = from.j
			}
			for ; j < len(texts) && len(texts[j]) < len(t); j++ {
				for _, c := range m.replacements(f.start, f.end, texts[j]) {
					if !yield(pos{i: i, j: j + 1}, c) {
						return
					}
				}
			}
		}
	}
}

// dimMoves removes rows of each two-dimensional region from its end, then
// from its start, then columns from the end of every row, then from its
// start, each by a binary search on what remains.
func (m *model) dimMoves(from pos) iter.Seq2[pos, []byte] {
	return func(yield func(pos, []byte) bool) {
		for i := from.i; i < len(m.dims); i++ {
			d := m.dims[i]
			j := 0
			if i == from.i {
				j = from.j
			}
			for ; j < 4; j++ {
				st := magSearch{}
				if i == from.i && j == from.j {
					st = from.s
				}
				field := d.rows
				if j >= 2 {
					field = d.cols
				}
				n := field.Get(m.s)
				for st, keep := range magnitudes(false, n, n, st) {
					if keep.mag == 0 {
						continue
					}
					for _, c := range m.lowerDim(d, j, int(keep.mag)) {
						if !yield(pos{i: i, j: j, s: st}, c) {
							return
						}
					}
				}
			}
		}
	}
}

// lowerDim lowers the rows (step 0: keeping the first; 1: the last) or the
// columns (2: keeping the first of each row; 3: the last, moved to its
// start) of the region of d to keep, removing what they no longer count.
func (m *model) lowerDim(d dims, step, keep int) [][]byte {
	rows, cols := int(d.rows.Get(m.s)), int(d.cols.Get(m.s))
	n := rows // what is lowered
	if step >= 2 {
		n = cols
	}
	stride := func(c int) int {
		if d.pad {
			return (c*d.per + 3) &^ 3
		}
		return c * d.per
	}
	row := stride(cols)
	var rs []rng
	field := d.rows
	switch step {
	case 0:
		rs = []rng{{d.start + keep*row, len(m.s)}}
	case 1:
		rs = []rng{{d.start, d.start + (n-keep)*row}}
	case 2:
		field = d.cols
		cut := row - stride(keep)
		if cut <= 0 {
			return nil
		}
		for r := range rows {
			at := d.start + r*row
			rs = append(rs, rng{at + row - cut, at + row})
		}
	default:
		// The last columns of each row move to its start, padded with
		// zeros: the region is rewritten, as if its end were removed.
		var region []byte
		for r := range rows {
			at := d.start + r*row
			region = append(region, m.s[at+(cols-keep)*d.per:at+cols*d.per]...)
			region = append(region, make([]byte, stride(keep)-keep*d.per)...)
		}
		field = d.cols
		return m.variants([]rng{{d.start + len(region), len(m.s)}}, &field, uint64(n-keep), func(c []byte) { copy(c[d.start:], region) })
	}
	return m.variants(rs, &field, uint64(n-keep), nil)
}

// zeroHead returns the number of zeros b starts with if text follows them
// (see [textual]): the head of a name that the bytes pass lowered to zeros,
// as it does with what the code under test does not read; or 0.
func zeroHead(b []byte) int {
	z := 0
	for z < len(b) && b[z] == 0 {
		z++
	}
	if z == 0 || !textual(b[z:]) {
		return 0
	}
	return z
}
