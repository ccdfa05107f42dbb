package shrink

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"iter"
	"slices"
)

// Many binary formats guard their parts with checksums: PNG chunks, gzip
// and zip members, xz headers and indexes (CRC-32), zlib streams
// (Adler-32), xz blocks (CRC-64), IPv4 headers (the ones' complement sum
// of their 16-bit words). A decoder rejects every candidate that changes
// a guarded byte, so no pass could move inside such a part. The sums of
// an input are found without knowing its format: a 4- or 8-byte field, in
// either byte order, whose value is the checksum of the bytes right
// before it; an IPv4 header whose words sum to all ones. Every candidate
// of a byte-level pass that changes one stretch of the input, and every
// move of the fields pass, is sealed: its sums are computed again over
// their regions as the change moved them, and written into their fields
// as they moved.

// A sumKind is the checksum a sum field holds.
type sumKind uint8

const (
	sumCRC32    sumKind = iota // CRC-32, IEEE polynomial
	sumAdler32                 // Adler-32
	sumCRC64                   // CRC-64, ECMA-182 polynomial, as xz has it
	sumInternet                // ones' complement sum of 16-bit words, RFC 1071
)

// A sum is a field that holds a checksum of the region [start, end). An
// internet sum's region holds its field, read as zero.
type sum struct {
	layout
	kind       sumKind
	start, end int
}

var (
	crc32Table = crc32.IEEETable
	crc64Table = crc64.MakeTable(crc64.ECMA)
)

// of returns the checksum of the region of c, with the field at l if the
// kind sums it too.
func (k sumKind) of(c []byte, l layout, start, end int) uint64 {
	switch k {
	case sumCRC32:
		return uint64(crc32.Checksum(c[start:end], crc32Table))
	case sumAdler32:
		return uint64(adler32.Checksum(c[start:end]))
	case sumCRC64:
		return crc64.Checksum(c[start:end], crc64Table)
	}
	var s uint32
	for i := start; i < end; i += 2 {
		w := uint32(c[i]) << 8
		if i+1 < end {
			w |= uint32(c[i+1])
		}
		if i >= l.at && i < l.end() {
			w = 0
		}
		s += w
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return uint64(^uint16(s))
}

// adlerMod is Adler-32's modulus.
const adlerMod = 65521

// zeros returns the number of zero bytes of b.
func zeros(b []byte) int { return bytes.Count(b, []byte{0}) }

// maxSumWork bounds the bytes findSums runs through its checksums: the
// regions it tries are at most maxSumWork/len(s) bytes long.
const maxSumWork = 1 << 21

// findSums returns the sums of s, smallest region first: a 4-byte field
// that holds the CRC-32 or the Adler-32, or an 8-byte field that holds
// the CRC-64, of at least 2 bytes right before it; and the checksums of
// IPv4 headers (version 4, a header length of 5 words or more).
func findSums(s []byte) []sum {
	n := len(s)
	if n < 6 {
		return nil
	}
	// The values a 4- or 8-byte field at each offset would hold, where
	// it could hold a checksum: one with more than a zero byte in four is
	// taken for something else (a length, a count, padding).
	be32, le32 := make([]uint32, n+1), make([]uint32, n+1)
	be64, le64 := make([]uint64, n+1), make([]uint64, n+1)
	check := make([]bool, n+1)
	last := 0
	for at := 0; at+4 <= n; at++ {
		if zeros(s[at:at+4]) <= 1 {
			be32[at], le32[at] = binary.BigEndian.Uint32(s[at:]), binary.LittleEndian.Uint32(s[at:])
			check[at], last = true, at
		}
		if at+8 <= n && zeros(s[at:at+8]) <= 2 {
			be64[at], le64[at] = binary.BigEndian.Uint64(s[at:]), binary.LittleEndian.Uint64(s[at:])
			check[at], last = true, at
		}
	}
	var sums []sum
	found := map[int]bool{} // fields found, by offset
	add := func(at, width int, little bool, k sumKind, start int) {
		if !found[at] {
			found[at] = true
			sums = append(sums, sum{layout{at, width, little}, k, start, at})
		}
	}
	maxLen := max(64, maxSumWork/n)
	for start := 0; start < last-1; start++ {
		c32, c64 := ^uint32(0), ^uint64(0)
		a, b := uint32(1), uint32(0)
		for end := start + 1; end <= min(last, start+maxLen); end++ {
			x := s[end-1]
			c32 = crc32Table[byte(c32)^x] ^ c32>>8
			c64 = crc64Table[byte(c64)^x] ^ c64>>8
			if a += uint32(x); a >= adlerMod {
				a -= adlerMod
			}
			if b += a; b >= adlerMod {
				b -= adlerMod
			}
			if !check[end] || end-start < 2 {
				continue
			}
			switch v := ^c32; {
			case v == 0:
			case v == be32[end]:
				add(end, 4, false, sumCRC32, start)
			case v == le32[end]:
				add(end, 4, true, sumCRC32, start)
			}
			switch v := b<<16 | a; {
			case v == be32[end]:
				add(end, 4, false, sumAdler32, start)
			case v == le32[end]:
				add(end, 4, true, sumAdler32, start)
			}
			switch v := ^c64; {
			case v == 0:
			case v == le64[end]:
				add(end, 8, true, sumCRC64, start)
			case v == be64[end]:
				add(end, 8, false, sumCRC64, start)
			}
		}
	}
	for start := 0; start+20 <= n; start++ {
		words := int(s[start] & 0x0f)
		if s[start]>>4 != 4 || words < 5 || start+4*words > n {
			continue
		}
		l := layout{start + 10, 2, false}
		if l.get(s) != 0 && sumInternet.of(s, l, start, start+4*words) == l.get(s) && !found[l.at] {
			found[l.at] = true
			sums = append(sums, sum{l, sumInternet, start, start + 4*words})
		}
	}
	// A sum over a region that holds another's field is computed after it.
	slices.SortStableFunc(sums, func(x, y sum) int { return cmp.Compare(x.end-x.start, y.end-y.start) })
	return sums
}

// seal writes the sums into c. move returns where a boundary between
// bytes of the input is in c, or false if it fell inside what changed;
// kept reports whether a field's bytes are all kept as they were. A sum
// whose field was not kept, or whose region's ends fell inside what
// changed, is left as it is.
func seal(c []byte, sums []sum, move func(b int) (int, bool), kept func(l layout) bool) {
	for _, z := range sums {
		at, ok1 := move(z.at)
		start, ok2 := move(z.start)
		end, ok3 := move(z.end)
		if !ok1 || !ok2 || !ok3 || !kept(z.layout) || start >= end {
			continue
		}
		l := layout{at, z.width, z.little}
		l.put(c, 0, z.kind.of(c, l, start, end))
	}
}

// resealed seals the candidates of a byte-level pass for s: a candidate
// that differs from s in one stretch, with what is before and after it
// the same, has its sums written for the stretch's new length.
func resealed[S byteString](seq iter.Seq2[pos, any], s0 S, sums []sum) iter.Seq2[pos, any] {
	s := []byte(s0)
	return func(yield func(pos, any) bool) {
		for p, v := range seq {
			if c, ok := v.(S); ok {
				v = S(resealOne(s, []byte(c), sums))
			}
			if !yield(p, v) {
				return
			}
		}
	}
}

// resealOne returns c, a candidate for s, with the sums of s sealed (see
// resealed).
func resealOne(s, c []byte, sums []sum) []byte {
	pre := 0
	for pre < len(s) && pre < len(c) && s[pre] == c[pre] {
		pre++
	}
	suf := 0
	for suf < len(s)-pre && suf < len(c)-pre && s[len(s)-1-suf] == c[len(c)-1-suf] {
		suf++
	}
	if pre == len(s) && pre == len(c) {
		return c
	}
	// The stretch is s[pre:len(s)-suf], c[pre:len(c)-suf].
	after, d := len(s)-suf, len(s)-len(c)
	move := func(b int) (int, bool) {
		switch {
		case b <= pre:
			return b, true
		case b >= after:
			return b - d, true
		}
		return 0, false
	}
	kept := func(l layout) bool { return l.end() <= pre || l.at >= after }
	c = slices.Clone(c)
	seal(c, sums, move, kept)
	return c
}
