package formats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"math"
	"math/bits"
	"slices"
)

// Many binary formats guard their parts with checksums: PNG chunks, gzip
// and zip members, xz headers and indexes (CRC-32), zlib streams
// (Adler-32), xz blocks (CRC-64), IPv4 headers (the ones' complement sum
// of their 16-bit words). A decoder rejects every candidate that changes
// a guarded byte, so no pass could move inside such a part. The sums of
// an input are found without knowing its format: a 4- or 8-byte field, in
// either byte order, whose value is the checksum of the bytes right
// before it; an IPv4 header whose words sum to all ones (FindSums). A
// candidate that changes the input is sealed: its sums are computed again
// over their regions as the change moved them, and written into their
// fields as they moved (Seal, Reseal). The shrink engine seals every
// candidate of its byte-level passes and every move of its fields pass.

// A SumKind is the checksum a sum field holds.
type SumKind uint8

const (
	CRC32    SumKind = iota // CRC-32, IEEE polynomial
	Adler32                 // Adler-32
	CRC64                   // CRC-64, ECMA-182 polynomial, as xz has it
	Internet                // ones' complement sum of 16-bit words, RFC 1071
)

// A Sum is a field that holds a checksum of the region [Start, End): right
// before the field, or with zero bytes between them (maxSumGap). An
// internet sum's region holds its field, read as zero.
type Sum struct {
	Field
	Kind       SumKind
	Start, End int
}

var (
	crc32Table = crc32.IEEETable
	crc64Table = crc64.MakeTable(crc64.ECMA)
)

// Of returns the checksum of the region of c, with the field at l if the
// kind sums it too.
func (k SumKind) Of(c []byte, l Field, start, end int) uint64 {
	switch k {
	case CRC32:
		return uint64(crc32.Checksum(c[start:end], crc32Table))
	case Adler32:
		return uint64(adler32.Checksum(c[start:end]))
	case CRC64:
		return crc64.Checksum(c[start:end], crc64Table)
	}
	var s uint32
	for i := start; i < end; i += 2 {
		w := uint32(c[i]) << 8
		if i+1 < end {
			w |= uint32(c[i+1])
		}
		if i >= l.At && i < l.End() {
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

// MaxSumsInput bounds the inputs whose sums are read: FindSums takes about
// 1 µs a byte. A larger input is read once the other passes have cut it
// down.
const MaxSumsInput = 32 << 10

// maxSumGap is how many zero bytes may lie between a CRC field and its
// region: xz's block check follows the end of the block's data and its
// padding to 4 bytes.
const maxSumGap = 4

// FindSums returns the sums of s, smallest region first: a 4-byte field
// that holds the CRC-32 or the Adler-32, or an 8-byte field that holds
// the CRC-64, of at least 2 bytes right before it (the longest such
// region), or for a CRC of bytes followed by up to maxSumGap zero bytes
// before it; and the checksums of IPv4 headers (version 4, a header length
// of 5 words or more). It takes O(n) time: the checksums of all the
// regions that end at a field are not computed one by one.
func FindSums(s []byte) []Sum {
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
	for at := 0; at+4 <= n; at++ {
		if zeros(s[at:at+4]) <= 1 {
			be32[at], le32[at] = binary.BigEndian.Uint32(s[at:]), binary.LittleEndian.Uint32(s[at:])
			check[at] = true
		}
		if at+8 <= n && zeros(s[at:at+8]) <= 2 {
			be64[at], le64[at] = binary.BigEndian.Uint64(s[at:]), binary.LittleEndian.Uint64(s[at:])
			check[at] = true
		}
	}
	var sums []Sum
	found := map[int]bool{} // fields found, by offset
	add := func(at, width int, little bool, k SumKind, start, end int) {
		if !found[at] {
			found[at] = true
			sums = append(sums, Sum{Field{at, width, little}, k, start, end})
		}
	}
	field32 := func(at int) (uint32, uint32) { return be32[at], le32[at] }
	field64 := func(at int) (uint64, uint64) { return be64[at], le64[at] }
	crcRegions(s, (*[256]uint32)(crc32Table), check, field32, func(at int, little bool, start, end int) { add(at, 4, little, CRC32, start, end) })
	adlerRegions(s, check, be32, le32, func(at int, little bool, start int) { add(at, 4, little, Adler32, start, at) })
	crcRegions(s, (*[256]uint64)(crc64Table), check, field64, func(at int, little bool, start, end int) { add(at, 8, little, CRC64, start, end) })
	for start := 0; start+20 <= n; start++ {
		words := int(s[start] & 0x0f)
		if s[start]>>4 != 4 || words < 5 || start+4*words > n {
			continue
		}
		l := Field{start + 10, 2, false}
		if Internet.Of(s, l, start, start+4*words) == l.Get(s) && !found[l.At] {
			found[l.At] = true
			sums = append(sums, Sum{l, Internet, start, start + 4*words})
		}
	}
	// A sum over a region that holds another's field is computed after it.
	slices.SortStableFunc(sums, func(x, y Sum) int { return cmp.Compare(x.End-x.Start, y.End-y.Start) })
	return sums
}

// Seal writes the sums into c. move returns where a boundary between
// bytes of the input is in c, or false if it fell inside what changed;
// kept reports whether a field's bytes are all kept as they were. A sum
// whose field was not kept, or whose region's ends fell inside what
// changed, is left as it is.
//
// An internet sum's field sits amid the words it sums: writing it makes a
// candidate larger where it is, before the words after it, whatever they
// gained. So while the last word of its region, after the field, is kept,
// that word takes up the difference and the field stays as the candidate
// has it (lowered, or 0 in the end); otherwise the field is written.
func Seal(c []byte, sums []Sum, move func(b int) (int, bool), kept func(l Field) bool) {
	for _, z := range sums {
		at, ok1 := move(z.At)
		start, ok2 := move(z.Start)
		end, ok3 := move(z.End)
		if !ok1 || !ok2 || !ok3 || start >= end {
			continue
		}
		l := Field{at, z.Width, z.Little}
		if last := (Field{z.End - 2, 2, false}); z.Kind == Internet && last.At >= z.Field.End() && kept(last) {
			w := Field{end - 2, 2, false}
			got := uint32(^uint16(Internet.Of(c, Field{}, start, end))) // the sum of every word, the field's too
			v := uint32(w.Get(c)) + uint32(^uint16(got))
			w.Put(c, 0, uint64(v&0xffff+v>>16))
			continue
		}
		if kept(z.Field) {
			l.Put(c, 0, z.Kind.Of(c, l, start, end))
		}
	}
}

// Reseal returns c, a candidate for s that differs from it in one
// stretch, with the sums of s sealed for the stretch's new length.
func Reseal(s, c []byte, sums []Sum) []byte {
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
	kept := func(l Field) bool { return l.End() <= pre || l.At >= after }
	c = slices.Clone(c)
	Seal(c, sums, move, kept)
	return c
}

// crcRegions finds, for each offset f where check holds, a region [a, e)
// of at least 2 bytes whose CRC (table tab, reflected, initial value and
// final XOR all ones, as CRC-32 and xz's CRC-64 are) is the value a field
// at f holds, big-endian or little-endian (field), where e is f or s[e:f]
// is up to maxSumGap zero bytes, and calls add with the smallest such a.
//
// A CRC register is linear over GF(2): with P(k) the register after
// s[:k] from zero and Z the register's step for a zero byte, the CRC of
// s[a:e] is ^(P(e) ^ Z^(e-a)(P(a) ^ ^0)). Z is invertible, so the CRC is v
// exactly when Z^-a(P(a) ^ ^0) = Z^-e(P(e) ^ ^v): a lookup of the right
// side among the left sides, with Z^-k kept as a matrix (the images of the
// register's bits) and stepped once per byte.
func crcRegions[T uint32 | uint64](s []byte, tab *[256]T, check []bool, field func(at int) (be, le T), add func(at int, little bool, start, end int)) {
	width := 4
	if uint64(^T(0)) > math.MaxUint32 {
		width = 8
	}
	top := 8*width - 8
	var inv [256]byte // the index of each table entry, by its top byte
	var seen [256]bool
	for i := range tab {
		t := byte(tab[i] >> top)
		if seen[t] {
			return // not invertible this way; no table of ours
		}
		seen[t], inv[t] = true, byte(i)
	}
	unstep := func(r T) T { // Z^-1
		i := inv[byte(r>>top)]
		return (r^tab[i])<<8 | T(i)
	}
	cols := make([]T, 8*width) // Z^-k: the image of each bit
	for i := range cols {
		cols[i] = 1 << i
	}
	apply := func(x T) T {
		var r T
		for ; x != 0; x &= x - 1 {
			r ^= cols[bits.TrailingZeros64(uint64(x))]
		}
		return r
	}
	// Nothing past the last field can end a region.
	n, ones := len(s), ^T(0)
	for n > 0 && !check[n] {
		n--
	}
	if n < 2 {
		return
	}
	keys := make([]T, n+1)
	first := make(map[T]int, n) // the smallest a of each left side
	var p T
	for k := 0; k <= n; k++ {
		keys[k] = apply(p ^ ones)
		if k >= 2 {
			if _, ok := first[keys[k-2]]; !ok {
				first[keys[k-2]] = k - 2
			}
		}
		for f := k; f <= n && f-k <= maxSumGap && (f == k || s[f-1] == 0); f++ {
			if !check[f] || f+width > len(s) {
				continue
			}
			be, le := field(f)
			if a, ok := first[apply(p^^be)]; ok && be != 0 {
				add(f, false, a, k)
			} else if a, ok := first[apply(p^^le)]; ok && le != 0 {
				add(f, true, a, k)
			}
		}
		if k < n {
			p = tab[byte(p)^s[k]] ^ p>>8
			for i := range cols {
				cols[i] = unstep(cols[i])
			}
		}
	}
}

// adlerRegions is crcRegions for Adler-32, from prefix sums: with S(k)
// the sum of s[:k] and W(k) that of j·s[j] for j < k, modulo 65521, the
// Adler-32 of s[a:e] has low half 1 + S(e) - S(a) and high half
// (e-a) + e·(S(e)-S(a)) - (W(e)-W(a)); the low half gives the S(a) to
// look up.
func adlerRegions(s []byte, check []bool, be32, le32 []uint32, add func(at int, little bool, start int)) {
	const m = adlerMod
	n := len(s)
	sum, wsum := make([]int64, n+1), make([]int64, n+1)
	for j, c := range s {
		sum[j+1] = (sum[j] + int64(c)) % m
		wsum[j+1] = (wsum[j] + int64(j)*int64(c)) % m
	}
	last := len(check) - 1 // nothing past the last field can end a region
	for last > 0 && !check[last] {
		last--
	}
	starts := make(map[int64][]int, min(last, m)) // the offsets a of each S(a), in order
	for e := 0; e <= last && e+4 <= n; e++ {
		if e >= 2 {
			starts[sum[e-2]] = append(starts[sum[e-2]], e-2)
		}
		if !check[e] {
			continue
		}
		for _, c := range [...]struct {
			v      uint32
			little bool
		}{{be32[e], false}, {le32[e], true}} {
			lo, hi := int64(c.v&0xffff), int64(c.v>>16)
			if lo == 0 || lo >= m || hi >= m {
				continue
			}
			as := starts[((sum[e]+1-lo)%m+m)%m]
			found := false
			for _, a := range as[:min(len(as), 64)] {
				b := (int64(e-a) + int64(e)*(lo-1) - (wsum[e] - wsum[a])) % m
				if (b+m)%m == hi {
					add(e, c.little, a)
					found = true
					break
				}
			}
			if found {
				break
			}
		}
	}
}

// A Field is where an integer field of an input is, and how it is
// encoded: Width bytes (1, 2, 4 or 8) at offset At, little-endian if
// Little.
type Field struct {
	At, Width int
	Little    bool
}

// Get returns the value of the field in s.
func (l Field) Get(s []byte) uint64 {
	b := s[l.At : l.At+l.Width]
	switch {
	case l.Width == 1:
		return uint64(b[0])
	case l.Width == 2 && l.Little:
		return uint64(binary.LittleEndian.Uint16(b))
	case l.Width == 2:
		return uint64(binary.BigEndian.Uint16(b))
	case l.Width == 4 && l.Little:
		return uint64(binary.LittleEndian.Uint32(b))
	case l.Width == 4:
		return uint64(binary.BigEndian.Uint32(b))
	case l.Little:
		return binary.LittleEndian.Uint64(b)
	}
	return binary.BigEndian.Uint64(b)
}

// Put writes v into the field in c, at the field's offset shifted by
// shift, and reports whether v fits.
func (l Field) Put(c []byte, shift int, v uint64) bool {
	if l.Width < 8 && v >= 1<<(8*l.Width) {
		return false
	}
	b := c[l.At+shift : l.At+shift+l.Width]
	switch {
	case l.Width == 1:
		b[0] = byte(v)
	case l.Width == 2 && l.Little:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case l.Width == 2:
		binary.BigEndian.PutUint16(b, uint16(v))
	case l.Width == 4 && l.Little:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case l.Width == 4:
		binary.BigEndian.PutUint32(b, uint32(v))
	case l.Little:
		binary.LittleEndian.PutUint64(b, v)
	default:
		binary.BigEndian.PutUint64(b, v)
	}
	return true
}

// End returns the offset just past the field.
func (l Field) End() int { return l.At + l.Width }
