package xz

import "encoding/binary"

// readLZMA2 reads LZMA2 data at the start of b and appends what it
// decodes to out, failing past limit bytes of out; it returns out, the
// data's length in b and whether a chunk was of LZMA. The data is chunks,
// each led by a control byte:
//
//   - 0: the end;
//   - 1 and 2: an uncompressed chunk, 1 resetting the dictionary: its
//     size less one in 2 big-endian bytes, and its bytes;
//   - 0x80 to 0xff: an LZMA chunk: bits 0–4 are the top bits of its
//     uncompressed size less one, bits 5–6 what it resets (0 nothing, 1
//     the state, 2 the state and the properties, 3 the dictionary too);
//     then the rest of that size in 2 bytes, its compressed size less one
//     in 2, the properties if it sets them, and its range-coded bytes.
func readLZMA2(b, out []byte, dict uint32, limit int) (_ []byte, n int, lzma, ok bool) {
	var (
		d         decoder
		start     = len(out) // where the dictionary starts
		needReset = true     // the dictionary: the first chunk resets it
		needProps = true     // after a dictionary reset, an LZMA chunk sets them
	)
	for n < len(b) {
		control := b[n]
		if control == 0 {
			return out, n + 1, lzma, true
		}
		if control == 1 || control >= 0xe0 {
			start, needReset, needProps = len(out), false, true
		} else if needReset || control > 2 && control < 0x80 {
			return nil, 0, false, false
		}
		if control <= 2 {
			if n+3 > len(b) {
				return nil, 0, false, false
			}
			size := int(binary.BigEndian.Uint16(b[n+1:])) + 1
			if n+3+size > len(b) || len(out)+size > limit {
				return nil, 0, false, false
			}
			out = append(out, b[n+3:n+3+size]...)
			n += 3 + size
			continue
		}
		if n+5 > len(b) {
			return nil, 0, false, false
		}
		unpacked := int(control&0x1f)<<16 + int(binary.BigEndian.Uint16(b[n+1:])) + 1
		packed := int(binary.BigEndian.Uint16(b[n+3:])) + 1
		n += 5
		switch reset := control >> 5 & 3; {
		case reset >= 2:
			if n >= len(b) || !d.setProps(b[n]) {
				return nil, 0, false, false
			}
			n++
			needProps = false
			d.reset()
		case needProps:
			return nil, 0, false, false
		case reset == 1:
			d.reset()
		}
		if n+packed > len(b) || len(out)+unpacked > limit {
			return nil, 0, false, false
		}
		lzma = true
		if out, ok = d.decode(b[n:n+packed], out, start, len(out)+unpacked, dict); !ok {
			return nil, 0, false, false
		}
		n += packed
	}
	return nil, 0, false, false
}

// LZMA (see the LZMA specification of the LZMA SDK). Probabilities are
// 11-bit, each coding a bit of a context; a range decoder reads bits by
// them and moves them toward what it read.
const (
	probBits   = 11
	probInit   = 1 << probBits / 2
	moveBits   = 5
	topValue   = 1 << 24
	numStates  = 12
	posStates  = 1 << 4 // at most: pb ≤ 4
	endPosSlot = 14     // posSlots below this code their low bits with probabilities
	fullDist   = 1 << (endPosSlot >> 1)
)

type prob uint16

// A rangeDecoder decodes the bits of one LZMA chunk.
type rangeDecoder struct {
	b          []byte
	pos        int
	rng, code  uint32
	overflowed bool
}

func (r *rangeDecoder) init(b []byte) bool {
	if len(b) < 5 || b[0] != 0 {
		return false
	}
	*r = rangeDecoder{b: b, pos: 5, rng: 0xffffffff, code: binary.BigEndian.Uint32(b[1:])}
	return r.code != r.rng
}

func (r *rangeDecoder) normalize() {
	if r.rng < topValue {
		r.rng <<= 8
		if r.pos >= len(r.b) {
			r.overflowed = true
			r.code <<= 8
			return
		}
		r.code = r.code<<8 | uint32(r.b[r.pos])
		r.pos++
	}
}

func (r *rangeDecoder) bit(p *prob) uint32 {
	bound := (r.rng >> probBits) * uint32(*p)
	var bit uint32
	if r.code < bound {
		*p += (1<<probBits - *p) >> moveBits
		r.rng = bound
	} else {
		*p -= *p >> moveBits
		r.code -= bound
		r.rng -= bound
		bit = 1
	}
	r.normalize()
	return bit
}

func (r *rangeDecoder) direct(n int) uint32 {
	var v uint32
	for range n {
		r.rng >>= 1
		r.code -= r.rng
		t := 0 - r.code>>31 // all ones if code was below rng
		r.code += r.rng & t
		r.normalize()
		v = v<<1 + t + 1
	}
	return v
}

// tree decodes len(p)'s log2 bits, most significant first.
func (r *rangeDecoder) tree(p []prob) uint32 {
	m := uint32(1)
	for m < uint32(len(p)) {
		m = m<<1 + r.bit(&p[m])
	}
	return m - uint32(len(p))
}

// reverse decodes n bits by p[1:], least significant first.
func (r *rangeDecoder) reverse(p []prob, n int) uint32 {
	m, v := uint32(1), uint32(0)
	for i := range n {
		b := r.bit(&p[m])
		m = m<<1 + b
		v |= b << i
	}
	return v
}

type lenDecoder struct {
	choice, choice2 prob
	low, mid        [posStates][1 << 3]prob
	high            [1 << 8]prob
}

func (l *lenDecoder) decode(r *rangeDecoder, posState uint32) uint32 {
	switch {
	case r.bit(&l.choice) == 0:
		return r.tree(l.low[posState][:])
	case r.bit(&l.choice2) == 0:
		return 8 + r.tree(l.mid[posState][:])
	}
	return 16 + r.tree(l.high[:])
}

// A decoder is LZMA's state, which chunks without a reset continue.
type decoder struct {
	lc, lp, pb uint
	state      uint32
	rep        [4]uint32
	lit        []prob // 0x300 a literal context
	isMatch    [numStates * posStates]prob
	isRep      [numStates]prob
	isRepG0    [numStates]prob
	isRepG1    [numStates]prob
	isRepG2    [numStates]prob
	isRep0Long [numStates * posStates]prob
	posSlot    [4][1 << 6]prob
	posCoders  [1 + fullDist - endPosSlot]prob
	align      [1 << 4]prob
	length     lenDecoder
	repLength  lenDecoder
}

// setProps sets lc, lp and pb from their byte ((pb·5 + lp)·9 + lc), with
// lc + lp at most 4, as LZMA2 requires.
func (d *decoder) setProps(p byte) bool {
	if p >= 9*5*5 {
		return false
	}
	d.lc, d.lp, d.pb = uint(p%9), uint(p/9%5), uint(p/45)
	return d.lc+d.lp <= 4
}

func (d *decoder) reset() {
	d.state, d.rep = 0, [4]uint32{}
	n := 0x300 << (d.lc + d.lp)
	if cap(d.lit) < n {
		d.lit = make([]prob, n)
	}
	d.lit = d.lit[:n]
	for _, ps := range [][]prob{
		d.lit, d.isMatch[:], d.isRep[:], d.isRepG0[:], d.isRepG1[:], d.isRepG2[:], d.isRep0Long[:],
		d.posSlot[0][:], d.posSlot[1][:], d.posSlot[2][:], d.posSlot[3][:], d.posCoders[:], d.align[:],
	} {
		for i := range ps {
			ps[i] = probInit
		}
	}
	for _, l := range []*lenDecoder{&d.length, &d.repLength} {
		l.choice, l.choice2 = probInit, probInit
		for i := range l.low {
			for j := range l.low[i] {
				l.low[i][j], l.mid[i][j] = probInit, probInit
			}
		}
		for i := range l.high {
			l.high[i] = probInit
		}
	}
}

// decode decodes the chunk b until out holds end bytes; out[start:] is
// the dictionary, of at most dict bytes back.
func (d *decoder) decode(b, out []byte, start, end int, dict uint32) ([]byte, bool) {
	var r rangeDecoder
	if !r.init(b) {
		return nil, false
	}
	pbMask, lpMask := uint32(1)<<d.pb-1, uint32(1)<<d.lp-1
	for len(out) < end && !r.overflowed {
		pos := uint32(len(out) - start)
		posState := pos & pbMask
		if r.bit(&d.isMatch[d.state<<4+posState]) == 0 {
			var prev, match uint32
			if pos > 0 {
				prev = uint32(out[len(out)-1])
			}
			p := d.lit[0x300*((pos&lpMask)<<d.lc+prev>>(8-d.lc)):][:0x300]
			sym := uint32(1)
			if d.state >= 7 {
				if d.rep[0] >= pos {
					return nil, false
				}
				match = uint32(out[len(out)-1-int(d.rep[0])])
				for sym < 0x100 {
					mb := match >> 7 & 1
					match <<= 1
					bit := r.bit(&p[(1+mb)<<8+sym])
					sym = sym<<1 | bit
					if mb != bit {
						break
					}
				}
			}
			for sym < 0x100 {
				sym = sym<<1 | r.bit(&p[sym])
			}
			out = append(out, byte(sym))
			d.state = afterLiteral(d.state)
			continue
		}
		var n uint32
		if r.bit(&d.isRep[d.state]) != 0 {
			if pos == 0 {
				return nil, false
			}
			if r.bit(&d.isRepG0[d.state]) == 0 {
				if r.bit(&d.isRep0Long[d.state<<4+posState]) == 0 { // a short rep: one byte
					d.state = after(d.state, 9, 11)
					if d.rep[0] >= pos {
						return nil, false
					}
					out = append(out, out[len(out)-1-int(d.rep[0])])
					continue
				}
			} else {
				var dist uint32
				if r.bit(&d.isRepG1[d.state]) == 0 {
					dist = d.rep[1]
				} else {
					if r.bit(&d.isRepG2[d.state]) == 0 {
						dist = d.rep[2]
					} else {
						dist, d.rep[3] = d.rep[3], d.rep[2]
					}
					d.rep[2] = d.rep[1]
				}
				d.rep[1], d.rep[0] = d.rep[0], dist
			}
			n = d.repLength.decode(&r, posState)
			d.state = after(d.state, 8, 11)
		} else {
			d.rep[3], d.rep[2], d.rep[1] = d.rep[2], d.rep[1], d.rep[0]
			n = d.length.decode(&r, posState)
			d.state = after(d.state, 7, 10)
			d.rep[0] = d.distance(&r, n)
			if d.rep[0] == 0xffffffff { // an end marker, which LZMA2 does not allow
				return nil, false
			}
		}
		n += 2
		if d.rep[0] >= pos || d.rep[0] >= dict || len(out)+int(n) > end {
			return nil, false
		}
		for range n {
			out = append(out, out[len(out)-1-int(d.rep[0])])
		}
	}
	// The chunk ends where its bits do, with nothing left to decode.
	return out, !r.overflowed && r.pos == len(b) && r.code == 0
}

// distance decodes a match's distance less one, for a match of n+2 bytes.
func (d *decoder) distance(r *rangeDecoder, n uint32) uint32 {
	slot := r.tree(d.posSlot[min(n, 3)][:])
	if slot < 4 {
		return slot
	}
	bits := int(slot>>1 - 1)
	dist := (2 | slot&1) << bits
	if slot < endPosSlot {
		return dist + r.reverse(d.posCoders[dist-slot:], bits)
	}
	dist += r.direct(bits-4) << 4
	return dist + r.reverse(d.align[:], 4)
}

// afterLiteral returns the state after a literal.
func afterLiteral(state uint32) uint32 {
	switch {
	case state < 4:
		return 0
	case state < 10:
		return state - 3
	}
	return state - 6
}

// after returns the state after a match, a long rep or a short rep: lit
// if the state was one after a literal, else match.
func after(state, lit, match uint32) uint32 {
	if state < 7 {
		return lit
	}
	return match
}
