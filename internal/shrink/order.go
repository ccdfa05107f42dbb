package shrink

import (
	"cmp"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// compareArgs is the order every accepted candidate strictly decreases in;
// it returns -1, 0 or +1 as a is smaller than, equal to or larger than b.
//
// Tuples compare first by total size, the sum over arguments of len for
// []byte and string, in bytes: removing anything from any argument is
// progress, whatever happens to the other arguments. Tuples of equal size
// compare argument by argument, left to right, by value simplicity:
//
//   - bool: false < true.
//   - integers of every width: by magnitude |v| (as a uint64, so exact at
//     math.MinInt64), then positive before negative: 0 < 1 < -1 < 2 < -2 ….
//   - floats: finite < ±Inf < NaN. Among finite values integers come before
//     non-integers; integers by magnitude then sign, like integer types;
//     non-integers by the number of significant decimal digits of their
//     shortest representation (at the float's own precision), then by the
//     number of significant bits of their mantissa (halves before quarters
//     before tenths: of two decimals as short, the one a binary fraction
//     writes exactly is the simpler), then by magnitude, then sign:
//     0.5 < -0.5 < 0.1 < 0.25 < 2.5 < 2.1 < 1.25. Distinct NaNs are equal,
//     so NaN never shrinks to NaN; +0 < -0 and +Inf < -Inf by the sign rule.
//   - []byte and string: shortlex: length first; of two of one length,
//     text (valid UTF-8 without control characters but tab, newline and
//     carriage return) before binary data; then text byte by byte in the
//     printable-first order of characters (see [byteRank]), binary data
//     byte by byte by value, 0x00 first. For valid UTF-8 text this compares
//     rune by rune by rank too: ASCII ranks below 128 and every other rune
//     ranks as its code point, which UTF-8 preserves bytewise; lowering a
//     rune never lengthens its encoding. In binary data a byte is more
//     often part of a number than a character: a length lowered to 0x00
//     is empty, where "0000" would be 808 MB.
//
// The order is well-founded: sizes are naturals, and for a fixed size every
// argument ranges over a finite set (floats are finite too). Any search that
// only accepts strictly smaller tuples therefore terminates; the passes make
// it terminate fast. Arguments of different types (never produced by the
// engine) compare by type, so the order stays total.
func compareArgs(a, b []any) int {
	if c := cmp.Compare(size(a), size(b)); c != 0 {
		return c
	}
	for i := range min(len(a), len(b)) {
		if c := compareValue(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// size is the total size of a tuple in bytes: what removal decreases. A
// composite argument counts its weight (see [weight]).
func size(t []any) int {
	n := 0
	for _, a := range t {
		n += argSize(a)
	}
	return n
}

// argSize is the size of one argument (see [size]).
func argSize(a any) int {
	switch x := a.(type) {
	case Value:
		return x.Size()
	case string:
		return len(x)
	case []byte:
		return len(x)
	}
	if composite(a) {
		return weight(reflect.ValueOf(a))
	}
	return 0
}

// smallerWith reports whether t with argument i replaced by v (with i ==
// len(t), v is a whole tuple) is smaller than t: as compareArgs would say,
// but of the changed argument alone, as the others compare equal.
func smallerWith(t []any, i int, v any) bool {
	if i == len(t) {
		return compareArgs(v.([]any), t) < 0
	}
	if c := cmp.Compare(argSize(v), argSize(t[i])); c != 0 {
		return c < 0
	}
	return compareValue(v, t[i]) < 0
}

func compareValue(a, b any) int {
	if x, ok := a.(Value); ok {
		return x.Compare(b.(Value))
	}
	if ta, tb := typeTag(a), typeTag(b); ta != tb {
		return cmp.Compare(ta, tb)
	}
	if composite(a) && composite(b) && reflect.TypeOf(a) == reflect.TypeOf(b) {
		return compareComposite(a, b)
	}
	switch x := a.(type) {
	case bool:
		return compareBool(x, b.(bool))
	case string:
		return compareText(x, b.(string))
	case []byte:
		return compareText(x, b.([]byte))
	case int:
		return compareSigned(int64(x), int64(b.(int)))
	case int8:
		return compareSigned(int64(x), int64(b.(int8)))
	case int16:
		return compareSigned(int64(x), int64(b.(int16)))
	case int32:
		return compareSigned(int64(x), int64(b.(int32)))
	case int64:
		return compareSigned(x, b.(int64))
	case uint:
		return cmp.Compare(x, b.(uint))
	case uint8:
		return cmp.Compare(x, b.(uint8))
	case uint16:
		return cmp.Compare(x, b.(uint16))
	case uint32:
		return cmp.Compare(x, b.(uint32))
	case uint64:
		return cmp.Compare(x, b.(uint64))
	case float32:
		return compareFloat(float64(x), float64(b.(float32)), 32)
	case float64:
		return compareFloat(x, b.(float64), 64)
	}
	return 0
}

// typeTag orders values of different types (never compared by the engine),
// composite ones last.
func typeTag(a any) int {
	if tag, _ := encoding.NativeTag(a); tag != 0 {
		return int(tag)
	}
	return 256
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// magnitude returns |v| as a uint64, exact for math.MinInt64.
func magnitude(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

func compareSigned(a, b int64) int {
	if c := cmp.Compare(magnitude(a), magnitude(b)); c != 0 {
		return c
	}
	return compareBool(a < 0, b < 0)
}

// Float classes, in order.
const (
	classInteger = iota
	classFraction
	classInf
	classNaN
)

func floatClass(f float64) int {
	switch {
	case math.IsNaN(f):
		return classNaN
	case math.IsInf(f, 0):
		return classInf
	case f == math.Trunc(f):
		return classInteger
	}
	return classFraction
}

// compareFloat compares floats of the given bit size (32 or 64).
func compareFloat(a, b float64, bits int) int {
	ca, cb := floatClass(a), floatClass(b)
	if ca != cb {
		return cmp.Compare(ca, cb)
	}
	switch ca {
	case classNaN:
		return 0
	case classFraction:
		if c := cmp.Compare(sigDigits(a, bits), sigDigits(b, bits)); c != 0 {
			return c
		}
		if c := cmp.Compare(sigBits(a), sigBits(b)); c != 0 {
			return c
		}
		fallthrough
	case classInteger:
		if c := cmp.Compare(math.Abs(a), math.Abs(b)); c != 0 {
			return c
		}
	}
	return compareBool(math.Signbit(a), math.Signbit(b))
}

// sigDigits is the number of significant decimal digits in the shortest
// representation of f that reads back as f at the given bit size.
func sigDigits(f float64, bits int) int {
	var buf [32]byte
	n := 0
	for _, c := range strconv.AppendFloat(buf[:0], f, 'e', -1, bits) {
		if c == 'e' {
			break
		}
		if '0' <= c && c <= '9' {
			n++
		}
	}
	return n
}

// sigBits is the number of significant bits of f's mantissa, from its
// leading one to its trailing one: 1 for 0.5 and 2, 3 for 2.5, 52 or 53 for
// 0.1. A float32 converted to float64 keeps its count.
func sigBits(f float64) int {
	b := math.Float64bits(f)
	m := b & (1<<52 - 1)
	if b>>52&0x7ff != 0 {
		m |= 1 << 52 // the implicit leading one of a normal number
	}
	if m == 0 {
		return 0
	}
	return bits.Len64(m) - bits.TrailingZeros64(m)
}

// The printable-first order of characters. Bytes and runes shrink toward '0'
// in this order: digits, lowercase letters, uppercase letters, space, the
// other printable ASCII characters, then the rest by code point (the ASCII
// control characters, DEL, then every rune above U+007F), so that an
// irrelevant character reads 0, not \x00, and an identifier stays an
// identifier for as long as it can. The rank of a character is its position
// in this order; it is a bijection on bytes (0–255) and on runes, and the
// identity from 0x80 on.
var byteRank, rankByte [256]byte

func init() {
	var order []byte
	for c := '0'; c <= '9'; c++ {
		order = append(order, byte(c))
	}
	for c := 'a'; c <= 'z'; c++ {
		order = append(order, byte(c))
	}
	for c := 'A'; c <= 'Z'; c++ {
		order = append(order, byte(c))
	}
	order = append(order, ' ')
	for c := 0; c < 256; c++ {
		if printable := 0x21 <= c && c <= 0x7e; printable && !isAlnum(byte(c)) {
			order = append(order, byte(c))
		}
	}
	for c := 0; c < 256; c++ {
		if c < 0x20 || c >= 0x7f {
			order = append(order, byte(c))
		}
	}
	for r, c := range order {
		byteRank[c], rankByte[r] = byte(r), c
	}
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// runeRank is the rank of r in the printable-first order; rankRune is its
// inverse.
func runeRank(r rune) rune {
	if 0 <= r && r < 0x80 {
		return rune(byteRank[r])
	}
	return r
}

func rankRune(k rune) rune {
	if 0 <= k && k < 0x80 {
		return rune(rankByte[k])
	}
	return k
}

// valueRank is the rank of bytes in binary data: their value.
var valueRank = func() (r [256]byte) {
	for i := range r {
		r[i] = byte(i)
	}
	return r
}()

// ranksFor returns the ranks the bytes of text (binary false) or binary
// data compare by: printable-first in text, by value in binary data.
func ranksFor(binary bool) *[256]byte {
	if binary {
		return &valueRank
	}
	return &byteRank
}

// compareText compares strings or byte slices: shortlex, text before
// binary data, bytes by rank.
func compareText[S byteString](a, b S) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	ba, bb := isBinary(a), isBinary(b)
	if ba != bb {
		if ba {
			return 1
		}
		return -1
	}
	ranks := ranksFor(ba)
	for i := range len(a) {
		if a[i] != b[i] {
			return cmp.Compare(ranks[a[i]], ranks[b[i]])
		}
	}
	return 0
}

// The order of composite values: first their weight, the number of nodes
// plus the bytes of their strings and []byte leaves (removing an element,
// setting a pointer to nil or a field to its zero value makes it smaller),
// then their leaves in preorder compared as native values (lowering a leaf,
// or a map key, makes it smaller: keys are visited in order, so a lower key
// moves no later). A nil and an empty slice or map are equal.

// SortedKeys returns the keys of map m from simplest to most complex.
func SortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	slices.SortFunc(keys, compareNodes)
	return keys
}

// weight is what removal decreases: nodes plus the bytes of strings,
// []byte and the encodings of custom values.
func weight(v reflect.Value) int {
	w := 0
	for _, n := range nodes(v) {
		w++
		if !n.leaf {
			continue
		}
		switch x := Native(n.v).(type) {
		case string:
			w += len(x)
		case []byte:
			w += len(x)
		}
	}
	return w
}

// compareNodes orders values of one composite type: by weight, then
// lexicographically by their nodes in preorder, a node by its kind and a
// leaf then by its native value.
func compareNodes(a, b reflect.Value) int {
	if c := cmp.Compare(weight(a), weight(b)); c != 0 {
		return c
	}
	na, nb := nodes(a), nodes(b)
	for i := range min(len(na), len(nb)) {
		if c := cmp.Compare(na[i].v.Kind(), nb[i].v.Kind()); c != 0 {
			return c
		}
		if na[i].leaf {
			if c := compareValue(Native(na[i].v), Native(nb[i].v)); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(na), len(nb))
}

func compareComposite(a, b any) int {
	return compareNodes(reflect.ValueOf(a), reflect.ValueOf(b))
}

// Compare compares two tuples of arguments in the order every accepted
// candidate of [Shrink] strictly decreases in (see the package
// documentation): it returns -1, 0 or +1 as a is simpler than, as simple
// as, or less simple than b.
func Compare(a, b []any) int { return compareArgs(a, b) }
