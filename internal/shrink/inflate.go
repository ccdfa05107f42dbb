package shrink

import (
	"bytes"
	"iter"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// Compressed parts. A zlib stream (RFC 1950) or a gzip member (RFC 1952)
// holds its content deflated, with the Adler-32 or the CRC-32 of the
// content (and, in gzip, its length) after it: no byte-level move inside
// the deflated bits leaves a stream that inflates to anything like what
// it held, and the checksum is of the content, not of bytes of the input.
// The inflate pass finds such streams, shrinks each one's content with the
// moves of the byte-level passes, and deflates every candidate content
// again, with the encoding of the ones compress/flate writes that makes the
// stream smallest, its trailer computed again; the fields around the
// stream are fixed up, and the checksums sealed, as the fields pass does
// (a PNG chunk's length and CRC).
//
// An xz stream is read and written the same way (package xz): its blocks'
// LZMA2 data decoded, each candidate content written as the smallest
// stream of the check and the form it had (uncompressed chunks, or LZMA
// where that is shorter), a dozen checksums, sizes and paddings computed
// anew. Its first candidates are the same content with no check and in
// LZMA, which the code under test may take. A zip archive's files are
// too, and a tar archive's, each candidate written as a whole archive.
// Finding the streams and writing them again is package formats'; the
// pass here chooses what to try.

// The passes that change values, not structure, run on a stream's content
// once it is at most maxValueContent bytes: every candidate is deflated
// again, and lowering the bytes of kilobytes one at a time, before the
// fields that say how much content is needed have gone down, costs more
// than it gains.
const maxValueContent = 1 << 10

// A budgeted pass (cuts) runs on a stream's content of at most
// maxInnerCuts bytes, whose every range it affords: the budget is the
// search's, not the stream's.
const maxInnerCuts = 128

var valuePass = map[string]bool{"redistribute": true, "literals": true, "numbers": true, "bytes": true, "runes": true, "swap": true}

// innerPasses are the passes whose moves shrink a stream's content: the
// byte-level ones, not those that read binary fields or streams. (Set by
// init: the passes' table refers to this pass.)
var innerPasses []pass

func init() {
	for _, p := range passes {
		if p.arg != nil && p.name != "fields" && p.name != "lengths" && p.name != "trees" && p.name != "inflate" {
			innerPasses = append(innerPasses, p)
		}
	}
}

// inflateArg applies the inflate pass to binary []byte and string
// arguments; inflateSealed does for one with sums, which its moves seal.
func inflateArg(v any, from pos) iter.Seq2[pos, any] { return inflateSealed(v, from, nil) }

func inflateSealed(v any, from pos, sums []formats.Sum) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		if isBinary(x) {
			return boxed(shrinkStreams(x, from, sums))
		}
	case string:
		if isBinary(x) {
			return boxed(shrinkStreams(x, from, sums))
		}
	}
	return nil
}

// shrinkStreams yields s with a stream deflated again in its smallest
// encoding, then with rows and columns of its content removed with the
// fields that count them (dimMoves), then with its content shrunk by each
// inner pass in turn. The cursor is (pos.i, pos.k) = (stream, stage): 0
// deflates again, 1 is dimMoves (pos.j, pos.s), k ≥ 2 inner pass k-2
// (pos.sub, its cursor on the content).
func shrinkStreams[S byteString](s0 S, from pos, sums []formats.Sum) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		s := []byte(s0)
		streams := formats.Streams(s)
		var (
			m      *model
			mFor   = -1 // the stream m is of
			around []formats.Sum
		)
		replace := func(st formats.Stream, repl []byte) [][]byte {
			if mFor != st.Start {
				// The sums inside the stream (an xz stream's) go with its
				// bytes: repl has its own.
				around = slices.DeleteFunc(slices.Clone(sums), func(z formats.Sum) bool {
					return st.Start <= min(z.At, z.Start) && max(z.Field.End(), z.End) <= st.End
				})
				m, mFor = nil, st.Start
			}
			switch old := s[st.Start:st.End]; {
			case len(repl) < len(old):
				if m == nil {
					m = newModel(s, littleFirst(s), around)
				}
				return m.replacements(st.Start, st.End, repl)
			case len(repl) == len(old) && bytes.Compare(repl, old) < 0:
				c := append(append(append([]byte(nil), s[:st.Start]...), repl...), s[st.End:]...)
				return [][]byte{formats.Reseal(s, c, around)}
			}
			return nil
		}
		noSums := func(int) []formats.Sum { return nil }
		for i := from.i; i < len(streams); i++ {
			st, k, sub := streams[i], 0, cursor{}
			if i == from.i {
				k = from.k
				if from.sub != nil {
					sub.pos = *from.sub
				}
			}
			if k == 0 {
				encs := st.Rewrites(s)
				for _, enc := range encs {
					for _, c := range replace(st, enc) {
						// Accepted, this stage runs again: an archive
						// without one file may do without another.
						if !yield(pos{i: i}, S(c)) {
							return
						}
					}
				}
				k = 1
			}
			if k == 1 && st.InArchive() {
				k = 2 // a file has no dimensions before it
			}
			if k == 1 {
				start := pos{}
				if i == from.i && from.k == 1 {
					start = from
				}
				for p, c := range dimMoves(st, s, start, replace, sums) {
					p.i, p.k = i, 1
					if !yield(p, S(c)) {
						return
					}
				}
				k = 2
			}
			for ; k-1 <= len(innerPasses); k, sub = k+1, (cursor{}) {
				if p := innerPasses[k-2]; valuePass[p.name] && len(st.Content) > maxValueContent || p.budgeted && len(st.Content) > maxInnerCuts {
					continue
				}
				for c, v := range innerPasses[k-2].candidates([]any{st.Content}, sub, noSums) {
					content, ok := v.([]byte)
					if !ok {
						continue
					}
					for _, cand := range replace(st, st.Encode(s, content)) {
						if !yield(pos{i: i, k: k, sub: &c.pos}, S(cand)) {
							return
						}
					}
				}
			}
		}
	}
}

// Pixels. A decoder that inflates an image checks that the content is
// exactly the rows and columns its header says: removing rows from the
// content fails, and so does lowering the height alone. A content dims
// pair is two fields before the stream, a row count and a column count,
// whose product, times bytes per element, plus lead bytes per row (a
// PNG row's filter byte), is the content's length.
type contentDims struct {
	rows, cols formats.Field
	per, lead  int
}

// findContentDims returns the content dims pairs of the stream's content
// among the 2- and 4-byte fields of the 256 bytes before the stream.
func findContentDims(st formats.Stream, s []byte) []contentDims {
	n := len(st.Content)
	var fields []formats.Field
	for _, little := range []bool{false, true} {
		for _, w := range []int{4, 2} {
			for at := max(0, st.Start-256); at+w <= st.Start; at++ {
				if v := (formats.Field{At: at, Width: w, Little: little}).Get(s); v >= 1 && v <= uint64(n) {
					fields = append(fields, formats.Field{At: at, Width: w, Little: little})
				}
			}
		}
	}
	var out []contentDims
	for _, r := range fields {
		for _, c := range fields {
			if c.At == r.At || c.Width != r.Width || c.Little != r.Little || c.At-r.At > 8 || r.At-c.At > 8 {
				continue
			}
			rows, cols := int(r.Get(s)), int(c.Get(s))
			for per := 1; per <= 8; per++ {
				for lead := range 2 {
					if rows*(lead+cols*per) == n {
						out = append(out, contentDims{r, c, per, lead})
					}
				}
			}
		}
	}
	return out
}

// dimMoves yields s with the last rows of the stream's content removed,
// then the last columns of every row, each with the field that counts
// them lowered, by a binary search on what remains (see [magnitudes]).
// The cursor is (pos.j, pos.s) = (2·pair + dimension, search state);
// replace puts a new stream in s.
func dimMoves(st formats.Stream, s []byte, from pos, replace func(formats.Stream, []byte) [][]byte, sums []formats.Sum) iter.Seq2[pos, []byte] {
	return func(yield func(pos, []byte) bool) {
		ds := findContentDims(st, s)
		// The sums before the stream are where they were in s.
		before := slices.DeleteFunc(slices.Clone(sums), func(z formats.Sum) bool { return max(z.End, z.Field.End()) > st.Start })
		for j := from.j; j < 2*len(ds); j++ {
			d := ds[j/2]
			rows, cols := int(d.rows.Get(s)), int(d.cols.Get(s))
			field, have := d.rows, rows
			if j%2 == 1 {
				field, have = d.cols, cols
			}
			ms := magSearch{}
			if j == from.j {
				ms = from.s
			}
			for ms, keep := range magnitudes(false, uint64(have), uint64(have), ms) {
				if keep.mag == 0 {
					continue
				}
				var content []byte
				if j%2 == 0 {
					content = st.Content[:int(keep.mag)*(d.lead+cols*d.per)]
				} else {
					row := d.lead + cols*d.per
					for r := range rows {
						content = append(content, st.Content[r*row:r*row+d.lead+int(keep.mag)*d.per]...)
					}
				}
				for _, c := range replace(st, st.Encode(s, content)) {
					counted := slices.Clone(c)
					if !field.Put(counted, 0, keep.mag) {
						continue
					}
					if !yield(pos{j: j, s: ms}, formats.Reseal(c, counted, before)) {
						return
					}
				}
			}
		}
	}
}
