package shrink

import (
	"math"
	"math/bits"
)

// Generators draw typed choices from a choice sequence: one []byte fuzz
// argument that is the concatenation of the choices' tokens. A choice is an
// integer in an inclusive range (bools, bytes, lengths, continue flags and
// branch indexes are such integers), or a float64, with optional bounds.
//
// A token's first byte says how long it is, whatever the choice that reads
// it, so that the tokens of a sequence stay aligned when a choice is read
// by another generator than the one that wrote it (after a span is deleted,
// say):
//
//	0x00-0xDF  a small choice: the byte itself is the choice's rank (see below);
//	0xE0-0xE8  k = b-0xDF bytes follow (1 to 9), big endian: the payload;
//	0xE9-0xFF  a boundary value of the choice (its bounds, values next to
//	           them, powers of two), an index into a table.
//
// Reading past the end of the data yields zero bytes, so a choice there is
// the simplest one, and a sequence does not change when trailing zero bytes
// are trimmed.
//
// Integers. An integer choice in [lo, hi] shrinks toward its target, 0
// clamped into the range ("toward zero or the nearer bound"). Its rank
// numbers its values from the simplest: the target has rank 0, then the
// values at distance 1, 2, … from it, the one above before the one below
// (0, 1, -1, 2, -2, … for a signed range around 0; lo, lo+1, … for a range
// above 0). A small token or a payload is a rank modulo the number of values
// in the range, so any bytes decode to a valid value.
//
// Floats. A small token b is the integer of rank b (0, 1, -1, 2, …). A
// payload P has a class in its low bit:
//
//	0  an integer: P>>1&1 is the sign and P>>2 the index of the magnitude
//	   among the integer-valued floats (see [floatIndex]); the index just
//	   past math.MaxFloat64 is ±Inf, any larger one NaN;
//	1  a float that is not an integer, by its IEEE bits rearranged so
//	   that simple values have small payloads: Q = P>>1 is, from the high
//	   bits down, the significant bits of the mantissa (without its
//	   trailing zeros), their number (6 bits), an exponent rank (11 bits:
//	   0, 1, -1, 2, … around 2⁰, subnormals last) and the sign. So floats
//	   with fewer significant bits (0.5, 1.25, 2⁻³⁰) are shorter, and of
//	   those as long, the one with the smaller mantissa, then the exponent
//	   nearer to 0, is smaller (1000.5 < 1008.5 < 0.75·2¹¹). Bits that
//	   make an integer (2⁹⁶) read as the integer-class payload P-1: every
//	   integer has one token of its own, so integers are ordered by
//	   magnitude (1000 before 2⁹⁶), as they shrink.
//
// A choice with bounds decodes a value outside them, and NaN, as the
// simplest value inside them.
//
// Canonical tokens. Every value has one canonical token: its shortest one
// (never a boundary token), and among those of that length the
// lexicographically smallest. Canonical tokens preserve the order: for
// integers, a smaller rank never has a longer or lexicographically larger
// canonical token; and decoding never makes a token larger, whatever
// choice reads it: canonical(decode(b)) ≤ b in shortlex for every token b
// that is not a boundary token. That is what lets the engine replace an
// accepted candidate by its normal form (the canonical tokens of the
// choices it consumed) and stay on a strictly decreasing path.
//
// Boundary tokens are the exception: one byte decodes to math.MaxInt64,
// whose canonical token takes nine. They exist for the fuzzer, which
// reaches the bounds of every range by mutating one byte; the shrinker never
// writes them, so only an original input can hold them, and the engine
// starts from its normal form.
const (
	SmallTokens    = 0xE0 // first bytes below this are small tokens
	BoundaryTokens = 0xE9 // first bytes from this on are boundary tokens
	maxPayload     = 9
)

// A ChoiceKind tells integer choices from float ones.
type ChoiceKind uint8

const (
	KindInt ChoiceKind = iota
	KindFloat
)

// Interval is the domain of an integer choice: [lo, hi], two's complement
// bit patterns of int64 values if signed, of uint64 values otherwise.
type Interval struct {
	Signed bool
	Lo, Hi uint64
}

func SignedInterval(lo, hi int64) Interval    { return Interval{true, uint64(lo), uint64(hi)} }
func UnsignedInterval(lo, hi uint64) Interval { return Interval{false, lo, hi} }

var BoolInterval = UnsignedInterval(0, 1)

// Size is the number of values minus one: the largest rank.
func (r Interval) Size() uint64 { return r.Hi - r.Lo }

// target is the simplest value of the range.
func (r Interval) target() uint64 {
	if r.Signed {
		return uint64(min(max(0, int64(r.Lo)), int64(r.Hi)))
	}
	return r.Lo
}

// sides returns how many values lie above and below the target.
func (r Interval) sides() (up, down uint64) {
	t := r.target()
	return r.Hi - t, t - r.Lo
}

// Value returns the Value of rank k (at most size()).
func (r Interval) Value(k uint64) uint64 {
	t := r.target()
	if k == 0 {
		return t
	}
	up, down := r.sides()
	both := min(up, down) // values at distances 1..both exist on both sides
	switch {
	case k <= 2*both && k&1 == 1:
		return t + (k+1)/2
	case k <= 2*both:
		return t - k/2
	case up > down:
		return t + (k - both)
	}
	return t - (k - both)
}

// Rank returns the Rank of value v, which must lie in the range.
func (r Interval) Rank(v uint64) uint64 {
	t := r.target()
	up, down := r.sides()
	both := min(up, down)
	above := r.Signed && int64(v) >= int64(t) || !r.Signed && v >= t
	var d uint64 // distance to the target
	if above {
		d = v - t
	} else {
		d = t - v
	}
	switch {
	case d == 0:
		return 0
	case d > both:
		return d + both
	case above:
		return 2*d - 1
	}
	return 2 * d
}

// contains reports whether v lies in the range.
func (r Interval) contains(v uint64) bool {
	if r.Signed {
		return int64(r.Lo) <= int64(v) && int64(v) <= int64(r.Hi)
	}
	return r.Lo <= v && v <= r.Hi
}

// Boundaries lists the values that boundary tokens decode to: the bounds,
// the values next to them and to the target, and for wide ranges the values
// around the powers of two where narrower integer types overflow.
func (r Interval) Boundaries() []uint64 {
	var vs []uint64
	add := func(v uint64) {
		if r.contains(v) {
			vs = append(vs, v)
		}
	}
	add(r.Hi)
	add(r.Lo)
	add(r.Hi - 1)
	add(r.Lo + 1)
	t := r.target()
	add(t + 1)
	add(t - 1)
	for n := 8; n < 64; n *= 2 {
		p := uint64(1) << (n - 1)
		add(p - 1)
		add(p)
		add(2*p - 1)
		add(2 * p)
		if r.Signed {
			add(-p)
			add(-p - 1)
		}
	}
	return vs
}

// Token is a Token's content: its first byte and its payload (hi is the
// ninth byte from the end of a 9-byte payload, lo the last eight).
type Token struct {
	First byte
	hi    byte
	lo    uint64
}

// ReadToken reads the token at data[pos:] and returns it with the position
// after it, which may lie past the end; missing bytes read as zero.
func ReadToken(data []byte, pos int) (Token, int) {
	var tk Token
	if pos < len(data) {
		tk.First = data[pos]
	}
	pos++
	if tk.First < SmallTokens || tk.First >= BoundaryTokens {
		return tk, pos
	}
	k := int(tk.First-SmallTokens) + 1
	end := pos + k
	if pos < len(data) && end <= len(data) && k <= 8 {
		for _, b := range data[pos:end] {
			tk.lo = tk.lo<<8 | uint64(b)
		}
		return tk, end
	}
	for i := pos; i < end; i++ {
		var b byte
		if i < len(data) {
			b = data[i]
		}
		tk.hi = byte(tk.lo >> 56) // only a ninth byte reaches it
		tk.lo = tk.lo<<8 | uint64(b)
	}
	return tk, end
}

// DecodeInt returns the rank of the integer choice in r that token tk
// encodes.
func DecodeInt(r Interval, tk Token) uint64 {
	var u uint64
	switch {
	case tk.First < SmallTokens:
		u = uint64(tk.First)
	case tk.First < BoundaryTokens:
		u = tk.lo // a ninth byte only makes the token longer than a canonical one
	default:
		bs := r.Boundaries()
		if len(bs) == 0 {
			return 0
		}
		return r.Rank(bs[int(tk.First-BoundaryTokens)%len(bs)])
	}
	if n := r.Size(); n != math.MaxUint64 {
		u %= n + 1
	}
	return u
}

// AppendIntToken appends the canonical token of rank k.
func AppendIntToken(b []byte, k uint64) []byte {
	if k < SmallTokens {
		return append(b, byte(k))
	}
	n := (bits.Len64(k) + 7) / 8
	b = append(b, SmallTokens-1+byte(n))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(k>>(8*i)))
	}
	return b
}

// intTokenLen is len(appendIntToken(nil, k)).
func intTokenLen(k uint64) int {
	if k < SmallTokens {
		return 1
	}
	return 1 + (bits.Len64(k)+7)/8
}

// FloatInterval is the domain of a float choice: the values in [lo, hi],
// and NaN if nan.
type FloatInterval struct {
	Lo, Hi float64
	NaN    bool
}

var AnyFloat = FloatInterval{Lo: math.Inf(-1), Hi: math.Inf(1), NaN: true}

// Contains reports whether f lies in the range.
func (r FloatInterval) Contains(f float64) bool {
	if math.IsNaN(f) {
		return r.NaN
	}
	return r.Lo <= f && f <= r.Hi
}

// Simplest returns the Simplest value of the range: 0 if it holds 0, else
// the integer nearest to 0, else the dyadic fraction with the smallest
// denominator nearest to 0 (0.5 in [0.3, 0.7]).
func (r FloatInterval) Simplest() float64 {
	switch {
	case r.Lo <= 0 && 0 <= r.Hi:
		return 0
	case r.Hi < 0:
		return -FloatInterval{Lo: -r.Hi, Hi: -r.Lo}.Simplest()
	}
	if c := math.Ceil(r.Lo); c <= r.Hi {
		return c
	}
	for step := 0.5; step > 0; step /= 2 {
		if c := math.Ceil(r.Lo/step) * step; c <= r.Hi {
			return c
		}
	}
	return r.Lo
}

// Clamp maps a decoded value into the range: itself if it lies in it, the
// simplest value of the range otherwise.
func (r FloatInterval) Clamp(f float64) float64 {
	if r.Contains(f) {
		return f
	}
	return r.Simplest()
}

// The integer-valued floats, indexed in increasing order: up to 2⁵³ every
// integer is a float and is its own index; above, every float is an
// integer and consecutive floats have consecutive bit patterns.
const (
	exactInts     = 1 << 53
	maxFloatIndex = exactInts + 0x7FEFFFFFFFFFFFFF - 0x4340000000000000 // math.MaxFloat64
)

// floatIndex returns the index of the integer-valued float magnitude m.
func floatIndex(m float64) uint64 {
	if m <= exactInts {
		return uint64(m)
	}
	return exactInts + math.Float64bits(m) - math.Float64bits(exactInts)
}

// fromFloatIndex is the inverse of floatIndex, for i ≤ maxFloatIndex.
func fromFloatIndex(i uint64) float64 {
	if i <= exactInts {
		return float64(i)
	}
	return math.Float64frombits(math.Float64bits(exactInts) + i - exactInts)
}

// smallFloat is the integer of small rank k: 0, 1, -1, 2, -2, ….
func smallFloat(k uint64) float64 {
	switch {
	case k == 0:
		return 0 // not -0
	case k&1 == 1:
		return float64((k + 1) / 2)
	}
	return -float64(k / 2)
}

// exponentRank orders biased exponents: 2⁰ first, then 2¹, 2⁻¹, 2², …,
// 2¹⁰²³, and subnormals (biased exponent 0) last; 2047 (Inf and NaN) has
// no rank.
func exponentRank(biased uint64) uint64 {
	e := int64(biased) - 1023
	switch {
	case biased == 0:
		return 2046
	case e == 0:
		return 0
	case e == 1023:
		return 2045
	case e > 0:
		return uint64(2*e - 1)
	}
	return uint64(-2 * e)
}

// exponentOfRank is the inverse of exponentRank, for ranks up to 2046.
func exponentOfRank(k uint64) uint64 {
	switch {
	case k == 0:
		return 1023
	case k == 2045:
		return 2046
	case k == 2046:
		return 0
	case k&1 == 1:
		return 1023 + (k+1)/2
	}
	return 1023 - k/2
}

// DecodeFloat returns the float that token tk encodes, before bounds.
func DecodeFloat(tk Token) float64 {
	switch {
	case tk.First < SmallTokens:
		return smallFloat(uint64(tk.First))
	case tk.First >= BoundaryTokens:
		return floatBoundaries[int(tk.First-BoundaryTokens)%len(floatBoundaries)]
	}
	if tk.lo&1 == 0 {
		return integerFloat(tk.hi, tk.lo)
	}
	q, qhi := tk.lo>>1|uint64(tk.hi)<<63, uint64(tk.hi>>1)
	e := q >> 1 & 0x7FF
	if e == 2047 {
		e = 0 // no Inf or NaN: the token of 2⁰ is smaller
	}
	sb := min(q>>12&63, 52) // more than 52 bits: the token of 52 is smaller
	m := (q>>18 | qhi<<46) & (1<<sb - 1) << (52 - sb)
	f := math.Float64frombits(q<<63 | exponentOfRank(e)<<52 | m)
	if f == math.Trunc(f) {
		// An integer's canonical token is of the integer class: this one
		// reads as the integer-class payload just below it, whose token
		// is no larger.
		return integerFloat(tk.hi, tk.lo-1)
	}
	return f
}

// integerFloat decodes the integer-class payload (hi, lo): the sign, then
// the index.
func integerFloat(hi byte, lo uint64) float64 {
	sign := 1.0
	if lo>>1&1 == 1 {
		sign = -1
	}
	i := lo>>2 | uint64(hi)<<62
	switch {
	case hi>>2 != 0 || i > maxFloatIndex+1:
		return math.NaN()
	case i == maxFloatIndex+1:
		return math.Inf(int(sign))
	}
	return math.Copysign(fromFloatIndex(i), sign)
}

// floatBoundaries are the values of boundary tokens of floats.
var floatBoundaries = []float64{
	math.NaN(),
	math.Inf(1),
	math.Inf(-1),
	math.Copysign(0, -1),
	math.MaxFloat64,
	-math.MaxFloat64,
	math.SmallestNonzeroFloat64,
	-math.SmallestNonzeroFloat64,
	0x1p-1022,                                // the smallest normal number
	math.Float64frombits(0x000FFFFFFFFFFFFF), // the largest subnormal
	math.Nextafter(1, 2),
	math.Nextafter(1, 0),
	0.5,
	-0.5,
	0.1,
	1 << 53,
	1<<53 + 2,
	1 << 63,
	-1 << 63,
	math.MaxFloat32,
	math.Pi,
	1e-300,
	1e300,
}

// floatPayload returns the payloads of f's integer-class and other-class
// encodings (ok is false for a class that cannot encode f), as (hi, lo).
func floatPayloads(f float64) (intHi byte, intLo uint64, intOK bool, otherHi byte, otherLo uint64, otherOK bool) {
	var sign uint64
	if math.Signbit(f) {
		sign = 1
	}
	m := math.Abs(f)
	var i uint64
	switch {
	case math.IsNaN(f):
		i, sign, intOK = maxFloatIndex+2, 0, true
	case math.IsInf(f, 0):
		i, intOK = maxFloatIndex+1, true
	case m == math.Trunc(m):
		i, intOK = floatIndex(m), true
	}
	intHi, intLo = byte(i>>62), i<<2|sign<<1
	if !math.IsNaN(f) && !math.IsInf(f, 0) {
		u := math.Float64bits(f)
		m, sb := u&(1<<52-1), uint64(0)
		if m != 0 {
			tz := bits.TrailingZeros64(m)
			m, sb = m>>tz, uint64(52-tz)
		}
		q, qhi := m<<18|sb<<12|exponentRank(u>>52&0x7FF)<<1|sign, m>>46
		otherHi, otherLo, otherOK = byte(qhi<<1|q>>63), q<<1|1, true
	}
	return
}

// payloadLen is the number of significant bytes of a payload.
func payloadLen(hi byte, lo uint64) int {
	if hi != 0 {
		return 9
	}
	return max(1, (bits.Len64(lo)+7)/8)
}

// AppendFloatToken appends the canonical token of f.
func AppendFloatToken(b []byte, f float64) []byte {
	// A small integer: rank 2m-1 for m > 0, 2m for -m, 0 for +0.
	if m := math.Abs(f); m == math.Trunc(m) && (f > 0 && m <= 112 || f < 0 && m <= 111 || f == 0 && !math.Signbit(f)) {
		k := 2 * byte(m)
		if f > 0 {
			k--
		}
		return append(b, k)
	}
	// Integers take the integer class, so that they are ordered by
	// magnitude (1001 before 1024, 1000 before 2⁹⁶, whose other-class
	// token is shorter); other values take the other class.
	ih, il, iok, oh, ol, _ := floatPayloads(f)
	hi, lo := oh, ol
	if iok {
		hi, lo = ih, il
	}
	n := payloadLen(hi, lo)
	b = append(b, SmallTokens-1+byte(n))
	if n == 9 {
		b = append(b, hi)
		n = 8
	}
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(lo>>(8*i)))
	}
	return b
}

// compareTokens compares two tokens in shortlex order.
func compareTokens(a, b []byte) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
