package fuzzshrink

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The primitive generators. Their values shrink toward the simplest one: 0
// (or the bound nearer to it) for numbers, the positive value before the
// negative one at the same distance; false; '0' for runes, in the
// printable-first order (digits, lowercase, uppercase, space, punctuation,
// then the rest by code point); the empty string.
//
// Their distributions, when Check generates values, mix draws near the
// target (most values of IntRange(math.MinInt64, math.MaxInt64) are small),
// log-uniform and uniform draws over the whole range, and the range's bounds
// and other boundary values (powers of two, values next to the bounds),
// each bound about once in 40 draws. A fuzz target's random bytes decode
// with the same bias (see choices.go).

type signedInt interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type unsignedInt interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// signedGen generates integers in [lo, hi].
func signedGen[I signedInt](name string, lo, hi I) *Gen[I] {
	if lo > hi {
		panic(fmt.Sprintf("fuzzshrink.%s: min %d > max %d", name, lo, hi))
	}
	r := shrink.SignedInterval(int64(lo), int64(hi))
	return newGen(name,
		func(t *T) I { return I(int64(t.drawInt(r, biased))) },
		func(t *T, v I) error {
			if v < lo || v > hi {
				return fmt.Errorf("%d is out of range", v)
			}
			t.putRank(r, r.Rank(uint64(int64(v))))
			return nil
		})
}

// unsignedGen generates unsigned integers in [lo, hi].
func unsignedGen[U unsignedInt](name string, lo, hi U) *Gen[U] {
	if lo > hi {
		panic(fmt.Sprintf("fuzzshrink.%s: min %d > max %d", name, lo, hi))
	}
	r := shrink.UnsignedInterval(uint64(lo), uint64(hi))
	return newGen(name,
		func(t *T) U { return U(t.drawInt(r, biased)) },
		func(t *T, v U) error {
			if v < lo || v > hi {
				return fmt.Errorf("%d is out of range", v)
			}
			t.putRank(r, r.Rank(uint64(v)))
			return nil
		})
}

// Int generates ints of any value.
func Int() *Gen[int] { return signedGen("Int()", math.MinInt, math.MaxInt) }

// Int8 generates int8s of any value.
func Int8() *Gen[int8] { return signedGen[int8]("Int8()", math.MinInt8, math.MaxInt8) }

// Int16 generates int16s of any value.
func Int16() *Gen[int16] { return signedGen[int16]("Int16()", math.MinInt16, math.MaxInt16) }

// Int32 generates int32s of any value.
func Int32() *Gen[int32] { return signedGen[int32]("Int32()", math.MinInt32, math.MaxInt32) }

// Int64 generates int64s of any value.
func Int64() *Gen[int64] { return signedGen[int64]("Int64()", math.MinInt64, math.MaxInt64) }

// Uint generates uints of any value.
func Uint() *Gen[uint] { return unsignedGen[uint]("Uint()", 0, math.MaxUint) }

// Uint8 generates uint8s of any value.
func Uint8() *Gen[uint8] { return unsignedGen[uint8]("Uint8()", 0, math.MaxUint8) }

// Uint16 generates uint16s of any value.
func Uint16() *Gen[uint16] { return unsignedGen[uint16]("Uint16()", 0, math.MaxUint16) }

// Uint32 generates uint32s of any value.
func Uint32() *Gen[uint32] { return unsignedGen[uint32]("Uint32()", 0, math.MaxUint32) }

// Uint64 generates uint64s of any value.
func Uint64() *Gen[uint64] { return unsignedGen[uint64]("Uint64()", 0, math.MaxUint64) }

// Byte generates bytes of any value.
func Byte() *Gen[byte] { return unsignedGen[byte]("Byte()", 0, math.MaxUint8) }

// IntRange generates ints in [min, max]. It panics if min > max.
func IntRange(min, max int) *Gen[int] {
	return signedGen(fmt.Sprintf("IntRange(%d, %d)", min, max), min, max)
}

// Int8Range generates int8s in [min, max].
func Int8Range(min, max int8) *Gen[int8] {
	return signedGen(fmt.Sprintf("Int8Range(%d, %d)", min, max), min, max)
}

// Int16Range generates int16s in [min, max].
func Int16Range(min, max int16) *Gen[int16] {
	return signedGen(fmt.Sprintf("Int16Range(%d, %d)", min, max), min, max)
}

// Int32Range generates int32s in [min, max].
func Int32Range(min, max int32) *Gen[int32] {
	return signedGen(fmt.Sprintf("Int32Range(%d, %d)", min, max), min, max)
}

// Int64Range generates int64s in [min, max].
func Int64Range(min, max int64) *Gen[int64] {
	return signedGen(fmt.Sprintf("Int64Range(%d, %d)", min, max), min, max)
}

// UintRange generates uints in [min, max].
func UintRange(min, max uint) *Gen[uint] {
	return unsignedGen(fmt.Sprintf("UintRange(%d, %d)", min, max), min, max)
}

// Uint8Range generates uint8s in [min, max].
func Uint8Range(min, max uint8) *Gen[uint8] {
	return unsignedGen(fmt.Sprintf("Uint8Range(%d, %d)", min, max), min, max)
}

// Uint16Range generates uint16s in [min, max].
func Uint16Range(min, max uint16) *Gen[uint16] {
	return unsignedGen(fmt.Sprintf("Uint16Range(%d, %d)", min, max), min, max)
}

// Uint32Range generates uint32s in [min, max].
func Uint32Range(min, max uint32) *Gen[uint32] {
	return unsignedGen(fmt.Sprintf("Uint32Range(%d, %d)", min, max), min, max)
}

// Uint64Range generates uint64s in [min, max].
func Uint64Range(min, max uint64) *Gen[uint64] {
	return unsignedGen(fmt.Sprintf("Uint64Range(%d, %d)", min, max), min, max)
}

// Bool generates bools, true and false equally often. false is simpler.
func Bool() *Gen[bool] { return boolGen("Bool()", 0.5) }

// Chance generates true with probability p and false otherwise, and
// shrinks toward false. It panics if p is not in [0, 1].
func Chance(p float64) *Gen[bool] {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("fuzzshrink.Chance: probability %v is not in [0, 1]", p))
	}
	return boolGen(fmt.Sprintf("Chance(%v)", p), p)
}

// boolGen generates true with probability p; false is simpler.
func boolGen(name string, p float64) *Gen[bool] {
	return newGen(name,
		func(t *T) bool { return t.drawBool(p) },
		func(t *T, v bool) error {
			t.putRank(shrink.BoolInterval, boolRank(v))
			return nil
		})
}

func boolRank(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Float64 generates float64s of any value: ±0, ±Inf, NaN (one NaN: payloads
// are not generated), subnormals and the extremes often, and small
// integers and simple fractions more often than other values. They shrink
// toward 0, integers and fractions with few significant bits.
func Float64() *Gen[float64] { return floatGen("Float64()", shrink.AnyFloat) }

// Float64Range generates float64s in [min, max] (never NaN); the bounds may
// be infinite. It panics if min > max or either is NaN.
func Float64Range(min, max float64) *Gen[float64] {
	if !(min <= max) {
		panic(fmt.Sprintf("fuzzshrink.Float64Range: invalid range [%v, %v]", min, max))
	}
	return floatGen(fmt.Sprintf("Float64Range(%v, %v)", min, max), shrink.FloatInterval{Lo: min, Hi: max})
}

// Float32 generates float32s of any value, as Float64 does.
func Float32() *Gen[float32] {
	return toFloat32("Float32()", shrink.FloatInterval{Lo: math.Inf(-1), Hi: math.Inf(1), NaN: true})
}

// Float32Range generates float32s in [min, max], as Float64Range does.
func Float32Range(min, max float32) *Gen[float32] {
	if !(min <= max) {
		panic(fmt.Sprintf("fuzzshrink.Float32Range: invalid range [%v, %v]", min, max))
	}
	return toFloat32(fmt.Sprintf("Float32Range(%v, %v)", min, max), shrink.FloatInterval{Lo: float64(min), Hi: float64(max)})
}

func floatGen(name string, r shrink.FloatInterval) *Gen[float64] {
	return newGen(name,
		func(t *T) float64 { return t.drawFloat(r) },
		func(t *T, v float64) error {
			if !r.Contains(v) {
				return fmt.Errorf("%v is out of range", v)
			}
			t.putFloat(r, v)
			return nil
		})
}

// toFloat32 draws a float64 choice and rounds it to float32: a float32 in r
// rounds to itself, and rounding never leaves a range whose bounds are
// float32s.
func toFloat32(name string, r shrink.FloatInterval) *Gen[float32] {
	return newGen(name,
		func(t *T) float32 { return float32(t.drawFloat(r)) },
		func(t *T, v float32) error {
			if !r.Contains(float64(v)) {
				return fmt.Errorf("%v is out of range", v)
			}
			t.putFloat(r, float64(v))
			return nil
		})
}

// Runes are drawn as an index in the printable-first order, so that they
// shrink toward '0' and that small indexes, which generation favours, are
// printable ASCII: digits, lowercase, uppercase, space, the other printable
// ASCII characters, the ASCII control characters, then every other code
// point in order, surrogates excepted.
const (
	printableASCII = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
	asciiIndexes   = 128
	maxRuneIndex   = utf8.MaxRune - 0x800 // surrogates excepted
)

// runeOrder maps indexes below 128 to ASCII runes; asciiIndex is its inverse.
var runeOrder, asciiIndex = func() ([asciiIndexes]rune, [asciiIndexes]uint64) {
	var order [asciiIndexes]rune
	var index [asciiIndexes]uint64
	n := 0
	for _, r := range printableASCII {
		order[n] = r
		n++
	}
	for r := rune(0); r < asciiIndexes; r++ {
		if r < ' ' || r == 0x7F {
			order[n] = r
			n++
		}
	}
	for i, r := range order {
		index[r] = uint64(i)
	}
	return order, index
}()

// runeOfIndex returns the rune of index i.
func runeOfIndex(i uint64) rune {
	switch {
	case i < asciiIndexes:
		return runeOrder[i]
	case i < 0xD800:
		return rune(i)
	}
	return rune(i + 0x800)
}

// indexOfRune is the inverse of runeOfIndex, for valid runes.
func indexOfRune(r rune) uint64 {
	switch {
	case r < asciiIndexes:
		return asciiIndex[r]
	case r < 0xD800:
		return uint64(r)
	}
	return uint64(r) - 0x800
}

var runeRange = shrink.UnsignedInterval(0, maxRuneIndex)

// Rune generates runes: printable ASCII two times in three, then ASCII
// control characters, the runes of two bytes of UTF-8 (Latin, Greek,
// Cyrillic, Hebrew, Arabic), the Basic Multilingual Plane, and any valid
// code point (never a surrogate), so that strings mix all four lengths of
// UTF-8. Runes shrink toward '0', then the other
// digits, lowercase and uppercase letters.
func Rune() *Gen[rune] {
	g := newGen("Rune()",
		func(t *T) rune { return runeOfIndex(t.drawInt(runeRange, dist{kind: distRunes})) },
		func(t *T, v rune) error {
			if !utf8.ValidRune(v) {
				return fmt.Errorf("%U is not a valid rune", v)
			}
			t.putRank(runeRange, runeRange.Rank(indexOfRune(v)))
			return nil
		})
	g.info.Scattered = true // Unicode's classes
	return g
}

// RuneFrom generates runes of the alphabet, the first ones more often, and
// shrinks them toward alphabet[0]: a grammar's alphabet, simplest first. It
// panics if the alphabet is empty.
func RuneFrom(alphabet []rune) *Gen[rune] {
	if len(alphabet) == 0 {
		panic("fuzzshrink.RuneFrom: empty alphabet")
	}
	a := append([]rune(nil), alphabet...)
	r := shrink.UnsignedInterval(0, uint64(len(a)-1))
	return newGen(fmt.Sprintf("RuneFrom(%q)", string(a)),
		func(t *T) rune { return a[t.drawInt(r, biased)] },
		func(t *T, v rune) error {
			for i, c := range a {
				if c == v {
					t.putRank(r, uint64(i))
					return nil
				}
			}
			return fmt.Errorf("%q is not in the alphabet", v)
		})
}

// String generates strings of runes of [Rune]: valid UTF-8, mostly
// printable ASCII, and one in 32 a whole text known to break code
// (letters outside the Basic Multilingual Plane, emoji sequences, stacked
// combining marks, right to left, invisible characters, words such as
// null and NaN). Strings shrink by losing runes, then runes shrink.
func String() *Gen[string] { return stringOf("String()", Rune(), 0, -1, true) }

// StringN generates strings of [Rune] of minRunes to maxRunes runes
// (maxRunes < 0: no maximum), with [String]'s texts that fit.
func StringN(minRunes, maxRunes int) *Gen[string] {
	return stringOf(fmt.Sprintf("StringN(%d, %d)", minRunes, maxRunes), Rune(), minRunes, maxRunes, true)
}

// StringOf generates strings of runes of g, such as words over a grammar's
// alphabet: StringOf(RuneFrom([]rune("ab()"))).
func StringOf(g *Gen[rune]) *Gen[string] {
	return stringOf("StringOf("+g.String()+")", g, 0, -1, false)
}

// StringOfN generates strings of minRunes to maxRunes runes of g
// (maxRunes < 0: no maximum).
func StringOfN(g *Gen[rune], minRunes, maxRunes int) *Gen[string] {
	return stringOf(fmt.Sprintf("StringOfN(%v, %d, %d)", g, minRunes, maxRunes), g, minRunes, maxRunes, false)
}

func stringOf(name string, g *Gen[rune], minRunes, maxRunes int, nasty bool) *Gen[string] {
	s := sliceOf(name, g, minRunes, maxRunes)
	return newGen(name,
		func(t *T) string {
			if nasty && t.generating() && len(t.gen.copy) == 0 && t.gen.nasty.IntN(nastyOneIn) == 0 {
				// Written as the runes' choices: it shrinks as any string.
				v := []rune(nastyStrings[t.gen.nasty.IntN(len(nastyStrings))])
				if len(v) >= minRunes && (maxRunes < 0 || len(v) <= maxRunes) && s.force(t, v) == nil {
					return string(v)
				}
			}
			return string(s.draw(t))
		},
		func(t *T, v string) error {
			if !utf8.ValidString(v) {
				return fmt.Errorf("%q is not valid UTF-8", v)
			}
			return s.force(t, []rune(v))
		})
}

// Bytes generates byte slices of any length: their bytes are small and
// boundary values more often than others. They shrink by losing bytes, then
// bytes shrink toward 0.
func Bytes() *Gen[[]byte] { return sliceOf("Bytes()", Byte(), 0, -1) }

// BytesN generates byte slices of minLen to maxLen bytes (maxLen < 0: no
// maximum).
func BytesN(minLen, maxLen int) *Gen[[]byte] {
	return sliceOf(fmt.Sprintf("BytesN(%d, %d)", minLen, maxLen), Byte(), minLen, maxLen)
}
