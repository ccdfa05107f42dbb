package session

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// AppendTuple appends a compact binary form of values of the native fuzz
// types to b: a cheaper stand-in for a corpus file where one is written for
// every candidate and read back only after a crash. Each value is its
// encoding.NativeTag, then the length (a uvarint) and bytes of a string or
// []byte, or 8 little-endian bytes: a bool as 0 or 1, an integer
// sign-extended, a float's IEEE bits.
func AppendTuple(b []byte, vals []any) ([]byte, error) {
	for _, v := range vals {
		tag, u := encoding.NativeTag(v)
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

// ParseTuple decodes what AppendTuple wrote.
func ParseTuple(b []byte) ([]any, error) {
	var vals []any
	for len(b) > 0 {
		tag := b[0]
		b = b[1:]
		if tag == encoding.TagString || tag == encoding.TagBytes {
			n, w := binary.Uvarint(b)
			if w <= 0 || uint64(len(b)-w) < n {
				return nil, errors.New("truncated tuple")
			}
			data := b[w : w+int(n)]
			b = b[w+int(n):]
			if tag == encoding.TagString {
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
		v, ok := encoding.NativeValue(tag, u)
		if !ok {
			return nil, fmt.Errorf("bad tuple tag %d", tag)
		}
		vals = append(vals, v)
	}
	return vals, nil
}
