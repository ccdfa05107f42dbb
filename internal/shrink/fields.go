package shrink

import (
	"bytes"
	"math/bits"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// Binary formats size their parts with integer fields: a length before a
// string, a count before records, an offset to a table, the size of the
// file. Removing a part breaks every field that sizes it, and lowering a
// field alone breaks the part; the toolchain's minimizer, and byte-level
// removal in general, can do neither. The fields pass reads such fields
// off the input without knowing its format (fields.go: the model), and
// proposes moves that change a part and every field that sizes it in one
// candidate (fieldmoves.go).
//
// A field is an unsigned integer of 1, 2, 4 or 8 bytes, in either byte
// order, at any offset. What it may be:
//
//   - a frame: a length v right before v bytes (strings of SSH-like wire
//     formats, the data of DNS records), found where frames chain or nest,
//     and for 4-byte fields anywhere they fit;
//   - an offset: 4 or 8 bytes whose value points into the input past the
//     headers (a directory, the pixels);
//   - a total: 2 to 8 bytes whose value is the length of the input;
//   - a size: a field whose value is the distance between two offsets, or
//     from an offset to the end (a strip's byte count, an image's size);
//   - a count: a 1-, 2- or 4-byte value c before c blocks of one size
//     whose bytes line up in columns (directory entries, palette colours,
//     fixed records), or before c records that each start with a name
//     (DNS-like questions and records);
//   - dimensions: two fields whose product, times 1 to 4 bytes, is the
//     size of the region from an offset to the end (rows of pixels).
//
// Every move fixes up the model's fields when it deletes bytes [a, b):
// frames and sizes whose region holds them lose them, totals lose them,
// offsets past them move back. A move whose fixups do not fit (a value
// below 0, or too large for its field) is not proposed.

// A region is a field that gives the length of [start, end); tail bytes
// after it belong to it (the checksum of a chunk).
type region struct {
	formats.Field
	start, end int
	tail       int
}

// A counted field gives the number of blocks, or records, of a region.
type counted struct {
	formats.Field
	blocks []rng // the blocks or records, in order
}

// A dims pair is two fields whose product, times bytes per element, is
// the size of the region from start to the end of the input.
type dims struct {
	rows, cols formats.Field
	per        int // bytes per element
	start      int
	pad        bool // rows are padded to 4 bytes
}

// A model is the fields of one input.
type model struct {
	s       []byte
	widths  []width
	frames  []region // frames first among the sizes, then the others
	sizes   []region
	offsets []formats.Field
	totals  []formats.Field
	counts  []counted
	dims    []dims
	sums    []formats.Sum // sealed in every move (formats.Seal)
}

// A width is a width and byte order fields are read in.
type width struct {
	width  int
	little bool
}

// littleFirst reports whether more 2- and 4-byte values of s are small
// enough to be lengths, counts or offsets read little endian than big
// endian: the byte order whose model the fields pass tries first. (In a
// little-endian file the zeros after a small value also read as small
// big-endian values, one byte on: each order has a model of its own.)
func littleFirst(s []byte) bool {
	score := [2]int{}
	for k, little := range []bool{false, true} {
		for _, w := range []int{2, 4} {
			for at := 0; at+w <= len(s); at++ {
				if v := (formats.Field{At: at, Width: w, Little: little}).Get(s); v >= 1 && v <= uint64(len(s)) {
					score[k]++
				}
			}
		}
	}
	return score[1] > score[0]
}

// widthsIn returns the widths fields are read in, in one byte order.
func widthsIn(little bool) []width {
	return []width{{4, little}, {2, little}, {1, false}, {8, little}}
}

// minOffset is the smallest value taken for an offset: headers come first.
const minOffset = 8

// newModel reads the fields of s, in one byte order; sums are those of s.
func newModel(s []byte, little bool, sums []formats.Sum) *model {
	m := &model{s: s, widths: widthsIn(little), sums: sums}
	n := len(s)
	var cands []region
	starts := map[int]bool{} // where candidate frames start
	for _, o := range m.widths {
		if o.width == 1 || o.width == 8 {
			continue
		}
		for at := 0; at+o.width <= n; at++ {
			l := formats.Field{At: at, Width: o.width, Little: o.little}
			v := l.Get(s)
			if v == 0 || v > uint64(n-l.End()) {
				continue
			}
			cands = append(cands, region{Field: l, start: l.End(), end: l.End() + int(v)})
			starts[at] = true
		}
	}
	for _, o := range m.widths {
		if o.width < 2 {
			continue
		}
		for at := 0; at+o.width <= n; at++ {
			l := formats.Field{At: at, Width: o.width, Little: o.little}
			v := l.Get(s)
			switch {
			case v == uint64(n):
				m.totals = append(m.totals, l)
			case o.width >= 4 && v >= minOffset && v < uint64(n) && (v < uint64(at) || v >= uint64(l.End())):
				m.offsets = append(m.offsets, l)
			}
		}
	}
	// An offset read one byte off is another's value times 256, plus a
	// byte: of two that overlap, the smaller is the offset.
	m.offsets = slices.DeleteFunc(slices.Clone(m.offsets), func(l formats.Field) bool {
		return slices.ContainsFunc(m.offsets, func(k formats.Field) bool {
			return k.At != l.At && k.At < l.End() && l.At < k.End() && k.Get(s) < l.Get(s)
		})
	})
	// A frame chains: it ends where another starts, or where one that
	// holds it ends, or at the end of the input. A frame that only ends
	// at the end is weak evidence: if its bytes are part of a wider
	// offset (the low half of a pixels' offset), the offset is what they
	// are.
	first := map[int]int{} // the first start of a candidate that ends at each offset
	for _, c := range cands {
		if f, ok := first[c.end]; !ok || c.start < f {
			first[c.end] = c.start
		}
	}
	for _, c := range cands {
		held := first[c.end] < c.At // another ends where c ends, and holds it
		if starts[c.end] || held || c.end == n && !insideWider(c.Field, m.offsets) {
			m.frames = append(m.frames, c)
		}
	}
	m.findChunks()
	// A total that straddles the length of a chunk, whose checksum proves
	// it, is bytes of the chunk read one off (in a PNG of 73 bytes, 00 49:
	// the end of the length of IEND, and its I).
	var chunks []formats.Field
	for _, f := range m.frames {
		if f.tail > 0 {
			chunks = append(chunks, f.Field)
		}
	}
	m.totals = slices.DeleteFunc(m.totals, func(l formats.Field) bool { return straddles(l, chunks) })
	m.findSizes()
	m.findCounts()
	m.findDims()
	return m
}

// findChunks finds the frames of chunks: a 4-byte length (or a 2-byte one
// in the checksum's byte order), maybe a 4-byte tag, then what the length
// counts, then a checksum of the tag and what it
// counts (PNG's chunks), or of what it counts alone. The checksum is the
// frame's tail: it goes with the frame.
func (m *model) findChunks() {
	for _, z := range m.sums {
		if z.Width != 4 || z.End != z.At {
			continue
		}
	chunk:
		for _, w := range []int{4, 2} {
			for _, tag := range []int{4, 0} {
				at := z.Start - w
				if at < 0 || z.At-z.Start < tag {
					continue
				}
				l := formats.Field{At: at, Width: w, Little: z.Little}
				if l.Get(m.s) == uint64(z.At-z.Start-tag) {
					m.frames = append(m.frames, region{Field: l, start: z.Start + tag, end: z.At, tail: 4})
					break chunk
				}
			}
		}
	}
}

// insideWider reports whether l is inside a wider field of ls.
func insideWider(l formats.Field, ls []formats.Field) bool {
	return slices.ContainsFunc(ls, func(k formats.Field) bool {
		return k.Width > l.Width && k.At <= l.At && l.End() <= k.End()
	})
}

// findSizes finds the fields whose value is the size of the region from
// an offset to another offset, or to the end: a strip's byte count, an
// image's size; or from the end of an IPv4 header to the end, counted by
// a field in the first 8 bytes after it (a UDP datagram's length). Of an offset and a size that add up to the same point
// (the pixels' offset, and their size, to the end of the file) either
// could be read as the other: the one that comes first is the offset.
func (m *model) findSizes() {
	type point struct {
		at     int // where the offset is; len(s) for the end of the input
		val    int
		header bool // the end of a header its checksum proves
	}
	ps := []point{{len(m.s), len(m.s), false}}
	for _, o := range m.offsets {
		ps = append(ps, point{o.At, int(o.Get(m.s)), false})
	}
	// The end of an IPv4 header is where the next part starts: its length
	// (UDP's) may count its own header, the field with it.
	for _, z := range m.sums {
		if z.Kind == formats.Internet {
			ps = append(ps, point{z.At, z.End, true})
		}
	}
	ends := m.targets()
	for _, o := range m.widths {
		if o.width < 2 {
			continue
		}
		for at := 0; at+o.width <= len(m.s); at++ {
			l := formats.Field{At: at, Width: o.width, Little: o.little}
			v := int(l.Get(m.s))
			if v < 2 {
				continue
			}
			for _, p := range ps {
				if p.at >= at || p.val+v > len(m.s) {
					continue
				}
				end := p.val + v
				if !ends[end] {
					continue
				}
				if l.End() <= p.val || l.At >= end || p.header && l.At >= p.val && l.At-p.val <= 8 {
					m.sizes = append(m.sizes, region{Field: l, start: p.val, end: end})
					break
				}
			}
		}
	}
}

// targets returns the offsets' values and the end of the input.
func (m *model) targets() map[int]bool {
	t := map[int]bool{len(m.s): true}
	for _, o := range m.offsets {
		t[int(o.Get(m.s))] = true
	}
	return t
}

// maxCount bounds the counts looked for.
const maxCount = 1024

// findCounts finds fields that count blocks or records after them.
func (m *model) findCounts() {
	s := m.s
	names := nameStarts(s)
	targets, sums := m.targets(), newAgreements(s)
	for _, o := range m.widths {
		if o.width > 4 {
			continue
		}
		for at := 0; at+o.width <= len(s); at++ {
			l := formats.Field{At: at, Width: o.width, Little: o.little}
			c := l.Get(s)
			if c == 0 || c > maxCount {
				continue
			}
			if bs := periodic(s, l.End(), int(c), targets, sums); bs != nil {
				m.counts = append(m.counts, counted{l, bs})
			}
			if o.width >= 2 && c <= 64 {
				if rs := records(names, l.End(), int(c), len(s)); rs != nil {
					m.counts = append(m.counts, counted{l, rs})
				}
			}
		}
	}
}

// periodic returns the c blocks of one size that start within a few bytes
// after from and line up: most of their columns hold one byte in every
// block, more than in blocks of any other size, but not all of them, and
// the block after them does not, unless an offset points where they end (a
// palette before the pixels); or nil.
func periodic(s []byte, from, c int, targets map[int]bool, sums agreements) []rng {
	if c < 2 {
		return nil
	}
	best, bestScore := []rng(nil), 0.0
	for gap := 0; gap <= 8; gap++ {
		start := from + gap
		for k := 2; k <= maxBlockSize; k++ {
			if start+c*k > len(s) {
				break
			}
			// The columns that agree in every block agree in the first
			// two: too few there, and the blocks do not line up.
			if agree := sums.agree(k, start); agree < 1 || 5*agree < k {
				continue
			}
			cols := agreeing(s, start, c, k)
			same := bits.OnesCount32(cols)
			// Columns that agree, for their share of the block; a gap or
			// a long block needs more.
			score := float64(same) / float64(k)
			end := start + c*k
			// Identical blocks (a run of zeros) line up at every size:
			// they are blocks only where an offset points after them.
			if same < 1 || score < 0.2 || (same == k || continues(s, start, c, k, cols)) && !targets[end] {
				continue
			}
			score -= 0.01 * float64(gap)
			if score > bestScore {
				best, bestScore = make([]rng, c), score
				for i := range best {
					best[i] = rng{start + i*k, start + (i+1)*k}
				}
			}
		}
	}
	return best
}

// agreements counts, for each block size k up to maxBlockSize, the bytes
// equal to the byte k after them: sums[k][i] is how many of s[:i] are.
type agreements [][]int32

// maxBlockSize is the largest block counted blocks are looked for in.
const maxBlockSize = 32

var _ [32 - maxBlockSize]struct{} // agreeing's columns are bits of a uint32

func newAgreements(s []byte) agreements {
	sums := make(agreements, maxBlockSize+1)
	for k := 2; k <= maxBlockSize; k++ {
		sums[k] = make([]int32, len(s)+1)
		for i := range s {
			sums[k][i+1] = sums[k][i]
			if i+k < len(s) && s[i] == s[i+k] {
				sums[k][i+1]++
			}
		}
	}
	return sums
}

// agree returns how many bytes of the block of k bytes at start equal
// those of the block after it.
func (sums agreements) agree(k, start int) int {
	return int(sums[k][start+k] - sums[k][start])
}

// agreeing returns the columns (bit col) of the c blocks of k ≤ 32 bytes at
// start whose byte is the same in every block.
func agreeing(s []byte, start, c, k int) uint32 {
	var cols uint32
	for col := range k {
		b := s[start+col]
		ok := true
		for i := 1; i < c && ok; i++ {
			ok = s[start+i*k+col] == b
		}
		if ok {
			cols |= 1 << col
		}
	}
	return cols
}

// continues reports whether the block after the c blocks of k bytes at
// start lines up with them as they line up with one another, in the
// columns cols where they agree: then the count does not end them.
func continues(s []byte, start, c, k int, cols uint32) bool {
	next := start + c*k
	if next+k > len(s) {
		return false
	}
	for col := range k {
		if cols&(1<<col) != 0 && s[next+col] != s[start+col] {
			return false
		}
	}
	return true
}

// nameStarts returns the offsets where names of length-prefixed labels
// start (labels of 1 to 63 bytes, ended by a zero byte), in order: a name
// starts where the name before it and what follows it ended, so a name
// that is the end of another (example.com of www.example.com) is not one.
func nameStarts(s []byte) []int {
	var starts []int
	for i := 0; i < len(s); i++ {
		end, ok := nameEnd(s, i)
		if !ok {
			continue
		}
		starts = append(starts, i)
		i = end - 1
	}
	return starts
}

// nameEnd returns where the name at i ends, if one starts there: labels,
// then a zero byte; a name of no labels is the zero byte alone.
func nameEnd(s []byte, i int) (int, bool) {
	labels := 0
	for i < len(s) {
		n := int(s[i])
		switch {
		case n == 0:
			return i + 1, labels > 0
		case n > 63 || i+1+n > len(s):
			return 0, false
		}
		for _, c := range s[i+1 : i+1+n] {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return 0, false
			}
		}
		i += 1 + n
		labels++
	}
	return 0, false
}

// records returns the c records after from that start at names (the first
// among the first names after from), each up to the next name or the end;
// or nil.
func records(names []int, from, c, n int) []rng {
	k, _ := slices.BinarySearch(names, from)
	if k+c > len(names) || names[k]-from > 16 {
		return nil
	}
	rs := make([]rng, c)
	for i := range rs {
		end := n
		if k+i+1 < len(names) {
			end = names[k+i+1]
		}
		rs[i] = rng{names[k+i], end}
	}
	return rs
}

// findDims finds pairs of fields before an offset whose product, times 1
// to 4 bytes per element (rows padded to 4 bytes or not), is the size of
// the region from the offset to the end.
func (m *model) findDims() {
	var small []formats.Field
	for _, o := range m.widths {
		if o.width < 2 || o.width > 4 {
			continue
		}
		for at := 0; at+o.width <= len(m.s); at++ {
			l := formats.Field{At: at, Width: o.width, Little: o.little}
			if v := l.Get(m.s); v >= 1 && v <= 1<<14 {
				small = append(small, l)
			}
		}
	}
	known := append(append(slices.Clone(m.offsets), m.totals...), sizeLayouts(m.sizes)...)
	small = slices.DeleteFunc(small, func(l formats.Field) bool { return straddles(l, known) })
	for _, o := range m.offsets {
		start := int(o.Get(m.s))
		size := len(m.s) - start
		for _, r := range small {
			rows := int(r.Get(m.s))
			if rows < 1 || size%rows != 0 || r.End() > start {
				continue // dimensions are in a header, before what they size
			}
			row := size / rows
			for _, c := range small {
				if c.At == r.At || c.Width != r.Width || c.Little != r.Little || c.At-r.At > 8 || r.At-c.At > 8 || c.End() > start {
					continue
				}
				cols := int(c.Get(m.s))
				for per := 1; per <= 4; per++ {
					// Rows of a multiple of 4 bytes may be padded or not.
					if cols*per == row {
						m.dims = append(m.dims, dims{rows: r, cols: c, per: per, start: start})
					}
					if (cols*per+3)&^3 == row {
						m.dims = append(m.dims, dims{rows: r, cols: c, per: per, start: start, pad: true})
					}
				}
			}
		}
	}
}

// variants returns s without the regions rs (sorted, disjoint), the
// fields of the model fixed up, with count lowered by lower if it is set:
// first with every fixup, then without those of sizes, then without those
// of offsets, then without either (a field read as an offset or a size may
// be something else that happens to have the value), each only if it
// differs from those before. A candidate whose fixups do not fit is left
// out. fill, if set, then writes what a move puts in place of what it
// removed; the sums are sealed last.
func (m *model) variants(rs []rng, count *formats.Field, lower uint64, fill func(c []byte)) [][]byte {
	var cs [][]byte
	for _, level := range [...]struct{ offsets, sizes bool }{{true, true}, {true, false}, {false, true}, {false, false}} {
		c := m.remove(rs, count, lower, level.offsets, level.sizes)
		if c != nil && !slices.ContainsFunc(cs, func(d []byte) bool { return bytes.Equal(c, d) }) {
			cs = append(cs, c)
		}
	}
	for _, c := range cs {
		if fill != nil {
			fill(c)
		}
		m.seal(c, rs)
	}
	return cs
}

// remove returns s without rs, count lowered by lower and the frames and
// totals fixed up, and the offsets and the sizes if asked; or nil if a
// fixup does not fit. Its sums are left to seal, once what takes the
// place of rs is written.
func (m *model) remove(rs []rng, count *formats.Field, lower uint64, offsets, sizes bool) []byte {
	s := m.s
	removed := func(a, b int) int { // bytes removed from [a, b)
		d := 0
		for _, r := range rs {
			d += max(0, min(b, r.end)-max(a, r.start))
		}
		return d
	}
	inside := func(l formats.Field) bool { return removed(l.At, l.End()) > 0 }
	c := cut(s, rs...)
	shift := func(at int) int { return -removed(0, at) }
	done := map[formats.Field]bool{}
	set := func(l formats.Field, v uint64) bool {
		if done[l] || inside(l) {
			return true // set already, or gone with what it was in
		}
		done[l] = true
		return l.Put(c, shift(l.At), v)
	}
	if count != nil {
		v := count.Get(s)
		if v < lower || !set(*count, v-lower) {
			return nil
		}
	}
	for _, f := range m.frames {
		if d := removed(f.start, f.end); d > 0 && !set(f.Field, f.Get(s)-uint64(d)) {
			return nil
		}
	}
	total := uint64(removed(0, len(s)))
	for _, t := range m.totals {
		if !set(t, t.Get(s)-total) {
			return nil
		}
	}
	if offsets {
		for _, o := range m.offsets {
			// An offset into what is removed is left as it is: if it is
			// one, what it points to is gone with no fixup to make; most
			// often it is not one (a count and a tag read together).
			v := int(o.Get(s))
			into := slices.ContainsFunc(rs, func(r rng) bool { return r.start < v && v < r.end })
			if d := removed(0, v); d > 0 && !into && !set(o, uint64(v-d)) {
				return nil
			}
		}
	}
	if sizes {
		for _, z := range m.sizes {
			if d := removed(z.start, z.end); d > 0 && !set(z.Field, z.Get(s)-uint64(d)) {
				return nil
			}
		}
	}
	return c
}

// seal writes the sums of the model into c, s without rs and its fields
// fixed up.
func (m *model) seal(c []byte, rs []rng) {
	if len(m.sums) == 0 {
		return
	}
	move := func(b int) (int, bool) {
		d := 0
		for _, r := range rs {
			if r.start < b && b < r.end {
				return 0, false
			}
			d += max(0, min(b, r.end)-r.start)
		}
		return b - d, true
	}
	kept := func(l formats.Field) bool {
		return !slices.ContainsFunc(rs, func(r rng) bool { return r.start < l.End() && l.At < r.end })
	}
	formats.Seal(c, m.sums, move, kept)
}

// replacements returns s with [a, b) replaced by a shorter repl, the
// fields fixed up as if the last b-a-len(repl) bytes of [a, b) were
// removed (see variants).
func (m *model) replacements(a, b int, repl []byte) [][]byte {
	if len(repl) >= b-a {
		return nil
	}
	return m.variants([]rng{{a + len(repl), b}}, nil, 0, func(c []byte) { copy(c[a:], repl) })
}

// textual reports whether b is short printable text: a name or a tag.
func textual(b []byte) bool {
	return len(b) > 0 && len(b) <= 64 && !isBinary(b) && !bytes.ContainsAny(b, "\n\t")
}

func sizeLayouts(rs []region) []formats.Field {
	ls := make([]formats.Field, len(rs))
	for i, r := range rs {
		ls[i] = r.Field
	}
	return ls
}

// straddles reports whether l overlaps one of ls that starts elsewhere.
func straddles(l formats.Field, ls []formats.Field) bool {
	return slices.ContainsFunc(ls, func(k formats.Field) bool {
		return k.At != l.At && k.At < l.End() && l.At < k.End()
	})
}
