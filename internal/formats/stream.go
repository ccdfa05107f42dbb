package formats

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

// Compressed parts of an input. A zlib stream (RFC 1950) or a gzip member
// (RFC 1952) holds its content deflated, with the Adler-32 or the CRC-32
// of the content (and, in gzip, its length) after it; an xz stream
// (package xz) its blocks' LZMA2 data and a dozen checksums, sizes and
// paddings; a zip or a tar archive its files. Streams finds them in an
// input, and a Stream's Encode writes it again around a new content, in
// the encoding that makes it smallest, every checksum computed anew: the
// engine's inflate pass shrinks the content and writes each candidate
// back this way.

// An archive holds files, each of which a stream of its own shrinks: a
// zip archive (zip.go) or a tar archive (tar.go).
type archive interface {
	// encodeWith returns the archive with file i's content replaced.
	encodeWith(i int, content []byte) []byte
	// rewrites returns the candidates of the archive as a whole,
	// smallest first.
	rewrites() [][]byte
}

// A Stream is a compressed part of an input, or a file of an archive.
type Stream struct {
	gzip             bool
	xz               bool    // an xz stream (package xz): data is unused
	check            byte    // an xz stream's check type
	lzma             bool    // an xz stream has LZMA chunks
	arc              archive // a file of a zip or tar archive (zip.go, tar.go), which is [Start, End): data is unused
	entry            int     // the file's index in arc
	Start, data, End int     // where its header starts, its deflated bits start, and it ends, trailer included
	Content          []byte
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

// Streams returns the zlib streams and gzip members of s that inflate
// and whose trailer holds their content's checksum, the xz streams of s
// (package xz) and the files of a zip archive (readZip), in order, at most
// maxStreams; or, if s is a tar archive (readTar), its files.
func Streams(s []byte) []Stream {
	const maxStreams = 8
	var out []Stream
	if t, ok := readTar(s); ok {
		for j, f := range t.files[:min(len(t.files), maxStreams)] {
			out = append(out, Stream{arc: t, entry: j, End: len(s), Content: f.content})
		}
		return out
	}
	z, isZip := readZip(s)
	for i := 0; i+2 < len(s) && len(out) < maxStreams; i++ {
		if isZip && i == z.start {
			for j := range z.files[:min(len(z.files), maxStreams-len(out))] {
				out = append(out, Stream{arc: z, entry: j, Start: z.start, End: z.end, Content: z.files[j].content})
			}
			i = z.end - 1
			continue
		}
		var st Stream
		switch {
		case IsXz(s[i:]):
			x, ok := xz.Read(s[i:], maxInflated)
			if !ok {
				continue
			}
			out = append(out, Stream{xz: true, check: x.Check, lzma: x.LZMA, Start: i, End: i + x.Len, Content: x.Content})
			i += x.Len - 1
			continue
		case IsGzip(s[i:]):
			data, ok := gzipData(s, i)
			if !ok {
				continue
			}
			st = Stream{gzip: true, Start: i, data: data}
		case IsZlib(s[i:]):
			st = Stream{Start: i, data: i + 2}
		default:
			continue
		}
		content, n, ok := inflate(s[st.data:])
		if !ok {
			continue
		}
		st.End, st.Content = st.data+n+st.trailerLen(), content
		if st.End > len(s) || string(s[st.data+n:st.End]) != string(st.trailer(content)) {
			continue
		}
		out = append(out, st)
		i = st.End - 1
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

func (st Stream) trailerLen() int {
	if st.gzip {
		return 8
	}
	return 4
}

// trailer returns what follows the deflated bits of content.
func (st Stream) trailer(content []byte) []byte {
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

// Encode returns the stream of s with content deflated in the encoding
// that makes it smallest: compress/flate's, or one block of literals in
// the fixed codes; its header kept, or for zlib, with no matches, the
// smallest header, 08 1d (a window of 256 bytes, no flags).
func (st Stream) Encode(s, content []byte) []byte {
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
	head := s[st.Start:st.data]
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

// Rewrites returns the stream of s written again around its own content in
// the encodings that may be smaller: an archive's rewrites as a whole with
// its first file (none with the others), an xz stream with no check and
// in LZMA too, smallest first (the code under test may take them), or the
// smallest deflation.
func (st Stream) Rewrites(s []byte) [][]byte {
	switch {
	case st.arc != nil && st.entry == 0:
		return st.arc.rewrites()
	case st.arc != nil:
		return nil
	case st.xz:
		var d distinct
		for _, check := range []byte{xz.CheckNone, st.check} {
			for _, lzma := range []bool{st.lzma, true} {
				d.add(xz.Encode(st.Content, check, lzma))
			}
		}
		return d.sorted()
	}
	return [][]byte{st.Encode(s, st.Content)}
}

// InArchive reports whether the stream is a file of a zip or tar archive.
func (st Stream) InArchive() bool { return st.arc != nil }
