package structured

import (
	"math"
	"math/bits"
	"reflect"
)

// The scalars of the structured codec (see structured.go).
//
// Integers wider than a byte and floats share one layout of their first byte:
//
//	0x00-0xDF  a small integer: the byte is the zigzag value (0, -1, 1, -2,
//	           2, ...) of a signed integer or float, the value of an unsigned
//	           one. 224 values: -112..111, or 0..223.
//	0xE0-0xE7  k = b-0xDF more bytes follow (k is capped at the width):
//	           integers: the (zigzag) value, little endian;
//	           floats: the k high-order bytes of the IEEE 754 bits, big
//	           endian; the low-order bytes are zero.
//	0xE8-0xFF  a boundary value from a table of the type (an index modulo the
//	           table's length), never written by Encode.
//
// Why this layout:
//   - A random first byte is a small integer 7/8 of the time: small counts,
//     indexes and sizes are where the interesting branches are, and a one-byte
//     part keeps the following fields aligned under mutation.
//   - Zigzag interleaves the signs, so that "smaller in magnitude" and "shorter
//     encoding" agree for negative numbers too.
//   - Encode always picks the fewest bytes, and never a boundary tag, so an
//     integer's encoding is never longer than a larger one's of the same sign
//     (1 byte below 224, then 1+k bytes for k significant bytes). The boundary
//     tags exist only for random inputs: a fuzzer that flips one byte reaches
//     math.MaxInt64 at once instead of writing nine bytes.
//   - Integers are little endian so that cutting the data short (or zeroing
//     its tail) drops high-order bytes and leaves a smaller number. Floats are
//     big endian so that a short form keeps the sign, the exponent and the
//     leading mantissa bits: 0.5 and 1.25 take 3 bytes, 1e6 takes 5, and
//     cutting the data short drops low-order mantissa bits.
//   - Floats are exact: any bit pattern, NaN payloads and -0 included, has a
//     form (k = the width), and float32 bits are moved without a conversion
//     through float64, which would set the quiet bit of a signaling NaN (as in
//     the toolchain's internal/fuzz/encoding.go).
//   - int8 and uint8 are one raw byte: the whole range fits, and []byte is
//     then copied as is.
const (
	smallTags    = 0xE0 // first bytes below this are small integers
	boundaryTags = 0xE8 // first bytes from this on are boundary values
)

// Boundary tables: the values the tags 0xE8-0xFF decode to, as the raw
// varint payload (zigzag for signed integers, IEEE bits for floats).
var (
	int16Boundaries  = intBoundaries(16)
	int32Boundaries  = intBoundaries(32)
	int64Boundaries  = intBoundaries(64)
	uint16Boundaries = uintBoundaries(16)
	uint32Boundaries = uintBoundaries(32)
	uint64Boundaries = uintBoundaries(64)
	lengthBoundaries = uint64Boundaries // capped by the bytes left: "all the rest"

	float64Boundaries = []uint64{
		1 << 63,            // -0
		0x7FF0000000000000, // +Inf
		0xFFF0000000000000, // -Inf
		0x7FF8000000000001, // NaN, as math.NaN returns it
		0x7FF8000000000000, // the quiet NaN without payload
		0x7FF0000000000001, // a signaling NaN
		0xFFF8000000000000, // a negative quiet NaN
		math.Float64bits(0.5),
		math.Float64bits(-0.5),
		math.Float64bits(0.1),
		math.Float64bits(math.MaxFloat64),
		math.Float64bits(-math.MaxFloat64),
		math.Float64bits(math.SmallestNonzeroFloat64),
		math.Float64bits(-math.SmallestNonzeroFloat64),
		0x0010000000000000, // the smallest normal number
		0x000FFFFFFFFFFFFF, // the largest subnormal number
		math.Float64bits(math.Nextafter(1, 2)),
		math.Float64bits(math.Nextafter(1, 0)),
		math.Float64bits(math.MaxFloat32),
		math.Float64bits(1 << 53), // integers are exact up to here
		math.Float64bits(1<<53 + 2),
		math.Float64bits(1 << 63),
		math.Float64bits(-1 << 63),
		math.Float64bits(1 << 64),
	}
	float32Boundaries = []uint64{
		1 << 31,    // -0
		0x7F800000, // +Inf
		0xFF800000, // -Inf
		0x7FC00000, // NaN, as float32(math.NaN()) is
		0x7FC00001, // a quiet NaN with a payload
		0x7F800001, // a signaling NaN
		0xFFC00000, // a negative quiet NaN
		uint64(math.Float32bits(0.5)),
		uint64(math.Float32bits(-0.5)),
		uint64(math.Float32bits(0.1)),
		uint64(math.Float32bits(math.MaxFloat32)),
		uint64(math.Float32bits(-math.MaxFloat32)),
		uint64(math.Float32bits(math.SmallestNonzeroFloat32)),
		uint64(math.Float32bits(-math.SmallestNonzeroFloat32)),
		0x00800000, // the smallest normal number
		0x007FFFFF, // the largest subnormal number
		uint64(math.Float32bits(math.Nextafter32(1, 2))),
		uint64(math.Float32bits(math.Nextafter32(1, 0))),
		uint64(math.Float32bits(1 << 24)), // integers are exact up to here
		uint64(math.Float32bits(1<<24 + 2)),
		uint64(math.Float32bits(1 << 31)),
		uint64(math.Float32bits(-1 << 31)),
		uint64(math.Float32bits(1 << 32)),
		uint64(math.Float32bits(1 << 63)),
	}
)

// intBoundaries lists the boundary values of a w-bit signed integer, zigzag
// encoded: its max and min, then for each narrower width n the values around
// ±2^(n-1) and 2^n, where a narrower integer would overflow.
func intBoundaries(w int) []uint64 {
	var t []uint64
	add := func(v int64) { t = append(t, zigzag(v)) }
	add(1<<(w-1) - 1)
	add(-1 << (w - 1))
	for n := 8; n < w; n *= 2 {
		add(1<<(n-1) - 1)
		add(-1 << (n - 1))
		add(1 << (n - 1))
		add(-1<<(n-1) - 1)
		add(1<<n - 1)
		add(1 << n)
	}
	return t
}

// uintBoundaries lists the boundary values of a w-bit unsigned integer: its
// max, the max of the signed integer of its width and one more, and for each
// narrower width n the values around 2^(n-1) and 2^n.
func uintBoundaries(w int) []uint64 {
	max := ^uint64(0) >> (64 - w)
	t := []uint64{max, max >> 1, max>>1 + 1}
	for n := 8; n < w; n *= 2 {
		t = append(t, 1<<(n-1)-1, 1<<(n-1), 1<<n-1, 1<<n)
	}
	return t
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// uvarint reads an integer of width bytes in the tagged layout.
func (d *decoder) uvarint(width int, boundaries []uint64) uint64 {
	b := d.byte()
	switch {
	case b < smallTags:
		return uint64(b)
	case b < boundaryTags:
		k := min(int(b-smallTags)+1, width)
		var u uint64
		for i := range k {
			u |= uint64(d.byte()) << (8 * i)
		}
		return u
	default:
		return boundaries[int(b-boundaryTags)%len(boundaries)]
	}
}

// uvarint appends the shortest form of u: one byte below smallTags, else a
// tag and the significant bytes, little endian.
func (e *encoder) uvarint(u uint64) {
	if u < smallTags {
		e.buf = append(e.buf, byte(u))
		return
	}
	k := (bits.Len64(u) + 7) / 8
	e.buf = append(e.buf, smallTags+byte(k-1))
	for ; k > 0; k-- {
		e.buf = append(e.buf, byte(u))
		u >>= 8
	}
}

// floatBits reads the IEEE bits of a float of width bytes.
func (d *decoder) floatBits(width int, boundaries []uint64) uint64 {
	b := d.byte()
	switch {
	case b < smallTags:
		i := unzigzag(uint64(b))
		if width == 4 {
			return uint64(math.Float32bits(float32(i)))
		}
		return math.Float64bits(float64(i))
	case b < boundaryTags:
		k := min(int(b-smallTags)+1, width)
		var u uint64
		for range k {
			u = u<<8 | uint64(d.byte())
		}
		return u << (8 * (width - k))
	default:
		return boundaries[int(b-boundaryTags)%len(boundaries)]
	}
}

// floatBits appends the shortest form of a float of width bytes: a small
// integer, else a tag and the high-order bytes up to the last nonzero one.
// f is the value (float32 widened, which is exact for non-NaNs) and u its bits.
func (e *encoder) floatBits(width int, f float64, u uint64) {
	if f >= -112 && f <= 111 && f == math.Trunc(f) && u != 1<<(8*width-1) { // not -0
		e.buf = append(e.buf, byte(zigzag(int64(f))))
		return
	}
	k := width - bits.TrailingZeros64(u)/8
	e.buf = append(e.buf, smallTags+byte(k-1))
	for i := range k {
		e.buf = append(e.buf, byte(u>>(8*(width-1-i))))
	}
}

func boolCodec(c *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		v.SetBool(d.byte()&1 != 0)
	}
	c.enc = func(e *encoder, v reflect.Value) {
		b := byte(0)
		if v.Bool() {
			b = 1
		}
		e.buf = append(e.buf, b)
	}
}

func byteCodec(c *codec, k reflect.Kind) {
	if k == reflect.Int8 {
		c.dec = func(d *decoder, v reflect.Value) { v.SetInt(int64(int8(d.byte()))) }
		c.enc = func(e *encoder, v reflect.Value) { e.buf = append(e.buf, byte(v.Int())) }
		return
	}
	c.dec = func(d *decoder, v reflect.Value) { v.SetUint(uint64(d.byte())) }
	c.enc = func(e *encoder, v reflect.Value) { e.buf = append(e.buf, byte(v.Uint())) }
}

func intCodec(c *codec, bitSize int) {
	tab := map[int][]uint64{16: int16Boundaries, 32: int32Boundaries, 64: int64Boundaries}[bitSize]
	width := bitSize / 8
	c.dec = func(d *decoder, v reflect.Value) {
		v.SetInt(unzigzag(d.uvarint(width, tab)))
	}
	c.enc = func(e *encoder, v reflect.Value) {
		e.uvarint(zigzag(v.Int()))
	}
}

func uintCodec(c *codec, bitSize int) {
	tab := map[int][]uint64{16: uint16Boundaries, 32: uint32Boundaries, 64: uint64Boundaries}[bitSize]
	width := bitSize / 8
	c.dec = func(d *decoder, v reflect.Value) {
		v.SetUint(d.uvarint(width, tab))
	}
	c.enc = func(e *encoder, v reflect.Value) {
		e.uvarint(v.Uint())
	}
}

func float64Codec(c *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		v.SetFloat(math.Float64frombits(d.floatBits(8, float64Boundaries)))
	}
	c.enc = func(e *encoder, v reflect.Value) {
		f := v.Float()
		e.floatBits(8, f, math.Float64bits(f))
	}
}

var float32PtrType = reflect.TypeFor[*float32]()

// float32Codec moves float32 bits through a *float32, never through
// Value.Float and SetFloat, which convert to and from float64.
func float32Codec(c *codec, t reflect.Type) {
	ptr := func(v reflect.Value) *float32 {
		return v.Addr().Convert(float32PtrType).Interface().(*float32)
	}
	if t == float32PtrType.Elem() {
		ptr = func(v reflect.Value) *float32 { return v.Addr().Interface().(*float32) }
	}
	c.dec = func(d *decoder, v reflect.Value) {
		*ptr(v) = math.Float32frombits(uint32(d.floatBits(4, float32Boundaries)))
	}
	c.enc = func(e *encoder, v reflect.Value) {
		if !v.CanAddr() { // a part of a value passed to Encode by value
			a := reflect.New(v.Type()).Elem()
			a.Set(v)
			v = a
		}
		f := *ptr(v)
		e.floatBits(4, float64(f), uint64(math.Float32bits(f)))
	}
}

func stringCodec(c *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		if n := d.length(); n > 0 {
			// All strings share one copy of the data, made at the first:
			// one allocation per Decode, not one per string.
			if d.str == "" {
				d.str = string(d.data)
			}
			v.SetString(d.str[d.pos : d.pos+n])
			d.pos += n
		}
	}
	c.enc = func(e *encoder, v reflect.Value) {
		s := v.String()
		e.uvarint(uint64(len(s)))
		if len(s) > 0 {
			e.buf = append(e.buf, s...)
			e.minLen = max(e.minLen, len(e.buf)) // the length is capped by the bytes left
		}
	}
}
