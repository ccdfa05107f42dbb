package xz

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"hash/crc64"
)

// The check types of a block's content.
const (
	CheckNone   = 0x00
	CheckCRC32  = 0x01
	CheckCRC64  = 0x04
	CheckSHA256 = 0x0a
)

var (
	// Magic is how a stream starts.
	Magic      = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	endMagic   = []byte{'Y', 'Z'}
	crc64Table = crc64.MakeTable(crc64.ECMA)
	checkSize  = map[byte]int{CheckNone: 0, CheckCRC32: 4, CheckCRC64: 8, CheckSHA256: 32}
)

// filterLZMA2 is the filter ID of LZMA2.
const filterLZMA2 = 0x21

// A Stream is a stream read.
type Stream struct {
	Content []byte
	Check   byte // the check type
	LZMA    bool // some chunk is of LZMA, not uncompressed
	Len     int  // the stream's length in the bytes read
}

// Read reads the stream at the start of b, of at most limit bytes of
// content, and reports whether it is one: blocks of one filter, LZMA2,
// whose every checksum, size and padding holds.
func Read(b []byte, limit int) (Stream, bool) {
	if len(b) < 32 || !bytes.HasPrefix(b, Magic) || b[6] != 0 || !le32Is(b[8:], crc32.ChecksumIEEE(b[6:8])) {
		return Stream{}, false
	}
	check := b[7]
	size, known := checkSize[check]
	if !known {
		return Stream{}, false
	}
	type record struct{ unpadded, size uint64 }
	var (
		records []record
		content []byte
		st      Stream
	)
	at := 12
	for at < len(b) && b[at] != 0 {
		start, before := at, len(content)
		var ok bool
		var lzma bool
		content, at, lzma, ok = readBlock(b, at, content, limit)
		st.LZMA = st.LZMA || lzma
		if !ok {
			return Stream{}, false
		}
		end := at
		for ; at%4 != 0; at++ {
			if at >= len(b) || b[at] != 0 {
				return Stream{}, false
			}
		}
		data := content[before:]
		if at+size > len(b) || string(b[at:at+size]) != string(checkOf(check, data)) {
			return Stream{}, false
		}
		records = append(records, record{uint64(end - start + size), uint64(len(data))})
		at += size
	}
	// The index.
	index := at
	if at >= len(b) {
		return Stream{}, false
	}
	n, at, ok := uvarint(b, at+1)
	if !ok || n != uint64(len(records)) {
		return Stream{}, false
	}
	for _, r := range records {
		var unpadded, size uint64
		if unpadded, at, ok = uvarint(b, at); !ok {
			return Stream{}, false
		}
		if size, at, ok = uvarint(b, at); !ok || unpadded != r.unpadded || size != r.size {
			return Stream{}, false
		}
	}
	for ; at%4 != 0; at++ {
		if at >= len(b) || b[at] != 0 {
			return Stream{}, false
		}
	}
	if at+4+12 > len(b) || !le32Is(b[at:], crc32.ChecksumIEEE(b[index:at])) {
		return Stream{}, false
	}
	at += 4
	// The footer.
	f := b[at : at+12]
	if !le32Is(f, crc32.ChecksumIEEE(f[4:10])) || (uint64(binary.LittleEndian.Uint32(f[4:]))+1)*4 != uint64(at-index) ||
		string(f[8:10]) != string(b[6:8]) || string(f[10:]) != string(endMagic) {
		return Stream{}, false
	}
	st.Content, st.Check, st.Len = content, check, at+12
	return st, true
}

// readBlock reads the block whose header starts at b[at], appends its
// content to content, and returns it, where the block's compressed data
// end, and whether a chunk was of LZMA.
func readBlock(b []byte, at int, content []byte, limit int) (_ []byte, end int, lzma, ok bool) {
	size := (int(b[at]) + 1) * 4
	if at+size > len(b) {
		return nil, 0, false, false
	}
	h := b[at : at+size-4]
	if !le32Is(b[at+size-4:], crc32.ChecksumIEEE(h)) {
		return nil, 0, false, false
	}
	flags := h[1]
	if flags&0x3f != 0 { // one filter, no reserved bits
		return nil, 0, false, false
	}
	p := 2
	var compressed, uncompressed uint64
	if flags&0x40 != 0 {
		if compressed, p, ok = uvarint(h, p); !ok {
			return nil, 0, false, false
		}
	}
	if flags&0x80 != 0 {
		if uncompressed, p, ok = uvarint(h, p); !ok {
			return nil, 0, false, false
		}
	}
	if p+3 > len(h) || h[p] != filterLZMA2 || h[p+1] != 1 || h[p+2] > 40 {
		return nil, 0, false, false
	}
	for _, c := range h[p+3:] {
		if c != 0 {
			return nil, 0, false, false
		}
	}
	before, start := len(content), at+size
	content, n, lzma, ok := readLZMA2(b[start:], content, dictSize(h[p+2]), limit)
	if !ok || flags&0x40 != 0 && compressed != uint64(n) || flags&0x80 != 0 && uncompressed != uint64(len(content)-before) {
		return nil, 0, false, false
	}
	return content, start + n, lzma, true
}

// dictSize returns the dictionary size LZMA2's property byte p names.
func dictSize(p byte) uint32 {
	if p == 40 {
		return 0xffffffff
	}
	return (2 | uint32(p)&1) << (p/2 + 11)
}

// Encode returns content as a stream with the given check in its smallest
// form: one block whose header holds no sizes and the smallest dictionary
// its data needs, the data in uncompressed chunks or, if lzma, in LZMA if
// that is shorter, and an index of one record; a stream of no blocks for
// empty content.
func Encode(content []byte, check byte, lzma bool) []byte {
	best := encode(content, check, uncompressed(content), 0)
	if !lzma {
		return best
	}
	if data, prop := encodeLZMA(content); data != nil {
		if c := encode(content, check, data, prop); len(c) < len(best) {
			best = c
		}
	}
	return best
}

// uncompressed returns content as LZMA2 data of uncompressed chunks.
func uncompressed(content []byte) []byte {
	var out []byte
	control := byte(1) // the first chunk resets the dictionary
	for rest := content; len(rest) > 0; control = 2 {
		k := min(len(rest), 1<<16)
		out = append(out, control, byte((k-1)>>8), byte(k-1))
		out = append(out, rest[:k]...)
		rest = rest[k:]
	}
	return append(out, 0)
}

// encode returns the stream of content, whose LZMA2 data, with a
// dictionary of property dictProp, is data.
func encode(content []byte, check byte, data []byte, dictProp byte) []byte {
	flags := []byte{0, check}
	out := append(bytes.Clone(Magic), flags...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(flags))
	index := []byte{0, 0}
	if len(content) > 0 {
		block := len(out)
		// The header: 12 bytes (2 units of 4 after the first), one filter,
		// LZMA2 and its dictionary, padding, its CRC-32.
		out = append(out, 2, 0, filterLZMA2, 1, dictProp, 0, 0, 0)
		out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out[block:]))
		out = append(out, data...)
		unpadded := len(out) - block + checkSize[check]
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
		out = append(out, checkOf(check, content)...)
		index = binary.AppendUvarint([]byte{0, 1}, uint64(unpadded))
		index = binary.AppendUvarint(index, uint64(len(content)))
	}
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = binary.LittleEndian.AppendUint32(index, crc32.ChecksumIEEE(index))
	out = append(out, index...)
	footer := binary.LittleEndian.AppendUint32(nil, uint32(len(index)/4-1))
	footer = append(append(footer, flags...), endMagic...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(footer[:6]))
	return append(out, footer...)
}

// checkOf returns the check of a block's content.
func checkOf(check byte, data []byte) []byte {
	switch check {
	case CheckCRC32:
		return binary.LittleEndian.AppendUint32(nil, crc32.ChecksumIEEE(data))
	case CheckCRC64:
		return binary.LittleEndian.AppendUint64(nil, crc64.Checksum(data, crc64Table))
	case CheckSHA256:
		sum := sha256.Sum256(data)
		return sum[:]
	}
	return nil
}

// uvarint reads a multibyte integer at b[at]: 7 bits a byte, least
// significant first, at most 9 bytes, in its shortest form.
func uvarint(b []byte, at int) (uint64, int, bool) {
	var v uint64
	for i := 0; i < 9 && at+i < len(b); i++ {
		c := b[at+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, at + i + 1, c != 0 || i == 0
		}
	}
	return 0, 0, false
}

func le32Is(b []byte, v uint32) bool { return len(b) >= 4 && binary.LittleEndian.Uint32(b) == v }
