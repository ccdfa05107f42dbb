package shrink

import (
	"iter"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// Binary formats frame their records with length fields: a packet's header
// says how many bytes or words follow. Removing part of a record breaks the
// framing, and so does lowering the field alone; the toolchain's minimizer,
// and byte-level removal in general, can do neither. The lengths pass finds
// the framing without knowing the format: for each way a length field may be
// laid out (its offset in the record, 1, 2 or 4 bytes in either byte order,
// counting bytes or 32-bit words, after itself or in all, with a type
// between it and what it counts and a checksum after that or not), it
// follows the chain of records from the start of the input, or from the
// end of a file header of up to maxFileHeader bytes, and keeps the layouts
// whose records tile the rest of the input exactly (where the header holds
// the length of what follows it, some records may be empty). On those it
// removes whole records (blocks of them, as [blocks] has them), and lowers
// a record's length field together with removing what it no longer counts
// from the end of the record, or the zeros before text at the start of
// what it counts, in the same candidate; a field of the header that holds
// the length of the input or of what follows goes down with them.

// A lengthField is one layout of a length field.
type lengthField struct {
	off, width int  // offset in the record, 1, 2 or 4 bytes
	little     bool // byte order of 2- and 4-byte fields
	unit       int  // 1 (bytes) or 4 (32-bit words)
	inclusive  bool // the length counts the whole record, not what follows the field
	// Of a length that counts what follows it: the bytes between the
	// field and what it counts (a chunk's type, a capture's second
	// length), and after it (a checksum).
	gap, trailer int
}

// maxFileHeader is the longest file header records are looked for after.
const maxFileHeader = 64

// lengthFields are the layouts tried, in order: at the start of a record
// first, then further in, with a gap and a trailer.
var lengthFields = func() []lengthField {
	widths := []width{{2, false}, {1, false}, {4, false}, {2, true}, {4, true}}
	var fs []lengthField
	for _, inclusive := range []bool{false, true} {
		for _, unit := range []int{4, 1} {
			for _, w := range widths {
				for off := range 4 {
					fs = append(fs, lengthField{off: off, width: w.width, little: w.little, unit: unit, inclusive: inclusive})
				}
			}
		}
	}
	for _, unit := range []int{1, 4} {
		for _, w := range widths {
			for off := range 12 {
				for _, gap := range []int{0, 4} {
					for _, trailer := range []int{0, 4} {
						if off < 4 && gap == 0 && trailer == 0 {
							continue // above
						}
						fs = append(fs, lengthField{off: off, width: w.width, little: w.little, unit: unit, gap: gap, trailer: trailer})
					}
				}
			}
		}
	}
	return fs
}()

// value reads the field of the record at r.
func (f lengthField) value(s []byte, r int) uint64 { return f.at(r).Get(s) }

// put writes v into the field of the record at r of c, if it fits.
func (f lengthField) put(c []byte, r int, v uint64) { f.at(r).Put(c, 0, v) }

// at is where the field of the record at r is.
func (f lengthField) at(r int) formats.Field {
	return formats.Field{At: r + f.off, Width: f.width, Little: f.little}
}

// header is the number of bytes before what the field counts.
func (f lengthField) header() int {
	if f.inclusive {
		return 0
	}
	return f.off + f.width + f.gap
}

// recordLen is the length of a record whose field holds v, or -1 if that is
// too short to hold the field or absurdly long.
func (f lengthField) recordLen(v uint64) int {
	if v > 1<<31/uint64(f.unit) {
		return -1
	}
	n := f.header() + int(v)*f.unit + f.trailer
	if n < f.off+f.width {
		return -1
	}
	return n
}

// tiling returns the offsets of the records of s in layout f, and len(s),
// if they tile s exactly, from its start or from the end of a file header:
// the shortest header after which two records or more, none empty, do, or
// some empty where the header holds the length of what follows it (counted,
// see [countedHeaders]); nil otherwise.
func (f lengthField) tiling(s []byte, counted *[maxFileHeader + 1]bool) []int {
	for at := 0; at <= maxFileHeader && at < len(s); at++ {
		if starts := f.tilingFrom(s, at, false); starts != nil {
			return starts
		}
		if counted[at] {
			if starts := f.tilingFrom(s, at, true); starts != nil {
				return starts
			}
		}
	}
	return nil
}

// countedHeaders reports, for each length of a file header, whether a
// field in it (2 or 4 bytes, in either byte order) holds the length of
// what follows the header.
func countedHeaders(s []byte) (counted [maxFileHeader + 1]bool) {
	for _, w := range headerWidths {
		for i := 0; i+w.width <= min(len(s), maxFileHeader); i++ {
			l := formats.Field{At: i, Width: w.width, Little: w.little}
			if at := len(s) - int(l.Get(s)); at >= l.End() && at <= maxFileHeader {
				counted[at] = true
			}
		}
	}
	return counted
}

// tilingFrom is tiling with a file header of at bytes, with empty records
// if empty.
func (f lengthField) tilingFrom(s []byte, at int, empty bool) []int {
	count := 0
	for r := at; r < len(s); count++ {
		if r+f.off+f.width > len(s) {
			return nil
		}
		v := f.value(s, r)
		n := f.recordLen(v)
		if n <= 0 || r+n > len(s) || at > 0 && v == 0 && !empty {
			return nil
		}
		r += n
	}
	if at > 0 && count < 2 {
		return nil
	}
	starts := make([]int, 0, count+1)
	for r := at; r < len(s); r += f.recordLen(f.value(s, r)) {
		starts = append(starts, r)
	}
	return append(starts, len(s))
}

// lengthsArg applies the lengths pass to binary data: []byte and string
// arguments that are not text (see [binary]). On text, layouts that happen
// to tile it would only waste runs.
func lengthsArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		if isBinary(x) {
			return boxed(shrinkRecords(x, from))
		}
	case string:
		if isBinary(x) {
			return boxed(shrinkRecords(x, from))
		}
	}
	return nil
}

// isBinary reports whether s is not text: not valid UTF-8, or with a
// control character other than tab, newline and carriage return.
func isBinary[S byteString](s S) bool {
	for i := range len(s) {
		if isControlByte(s[i]) {
			return true
		}
	}
	return !utf8.Valid([]byte(s))
}

// The stages of the lengths pass on each layout: whole records removed,
// then a record's length field lowered with what it no longer counts cut
// from the end of the record, then with the zeros before text that what
// it counts starts with (see [zeroHead]).
const (
	stageRecords = iota
	stageLowerEnd
	stageLowerStart
	recordStages
)

// shrinkRecords yields the candidates of the stages above for every layout
// that tiles s (see the top of this file). Lowering is a binary search (see
// [magnitudes]) on the field's value. The cursor is pos.k = recordStages·
// layout + stage, then (pos.i, pos.j) = (block size, offset) of records to
// remove, or (pos.i, pos.s) = (record, search state).
func shrinkRecords[S byteString](s0 S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		s := []byte(s0)
		counted := countedHeaders(s) // of every layout
		var starts []int
		for k := from.k; k < recordStages*len(lengthFields); k++ {
			f := lengthFields[k/recordStages]
			stage := k % recordStages
			if stage == stageRecords || k == from.k {
				starts = f.tiling(s, &counted) // the later stages' layout is the first's
			}
			if starts == nil {
				continue
			}
			nrec := len(starts) - 1
			start := pos{}
			if k == from.k {
				start = from
			}
			total, hasTotal := headerTotal(s, starts[0])
			// cutFixed returns s without g, the header's total lowered
			// with it (it counts g, and fits once lower).
			cutFixed := func(g rng) []byte {
				c := cut(s, g)
				if hasTotal {
					total.Put(c, 0, total.Get(s)-uint64(g.len()))
				}
				return c
			}
			if stage == stageRecords {
				for p, b := range blocks(nrec, start) {
					p.k = k
					if !yield(p, S(cutFixed(rng{starts[b[0]], starts[b[1]]}))) {
						return
					}
				}
				continue
			}
			for i := start.i; i < nrec; i++ {
				st := magSearch{}
				if i == start.i {
					st = start.s
				}
				r, end := starts[i], starts[i+1]
				v := f.value(s, r)
				if stage == stageLowerStart {
					// Of the zeros before text that what the field counts
					// starts with, in its units, as many as the search
					// takes.
					body := r + f.off + f.width + f.gap
					z := zeroHead(s[body:end-f.trailer]) / f.unit
					for st, keep := range magnitudes(false, uint64(z), uint64(z), st) {
						gone := (z - int(keep.mag)) * f.unit
						c := cutFixed(rng{body, body + gone})
						f.put(c, r, v-uint64(gone/f.unit))
						if !yield(pos{k: k, i: i, s: st}, S(c)) {
							return
						}
					}
					continue
				}
				for st, m := range magnitudes(false, v, v, st) {
					n := f.recordLen(m.mag)
					if n < 0 {
						continue
					}
					c := cutFixed(rng{r + n - f.trailer, end - f.trailer}) // the trailer stays
					f.put(c, r, m.mag)
					if !yield(pos{k: k, i: i, s: st}, S(c)) {
						return
					}
				}
			}
		}
	}
}

// headerTotal returns the field of a file header of at bytes, 2 or 4
// bytes in either byte order, whose value is the length of the input, or
// of what follows the header, or of what follows the field: a total that
// the records' candidates lower by what they remove.
func headerTotal(s []byte, at int) (formats.Field, bool) {
	for _, w := range headerWidths {
		for i := 0; i+w.width <= at; i++ {
			l := formats.Field{At: i, Width: w.width, Little: w.little}
			switch int(l.Get(s)) {
			case len(s), len(s) - at, len(s) - l.End():
				return l, true
			}
		}
	}
	return formats.Field{}, false
}

// headerWidths are the widths a header's total is read in.
var headerWidths = []width{{4, false}, {4, true}, {2, false}, {2, true}}
