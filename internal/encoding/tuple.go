package encoding

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// AppendTuple appends a compact binary form of values of the native fuzz
// types to b: a cheaper stand-in for a corpus file where one is written for
// every candidate and read back only after a crash (fuzzshrink's in-process
// session). Each value is a type tag, then the length and bytes of a string
// or []byte, or 8 little-endian bytes: a bool as 0 or 1, an integer
// sign-extended, a float's IEEE bits.
func AppendTuple(b []byte, vals []any) ([]byte, error) {
	for _, v := range vals {
		tag, u := NativeTag(v)
		switch x := v.(type) {
		case string:
			b = append(b, tag)
			b = binary.AppendUvarint(b, uint64(len(x)))
			b = append(b, x...)
		case []byte:
			b = append(b, tag)
			b = binary.AppendUvarint(b, uint64(len(x)))
			b = append(b, x...)
		default:
			if tag == 0 {
				return nil, fmt.Errorf("unsupported type %T", v)
			}
			b = append(b, tag)
			b = binary.LittleEndian.AppendUint64(b, u)
		}
	}
	return b, nil
}

const (
	tupleString byte = iota + 1
	tupleBytes
	tupleBool
	tupleInt
	tupleInt8
	tupleInt16
	tupleInt32
	tupleInt64
	tupleUint
	tupleUint8
	tupleUint16
	tupleUint32
	tupleUint64
	tupleFloat32
	tupleFloat64
)

// NativeTag returns the tag of a value of a native fuzz type (nonzero, one
// per type) and, for a bool, an integer or a float, its 8 bytes as a uint64:
// a bool as 0 or 1, an integer sign-extended, a float's IEEE bits. For any
// other value it returns 0, 0. It is the one type switch over the native
// types that the tuple form, fuzzshrink's cache keys and its order share.
func NativeTag(v any) (tag byte, bits uint64) {
	switch x := v.(type) {
	case string:
		return tupleString, 0
	case []byte:
		return tupleBytes, 0
	case bool:
		if x {
			bits = 1
		}
		return tupleBool, bits
	case int:
		return tupleInt, uint64(x)
	case int8:
		return tupleInt8, uint64(x)
	case int16:
		return tupleInt16, uint64(x)
	case int32:
		return tupleInt32, uint64(x)
	case int64:
		return tupleInt64, uint64(x)
	case uint:
		return tupleUint, uint64(x)
	case uint8:
		return tupleUint8, uint64(x)
	case uint16:
		return tupleUint16, uint64(x)
	case uint32:
		return tupleUint32, uint64(x)
	case uint64:
		return tupleUint64, x
	case float32:
		return tupleFloat32, uint64(math.Float32bits(x))
	case float64:
		return tupleFloat64, math.Float64bits(x)
	}
	return 0, 0
}

// ParseTuple decodes what AppendTuple wrote.
func ParseTuple(b []byte) ([]any, error) {
	var vals []any
	for len(b) > 0 {
		tag := b[0]
		b = b[1:]
		if tag == tupleString || tag == tupleBytes {
			n, w := binary.Uvarint(b)
			if w <= 0 || uint64(len(b)-w) < n {
				return nil, errors.New("truncated tuple")
			}
			data := b[w : w+int(n)]
			b = b[w+int(n):]
			if tag == tupleString {
				vals = append(vals, string(data))
			} else {
				vals = append(vals, append([]byte{}, data...))
			}
			continue
		}
		if len(b) < 8 {
			return nil, errors.New("truncated tuple")
		}
		u := binary.LittleEndian.Uint64(b)
		b = b[8:]
		var v any
		switch tag {
		case tupleBool:
			v = u != 0
		case tupleInt:
			v = int(u)
		case tupleInt8:
			v = int8(u)
		case tupleInt16:
			v = int16(u)
		case tupleInt32:
			v = int32(u)
		case tupleInt64:
			v = int64(u)
		case tupleUint:
			v = uint(u)
		case tupleUint8:
			v = uint8(u)
		case tupleUint16:
			v = uint16(u)
		case tupleUint32:
			v = uint32(u)
		case tupleUint64:
			v = u
		case tupleFloat32:
			v = math.Float32frombits(uint32(u))
		case tupleFloat64:
			v = math.Float64frombits(u)
		default:
			return nil, fmt.Errorf("bad tuple tag %d", tag)
		}
		vals = append(vals, v)
	}
	return vals, nil
}
