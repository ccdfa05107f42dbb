package shrink

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"iter"
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
// before it; an IPv4 header whose words sum to all ones. Every candidate
// of a byte-level pass that changes one stretch of the input, and every
// move of the fields pass, is sealed: its sums are computed again over
// their regions as the change moved them, and written into their fields
// as they moved. A candidate that removes one stretch of such an input
// also has the lengths, totals, offsets and sizes of the fields model
// fixed up, as the fields pass's removals do.

// A sumKind is the checksum a sum field holds.
type sumKind uint8

const (
	sumCRC32    sumKind = iota // CRC-32, IEEE polynomial
	sumAdler32                 // Adler-32
	sumCRC64                   // CRC-64, ECMA-182 polynomial, as xz has it
	sumInternet                // ones' complement sum of 16-bit words, RFC 1071
)

// A sum is a field that holds a checksum of the region [start, end): right
// before the field, or with zero bytes between them (maxSumGap). An
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

// maxSumsInput bounds the inputs whose sums are read: findSums takes about
// 1 µs a byte. A larger input is read once the other passes have cut it
// down.
const maxSumsInput = 32 << 10

// maxSumGap is how many zero bytes may lie between a CRC field and its
// region: xz's block check follows the end of the block's data and its
// padding to 4 bytes.
const maxSumGap = 4

// findSums returns the sums of s, smallest region first: a 4-byte field
// that holds the CRC-32 or the Adler-32, or an 8-byte field that holds
// the CRC-64, of at least 2 bytes right before it (the longest such
// region), or for a CRC of bytes followed by up to maxSumGap zero bytes
// before it; and the checksums of IPv4 headers (version 4, a header length
// of 5 words or more). It takes O(n) time: the checksums of all the
// regions that end at a field are not computed one by one.
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
	var sums []sum
	found := map[int]bool{} // fields found, by offset
	add := func(at, width int, little bool, k sumKind, start, end int) {
		if !found[at] {
			found[at] = true
			sums = append(sums, sum{layout{at, width, little}, k, start, end})
		}
	}
	field32 := func(at int) (uint32, uint32) { return be32[at], le32[at] }
	field64 := func(at int) (uint64, uint64) { return be64[at], le64[at] }
	crcRegions(s, (*[256]uint32)(crc32Table), check, field32, func(at int, little bool, start, end int) { add(at, 4, little, sumCRC32, start, end) })
	adlerRegions(s, check, be32, le32, func(at int, little bool, start int) { add(at, 4, little, sumAdler32, start, at) })
	crcRegions(s, (*[256]uint64)(crc64Table), check, field64, func(at int, little bool, start, end int) { add(at, 8, little, sumCRC64, start, end) })
	for start := 0; start+20 <= n; start++ {
		words := int(s[start] & 0x0f)
		if s[start]>>4 != 4 || words < 5 || start+4*words > n {
			continue
		}
		l := layout{start + 10, 2, false}
		if sumInternet.of(s, l, start, start+4*words) == l.get(s) && !found[l.at] {
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
//
// An internet sum's field sits amid the words it sums: writing it makes a
// candidate larger where it is, before the words after it, whatever they
// gained. So while the last word of its region, after the field, is kept,
// that word takes up the difference and the field stays as the candidate
// has it (lowered, or 0 in the end); otherwise the field is written.
func seal(c []byte, sums []sum, move func(b int) (int, bool), kept func(l layout) bool) {
	for _, z := range sums {
		at, ok1 := move(z.at)
		start, ok2 := move(z.start)
		end, ok3 := move(z.end)
		if !ok1 || !ok2 || !ok3 || start >= end {
			continue
		}
		l := layout{at, z.width, z.little}
		if last := (layout{z.end - 2, 2, false}); z.kind == sumInternet && last.at >= z.layout.end() && kept(last) {
			w := layout{end - 2, 2, false}
			got := uint32(^uint16(sumInternet.of(c, layout{}, start, end))) // the sum of every word, the field's too
			v := uint32(w.get(c)) + uint32(^uint16(got))
			w.put(c, 0, uint64(v&0xffff+v>>16))
			continue
		}
		if kept(z.layout) {
			l.put(c, 0, z.kind.of(c, l, start, end))
		}
	}
}

// resealed seals the candidates of a byte-level pass for s: a candidate
// that is s without one stretch has the fields of s's model fixed up and
// its sums sealed, as the fields pass's removals do (a record removed with
// the lengths that count it); any other that differs from s in one
// stretch, with what is before and after it the same, has its sums
// written for the stretch's new length.
func resealed[S byteString](seq iter.Seq2[pos, any], s0 S, sums []sum) iter.Seq2[pos, any] {
	s := []byte(s0)
	var m *model
	seal := func(c []byte) []byte {
		if r, ok := removal(s, c); ok {
			if m == nil {
				m = newModel(s, littleFirst(s), sums)
			}
			if fixed := m.remove([]rng{r}, nil, 0, true, true); fixed != nil {
				m.seal(fixed, []rng{r})
				return fixed
			}
		}
		return resealOne(s, c, sums)
	}
	return func(yield func(pos, any) bool) {
		for p, v := range seq {
			if c, ok := v.(S); ok {
				v = S(seal([]byte(c)))
			}
			if !yield(p, v) {
				return
			}
		}
	}
}

// removal returns the one stretch of s that c is s without, if it is.
func removal(s, c []byte) (rng, bool) {
	d := len(s) - len(c)
	if d <= 0 {
		return rng{}, false
	}
	pre := 0
	for pre < len(c) && s[pre] == c[pre] {
		pre++
	}
	if string(s[pre+d:]) != string(c[pre:]) {
		return rng{}, false
	}
	return rng{pre, pre + d}, true
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
