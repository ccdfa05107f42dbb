package encoding

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Version is the first line of every corpus file.
const Version = "go test fuzz v1"

// Marshal encodes values of the native fuzz types as a corpus file. It writes
// exactly the bytes the toolchain writes, and fails for a value of any other
// type or for no values at all.
func Marshal(vals ...any) ([]byte, error) {
	if len(vals) == 0 {
		return nil, fmt.Errorf("no values to marshal")
	}
	n := len(Version) + 1
	for _, v := range vals {
		n += 24
		switch v := v.(type) {
		case string:
			n += len(v) + len(v)/8
		case []byte:
			n += len(v) + len(v)/4
		}
	}
	b := make([]byte, 0, n)
	b = append(b, Version...)
	b = append(b, '\n')
	for _, v := range vals {
		var err error
		if b, err = AppendValue(b, v); err != nil {
			return nil, err
		}
		b = append(b, '\n')
	}
	return b, nil
}

// AppendValue appends the corpus line for v, without the newline: a Go
// conversion expression, except for NaN, infinities and negative zero,
// which the toolchain spells in ways Go does not read (package gosyntax
// prints those as Go).
//
// The spellings follow the toolchain: uint8 values are written as
// byte('c') and int32 values as rune('c') because the toolchain cannot tell
// the aliases apart. A rune that is not valid (negative, a surrogate half, or
// above unicode.MaxRune) has no quoted form (strconv would quote it as
// U+FFFD, go.dev/issue/51526), so it is written as int32(n).
func AppendValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		b = append(b, "string("...)
		b = strconv.AppendQuote(b, v)
	case []byte:
		b = append(b, "[]byte("...)
		b = strconv.AppendQuote(b, string(v))
	case bool:
		b = append(b, "bool("...)
		b = strconv.AppendBool(b, v)
	case int:
		b = append(b, "int("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int8:
		b = append(b, "int8("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int16:
		b = append(b, "int16("...)
		b = strconv.AppendInt(b, int64(v), 10)
	case int32:
		if utf8.ValidRune(v) {
			b = append(b, "rune("...)
			b = strconv.AppendQuoteRune(b, v)
		} else {
			b = append(b, "int32("...)
			b = strconv.AppendInt(b, int64(v), 10)
		}
	case int64:
		b = append(b, "int64("...)
		b = strconv.AppendInt(b, v, 10)
	case uint:
		b = append(b, "uint("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint8:
		b = append(b, "byte("...)
		b = strconv.AppendQuoteRune(b, rune(v))
	case uint16:
		b = append(b, "uint16("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint32:
		b = append(b, "uint32("...)
		b = strconv.AppendUint(b, uint64(v), 10)
	case uint64:
		b = append(b, "uint64("...)
		b = strconv.AppendUint(b, v, 10)
	case float32:
		// A NaN other than float32(math.NaN()) is written as its bits, so that
		// a failure that depends on the payload reproduces. Every other value,
		// ±Inf and -0 included, is written in the shortest form that
		// strconv.ParseFloat reads back exactly.
		if bits := math.Float32bits(v); v != v && bits != nanBits32 {
			b = append(b, "math.Float32frombits(0x"...)
			b = strconv.AppendUint(b, uint64(bits), 16)
		} else {
			b = append(b, "float32("...)
			b = strconv.AppendFloat(b, float64(v), 'g', -1, 32)
		}
	case float64:
		if bits := math.Float64bits(v); v != v && bits != nanBits64 {
			b = append(b, "math.Float64frombits(0x"...)
			b = strconv.AppendUint(b, bits, 16)
		} else {
			b = append(b, "float64("...)
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
	default:
		return nil, fmt.Errorf("unsupported type %T: want string, []byte, bool, or a numeric type", v)
	}
	return append(b, ')'), nil
}

var (
	nanBits64 = math.Float64bits(math.NaN())
	nanBits32 = math.Float32bits(float32(math.NaN()))
)
