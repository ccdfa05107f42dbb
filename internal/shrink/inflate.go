package shrink

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"io"
	"iter"
	"math/bits"
	"slices"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/formats"
	"github.com/fuzzmin/fuzzmin/internal/xz"
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
// too (zip.go), and a tar archive's (tar.go), each candidate written as a
// whole archive.

// An archive holds files, each of which a stream of its own shrinks: a
// zip archive (zip.go) or a tar archive (tar.go).
type archive interface {
	// encodeWith returns the archive with file i's content replaced.
	encodeWith(i int, content []byte) []byte
	// rewrites returns the candidates of the archive as a whole,
	// smallest first.
	rewrites() [][]byte
}

// A stream is a compressed part of an input.
type stream struct {
	gzip             bool
	xz               bool    // an xz stream (package xz): data is unused
	check            byte    // an xz stream's check type
	lzma             bool    // an xz stream has LZMA chunks
	arc              archive // a file of a zip or tar archive (zip.go, tar.go), which is [start, end): data is unused
	entry            int     // the file's index in arc
	start, data, end int     // where its header starts, its deflated bits start, and it ends, trailer included
	content          []byte
}

// maxInflated bounds the content of a stream the pass reads, and
// maxBestContent the content deflated at the best compression too: each
// candidate is deflated again. Measured on lines of text: 0.6 ms for 16
// KiB at every level, 1.5 ms for 64 KiB without the best, 77 ms for 256
// KiB with it.
const (
	maxInflated    = 64 << 10
	maxBestContent = 16 << 10
)

// findStreams returns the zlib streams and gzip members of s that inflate
// and whose trailer holds their content's checksum, the xz streams of s
// (package xz) and the files of a zip archive (readZip), in order, at most
// maxStreams; or, if s is a tar archive (readTar), its files.
func findStreams(s []byte) []stream {
	const maxStreams = 8
	var out []stream
	if t, ok := readTar(s); ok {
		for j, f := range t.files[:min(len(t.files), maxStreams)] {
			out = append(out, stream{arc: t, entry: j, end: len(s), content: f.content})
		}
		return out
	}
	z, isZip := readZip(s)
	for i := 0; i+2 < len(s) && len(out) < maxStreams; i++ {
		if isZip && i == z.start {
			for j := range z.files[:min(len(z.files), maxStreams-len(out))] {
				out = append(out, stream{arc: z, entry: j, start: z.start, end: z.end, content: z.files[j].content})
			}
			i = z.end - 1
			continue
		}
		var st stream
		switch {
		case formats.IsXz(s[i:]):
			x, ok := xz.Read(s[i:], maxInflated)
			if !ok {
				continue
			}
			out = append(out, stream{xz: true, check: x.Check, lzma: x.LZMA, start: i, end: i + x.Len, content: x.Content})
			i += x.Len - 1
			continue
		case formats.IsGzip(s[i:]):
			data, ok := gzipData(s, i)
			if !ok {
				continue
			}
			st = stream{gzip: true, start: i, data: data}
		case formats.IsZlib(s[i:]):
			st = stream{start: i, data: i + 2}
		default:
			continue
		}
		content, n, ok := inflate(s[st.data:])
		if !ok {
			continue
		}
		st.end, st.content = st.data+n+st.trailerLen(), content
		if st.end > len(s) || string(s[st.data+n:st.end]) != string(st.trailer(content)) {
			continue
		}
		out = append(out, st)
		i = st.end - 1
	}
	return out
}

// gzipData returns where the deflated bits of the gzip member whose header
// starts at i start: after the 10 bytes of the header and the optional
// fields its flags name (RFC 1952, 2.3.1), which the pass keeps as they
// are, a header checksum included.
func gzipData(s []byte, i int) (int, bool) {
	const (
		fhcrc    = 1 << 1
		fextra   = 1 << 2
		fname    = 1 << 3
		fcomment = 1 << 4
	)
	if i+10 > len(s) || s[i+3]&^(fhcrc|fextra|fname|fcomment) != 0 {
		return 0, false
	}
	flags, at := s[i+3], i+10
	if flags&fextra != 0 {
		if at+2 > len(s) {
			return 0, false
		}
		at += 2 + int(binary.LittleEndian.Uint16(s[at:]))
	}
	for _, f := range []byte{fname, fcomment} {
		if flags&f != 0 {
			end := bytes.IndexByte(s[min(at, len(s)):], 0)
			if end < 0 {
				return 0, false
			}
			at += end + 1
		}
	}
	if flags&fhcrc != 0 {
		at += 2
	}
	return at, at < len(s)
}

// inflate inflates the deflate stream at the start of b and returns its
// content and its length in b.
func inflate(b []byte) (content []byte, n int, ok bool) {
	r := &countingReader{b: b}
	fr, _ := readers.Get().(io.ReadCloser)
	if fr == nil {
		fr = flate.NewReader(r)
	} else if fr.(flate.Resetter).Reset(r, nil) != nil {
		return nil, 0, false
	}
	defer readers.Put(fr)
	content, err := io.ReadAll(io.LimitReader(fr, maxInflated+1))
	if err != nil || len(content) > maxInflated {
		return nil, 0, false
	}
	return content, r.n, true
}

// countingReader reads b and counts what it read: flate reads a byte at a
// time from an io.ByteReader, so nothing past its stream.
type countingReader struct {
	b []byte
	n int
}

func (r *countingReader) ReadByte() (byte, error) {
	if r.n == len(r.b) {
		return 0, io.EOF
	}
	r.n++
	return r.b[r.n-1], nil
}

func (r *countingReader) Read(p []byte) (int, error) {
	if r.n == len(r.b) {
		return 0, io.EOF
	}
	k := copy(p, r.b[r.n:])
	r.n += k
	return k, nil
}

func (st stream) trailerLen() int {
	if st.gzip {
		return 8
	}
	return 4
}

// trailer returns what follows the deflated bits of content.
func (st stream) trailer(content []byte) []byte {
	if st.gzip {
		t := binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(content))
		return binary.LittleEndian.AppendUint32(t, uint32(len(content)))
	}
	return binary.BigEndian.AppendUint32(nil, adler32.Checksum(content))
}

// flateLevels are the encodings of compress/flate tried: stored, and with
// matches, fast and thorough. A writer takes hundreds of KiB to set up, so
// each level's are kept for the next candidate.
var (
	flateLevels = [...]int{flate.NoCompression, flate.BestSpeed, flate.BestCompression}
	writers     [len(flateLevels)]sync.Pool
	readers     sync.Pool
)

// encode returns the stream of s with content deflated in the encoding
// that makes it smallest: compress/flate's, or one block of literals in
// the fixed codes; its header kept, or for zlib, with no matches, the
// smallest header, 08 1d (a window of 256 bytes, no flags).
func (st stream) encode(s, content []byte) []byte {
	switch {
	case st.xz:
		return xz.Encode(content, st.check, st.lzma)
	case st.arc != nil:
		return st.arc.encodeWith(st.entry, content)
	}
	var best []byte
	try := func(head, deflated []byte) {
		c := append(append(append([]byte(nil), head...), deflated...), st.trailer(content)...)
		if best == nil || compareBytes(c, best) < 0 {
			best = c
		}
	}
	head := s[st.start:st.data]
	ds := deflations(content)
	for i, deflated := range ds {
		try(head, deflated)
		if !st.gzip && (i == 0 || i == len(ds)-1) { // stored, or literals: no matches
			try(smallZlibHeader, deflated)
		}
	}
	return best
}

// deflations returns content deflated by compress/flate at each of
// flateLevels (but the best, for content past maxBestContent), then as
// fixedLiterals.
func deflations(content []byte) [][]byte {
	var out [][]byte
	for i, level := range flateLevels {
		if level == flate.BestCompression && len(content) > maxBestContent {
			continue
		}
		var b bytes.Buffer
		w, _ := writers[i].Get().(*flate.Writer)
		if w == nil {
			w, _ = flate.NewWriter(&b, level)
		} else {
			w.Reset(&b)
		}
		w.Write(content)
		w.Close()
		writers[i].Put(w)
		out = append(out, b.Bytes())
	}
	return append(out, fixedLiterals(content))
}

// smallestDeflation returns the smallest of content's deflations.
func smallestDeflation(content []byte) []byte {
	return slices.MinFunc(deflations(content), compareBytes)
}

// smallZlibHeader is the smallest zlib header: deflate with a window of
// 256 bytes (CMF 08), no dictionary, and the check bits that make 0x081d
// a multiple of 31. A stream with no matches needs no larger window.
var smallZlibHeader = []byte{0x08, 0x1d}

// fixedLiterals returns content deflated as one final block of literals
// in the fixed Huffman codes (RFC 1951, 3.2.6): the shortest encoding of
// a few bytes that do not repeat, 3 bits, 8 or 9 a byte and 7 to end
// ("[]" in 4 bytes), which compress/flate does not write: it ends a stream
// with an empty stored block.
func fixedLiterals(content []byte) []byte {
	var out []byte
	var acc uint64
	var n uint
	put := func(v uint64, width uint) { // LSB first
		acc |= v << n
		for n += width; n >= 8; n -= 8 {
			out = append(out, byte(acc))
			acc >>= 8
		}
	}
	code := func(c uint64, width uint) { // a Huffman code, MSB first
		put(uint64(bits.Reverse16(uint16(c))>>(16-width)), width)
	}
	put(1, 1) // the final block
	put(1, 2) // of fixed codes
	for _, c := range content {
		if c < 144 {
			code(0x30+uint64(c), 8)
		} else {
			code(0x190+uint64(c)-144, 9)
		}
	}
	code(0, 7) // the end of the block
	if n > 0 {
		out = append(out, byte(acc))
	}
	return out
}

// compareBytes compares in the order of binary data: shorter first, then
// by byte value.
func compareBytes(a, b []byte) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return bytes.Compare(a, b)
}

// The passes that change values, not structure, run on a stream's content
// once it is at most maxValueContent bytes: every candidate is deflated
// again, and lowering the bytes of kilobytes one at a time, before the
// fields that say how much content is needed have gone down, costs more
// than it gains.
const maxValueContent = 1 << 10

var valuePass = map[string]bool{"redistribute": true, "literals": true, "numbers": true, "bytes": true, "runes": true, "swap": true}

// innerPasses are the passes whose moves shrink a stream's content: the
// byte-level ones, not those that read binary fields or streams. (Set by
// init: the passes' table refers to this pass.)
var innerPasses []pass

func init() {
	for _, p := range passes {
		if p.arg != nil && p.name != "fields" && p.name != "lengths" && p.name != "inflate" {
			innerPasses = append(innerPasses, p)
		}
	}
}

// inflateArg applies the inflate pass to binary []byte and string
// arguments; inflateSealed does for one with sums, which its moves seal.
func inflateArg(v any, from pos) iter.Seq2[pos, any] { return inflateSealed(v, from, nil) }

func inflateSealed(v any, from pos, sums []sum) iter.Seq2[pos, any] {
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
func shrinkStreams[S byteString](s0 S, from pos, sums []sum) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		s := []byte(s0)
		streams := findStreams(s)
		var (
			m      *model
			mFor   = -1 // the stream m is of
			around []sum
		)
		replace := func(st stream, repl []byte) [][]byte {
			if mFor != st.start {
				// The sums inside the stream (an xz stream's) go with its
				// bytes: repl has its own.
				around = slices.DeleteFunc(slices.Clone(sums), func(z sum) bool {
					return st.start <= min(z.at, z.start) && max(z.layout.end(), z.end) <= st.end
				})
				m, mFor = nil, st.start
			}
			switch old := s[st.start:st.end]; {
			case len(repl) < len(old):
				if m == nil {
					m = newModel(s, littleFirst(s), around)
				}
				return m.replacements(st.start, st.end, repl)
			case len(repl) == len(old) && bytes.Compare(repl, old) < 0:
				c := append(append(append([]byte(nil), s[:st.start]...), repl...), s[st.end:]...)
				return [][]byte{resealOne(s, c, around)}
			}
			return nil
		}
		noSums := func(int) []sum { return nil }
		for i := from.i; i < len(streams); i++ {
			st, k, sub := streams[i], 0, cursor{}
			if i == from.i {
				k = from.k
				if from.sub != nil {
					sub.pos = *from.sub
				}
			}
			if k == 0 {
				var encs [][]byte
				switch {
				case st.arc != nil && st.entry == 0:
					encs = st.arc.rewrites()
				case st.arc != nil:
					// The archive's rewrites came with its first file.
				case st.xz:
					// With no check and in LZMA too, smallest first: the
					// code under test may take them.
					var d distinct
					for _, check := range []byte{xz.CheckNone, st.check} {
						for _, lzma := range []bool{st.lzma, true} {
							d.add(xz.Encode(st.content, check, lzma))
						}
					}
					encs = d.sorted()
				default:
					encs = [][]byte{st.encode(s, st.content)}
				}
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
			if k == 1 && st.arc != nil {
				k = 2 // a file has no dimensions before it
			}
			if k == 1 {
				start := pos{}
				if i == from.i && from.k == 1 {
					start = from
				}
				for p, c := range st.dimMoves(s, start, replace, sums) {
					p.i, p.k = i, 1
					if !yield(p, S(c)) {
						return
					}
				}
				k = 2
			}
			for ; k-1 <= len(innerPasses); k, sub = k+1, (cursor{}) {
				if p := innerPasses[k-2]; valuePass[p.name] && len(st.content) > maxValueContent {
					continue
				}
				for c, v := range innerPasses[k-2].candidates([]any{st.content}, sub, noSums) {
					content, ok := v.([]byte)
					if !ok {
						continue
					}
					for _, cand := range replace(st, st.encode(s, content)) {
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
	rows, cols layout
	per, lead  int
}

// findContentDims returns the content dims pairs of the stream's content
// among the 2- and 4-byte fields of the 256 bytes before the stream.
func (st stream) findContentDims(s []byte) []contentDims {
	n := len(st.content)
	var fields []layout
	for _, little := range []bool{false, true} {
		for _, w := range []int{4, 2} {
			for at := max(0, st.start-256); at+w <= st.start; at++ {
				if v := (layout{at, w, little}).get(s); v >= 1 && v <= uint64(n) {
					fields = append(fields, layout{at, w, little})
				}
			}
		}
	}
	var out []contentDims
	for _, r := range fields {
		for _, c := range fields {
			if c.at == r.at || c.width != r.width || c.little != r.little || c.at-r.at > 8 || r.at-c.at > 8 {
				continue
			}
			rows, cols := int(r.get(s)), int(c.get(s))
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
func (st stream) dimMoves(s []byte, from pos, replace func(stream, []byte) [][]byte, sums []sum) iter.Seq2[pos, []byte] {
	return func(yield func(pos, []byte) bool) {
		ds := st.findContentDims(s)
		// The sums before the stream are where they were in s.
		before := slices.DeleteFunc(slices.Clone(sums), func(z sum) bool { return max(z.end, z.layout.end()) > st.start })
		for j := from.j; j < 2*len(ds); j++ {
			d := ds[j/2]
			rows, cols := int(d.rows.get(s)), int(d.cols.get(s))
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
					content = st.content[:int(keep.mag)*(d.lead+cols*d.per)]
				} else {
					row := d.lead + cols*d.per
					for r := range rows {
						content = append(content, st.content[r*row:r*row+d.lead+int(keep.mag)*d.per]...)
					}
				}
				for _, c := range replace(st, st.encode(s, content)) {
					counted := slices.Clone(c)
					if !field.put(counted, 0, keep.mag) {
						continue
					}
					if !yield(pos{j: j, s: ms}, resealOne(c, counted, before)) {
						return
					}
				}
			}
		}
	}
}
