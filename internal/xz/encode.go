package xz

import "math/bits"

// encodeLZMA returns content as one LZMA2 chunk of LZMA (lc 3, lp 0, pb
// 2, the properties of the xz command), ended by the end of the data, and
// the dictionary's property byte it needs; or nil if the chunk would hold
// more than LZMA2 allows (64 KiB compressed, 2 MiB content). Matches are
// found greedily, the longest among the last 32 places the next 3 bytes
// were seen: a candidate is encoded at the speed of its target, and short
// of xz's own output by a few percent.
func encodeLZMA(content []byte) (data []byte, dictProp byte) {
	const props = (2*5+0)*9 + 3
	if len(content) == 0 || len(content) > 1<<21 {
		return nil, 0
	}
	var (
		e       rangeEncoder
		d       decoder // its probabilities, which the encoder moves as the decoder will
		maxDist uint32
	)
	d.setProps(props)
	d.reset()
	e.init()
	m := newMatcher(content)
	pbMask := uint32(1)<<d.pb - 1
	for pos := 0; pos < len(content); {
		posState := uint32(pos) & pbMask
		n, dist := m.longest(pos)
		if n < 3 && !(n == 2 && dist < 128) {
			e.bit(&d.isMatch[d.state<<4+posState], 0)
			d.encodeLiteral(&e, content, pos)
			m.insert(pos)
			pos++
			continue
		}
		e.bit(&d.isMatch[d.state<<4+posState], 1)
		if dist == d.rep[0] {
			e.bit(&d.isRep[d.state], 1)
			e.bit(&d.isRepG0[d.state], 0)
			e.bit(&d.isRep0Long[d.state<<4+posState], 1)
			d.repLength.encode(&e, uint32(n-2), posState)
			d.state = after(d.state, 8, 11)
		} else {
			e.bit(&d.isRep[d.state], 0)
			d.length.encode(&e, uint32(n-2), posState)
			d.state = after(d.state, 7, 10)
			d.encodeDistance(&e, dist, uint32(n-2))
			d.rep[3], d.rep[2], d.rep[1], d.rep[0] = d.rep[2], d.rep[1], d.rep[0], dist
		}
		maxDist = max(maxDist, dist)
		for range n {
			m.insert(pos)
			pos++
		}
	}
	packed := e.flush()
	if len(packed) > 1<<16 {
		return nil, 0
	}
	u, p := len(content)-1, len(packed)-1
	data = append([]byte{0xe0 | byte(u>>16), byte(u >> 8), byte(u), byte(p >> 8), byte(p), props}, packed...)
	for dictSize(dictProp) <= maxDist {
		dictProp++
	}
	return append(data, 0), dictProp
}

func (d *decoder) encodeLiteral(e *rangeEncoder, content []byte, pos int) {
	var prev uint32
	if pos > 0 {
		prev = uint32(content[pos-1])
	}
	p := d.lit[0x300*((uint32(pos)&(1<<d.lp-1))<<d.lc+prev>>(8-d.lc)):][:0x300]
	b, sym := uint32(content[pos]), uint32(1)
	matched := d.state >= 7
	match := uint32(0)
	if matched {
		match = uint32(content[pos-1-int(d.rep[0])])
	}
	for i := 7; i >= 0; i-- {
		bit := b >> i & 1
		if matched {
			mb := match >> i & 1
			e.bit(&p[(1+mb)<<8+sym], bit)
			matched = mb == bit
		} else {
			e.bit(&p[sym], bit)
		}
		sym = sym<<1 | bit
	}
	d.state = afterLiteral(d.state)
}

func (l *lenDecoder) encode(e *rangeEncoder, n, posState uint32) {
	switch {
	case n < 8:
		e.bit(&l.choice, 0)
		e.tree(l.low[posState][:], n)
	case n < 16:
		e.bit(&l.choice, 1)
		e.bit(&l.choice2, 0)
		e.tree(l.mid[posState][:], n-8)
	default:
		e.bit(&l.choice, 1)
		e.bit(&l.choice2, 1)
		e.tree(l.high[:], n-16)
	}
}

// encodeDistance encodes a match's distance less one, for a match of
// n+2 bytes (see decoder.distance).
func (d *decoder) encodeDistance(e *rangeEncoder, dist, n uint32) {
	slot := dist
	if dist >= 4 {
		top := uint32(bits.Len32(dist)) - 1
		slot = 2*top + dist>>(top-1)&1
	}
	e.tree(d.posSlot[min(n, 3)][:], slot)
	if slot < 4 {
		return
	}
	nbits := int(slot>>1 - 1)
	base := (2 | slot&1) << nbits
	rest := dist - base
	if slot < endPosSlot {
		e.reverse(d.posCoders[base-slot:], rest, nbits)
		return
	}
	e.direct(rest>>4, nbits-4)
	e.reverse(d.align[:], rest&15, 4)
}

// A rangeEncoder writes what a rangeDecoder reads.
type rangeEncoder struct {
	low       uint64
	rng       uint32
	cache     byte
	cacheSize int
	out       []byte
}

func (e *rangeEncoder) init() { *e = rangeEncoder{rng: 0xffffffff, cacheSize: 1} }

func (e *rangeEncoder) shiftLow() {
	if uint32(e.low) < 0xff000000 || e.low >= 1<<32 {
		carry := byte(e.low >> 32)
		for c := e.cache; e.cacheSize > 0; c = 0xff {
			e.out = append(e.out, c+carry)
			e.cacheSize--
		}
		e.cache = byte(e.low >> 24)
	}
	e.cacheSize++
	e.low = e.low & 0x00ffffff << 8
}

func (e *rangeEncoder) bit(p *prob, bit uint32) {
	bound := (e.rng >> probBits) * uint32(*p)
	if bit == 0 {
		e.rng = bound
		*p += (1<<probBits - *p) >> moveBits
	} else {
		e.low += uint64(bound)
		e.rng -= bound
		*p -= *p >> moveBits
	}
	for e.rng < topValue {
		e.rng <<= 8
		e.shiftLow()
	}
}

func (e *rangeEncoder) direct(v uint32, n int) {
	for i := n - 1; i >= 0; i-- {
		e.rng >>= 1
		if v>>i&1 != 0 {
			e.low += uint64(e.rng)
		}
		for e.rng < topValue {
			e.rng <<= 8
			e.shiftLow()
		}
	}
}

// tree encodes v in len(p)'s log2 bits, most significant first.
func (e *rangeEncoder) tree(p []prob, v uint32) {
	m := uint32(1)
	for i := bits.Len(uint(len(p))) - 2; i >= 0; i-- {
		bit := v >> i & 1
		e.bit(&p[m], bit)
		m = m<<1 | bit
	}
}

// reverse encodes n bits of v by p[1:], least significant first.
func (e *rangeEncoder) reverse(p []prob, v uint32, n int) {
	m := uint32(1)
	for range n {
		bit := v & 1
		v >>= 1
		e.bit(&p[m], bit)
		m = m<<1 | bit
	}
}

// flush writes what is left of low and returns the coded bytes.
func (e *rangeEncoder) flush() []byte {
	for range 5 {
		e.shiftLow()
	}
	return e.out
}

// A matcher finds earlier occurrences of what follows a position: the
// places each 3 bytes were seen, in chains.
type matcher struct {
	b    []byte
	head [1 << 12]int32 // the last place of a hash, plus one
	prev []int32        // the place before of the same hash, plus one
}

const (
	maxMatch = 273 // LZMA's longest match
	maxChain = 32
)

func newMatcher(b []byte) *matcher { return &matcher{b: b, prev: make([]int32, len(b))} }

func (m *matcher) hash(pos int) uint32 {
	return (uint32(m.b[pos]) | uint32(m.b[pos+1])<<8 | uint32(m.b[pos+2])<<16) * 2654435761 >> 20
}

func (m *matcher) insert(pos int) {
	if pos+3 > len(m.b) {
		return
	}
	h := m.hash(pos)
	m.prev[pos] = m.head[h]
	m.head[h] = int32(pos) + 1
}

// longest returns the longest match of what starts at pos among the
// places seen, and its distance less one.
func (m *matcher) longest(pos int) (n int, dist uint32) {
	if pos+3 > len(m.b) {
		return 0, 0
	}
	limit := min(len(m.b)-pos, maxMatch)
	at := m.head[m.hash(pos)]
	for range maxChain {
		if at == 0 {
			break
		}
		c := int(at) - 1
		k := 0
		for k < limit && m.b[c+k] == m.b[pos+k] {
			k++
		}
		if k > n {
			n, dist = k, uint32(pos-c-1)
		}
		at = m.prev[c]
	}
	return n, dist
}
