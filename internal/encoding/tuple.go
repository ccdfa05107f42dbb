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
		var u uint64
		switch v := v.(type) {
		case string:
			b = append(b, tupleString)
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
			continue
		case []byte:
			b = append(b, tupleBytes)
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
			continue
		case bool:
			if v {
				u = 1
			}
		case int:
			u = uint64(v)
		case int8:
			u = uint64(v)
		case int16:
			u = uint64(v)
		case int32:
			u = uint64(v)
		case int64:
			u = uint64(v)
		case uint:
			u = uint64(v)
		case uint8:
			u = uint64(v)
		case uint16:
			u = uint64(v)
		case uint32:
			u = uint64(v)
		case uint64:
			u = v
		case float32:
			u = uint64(math.Float32bits(v))
		case float64:
			u = math.Float64bits(v)
		default:
			return nil, fmt.Errorf("unsupported type %T", v)
		}
		b = append(b, tupleTag(v))
		b = binary.LittleEndian.AppendUint64(b, u)
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

func tupleTag(v any) byte {
	switch v.(type) {
	case bool:
		return tupleBool
	case int:
		return tupleInt
	case int8:
		return tupleInt8
	case int16:
		return tupleInt16
	case int32:
		return tupleInt32
	case int64:
		return tupleInt64
	case uint:
		return tupleUint
	case uint8:
		return tupleUint8
	case uint16:
		return tupleUint16
	case uint32:
		return tupleUint32
	case uint64:
		return tupleUint64
	case float32:
		return tupleFloat32
	}
	return tupleFloat64
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
