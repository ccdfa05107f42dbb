package ossfuzz

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// The formats of a testcase that import reads (-format).

// maxStringStart is go-fuzz-headers' MaxTotalLen: GetString fails for a
// string that starts beyond it.
const maxStringStart = 2000000

// A v1Reader is go-fuzz-headers' ConsumeFuzzer as go-118-fuzz-build's
// F.Fuzz uses it: one cursor over the whole testcase.
type v1Reader struct {
	data []byte
	p    int
}

// next returns the next k bytes (GetNBytes), or false if fewer remain.
func (r *v1Reader) next(k int) ([]byte, bool) {
	if len(r.data)-r.p < k {
		return nil, false
	}
	r.p += k
	return r.data[r.p-k : r.p], true
}

// endian reads the byte that follows a uint16, a uint64 or a float
// (GetBool): even is little-endian, odd big-endian.
func (r *v1Reader) endian() (binary.ByteOrder, bool) {
	b, ok := r.next(1)
	if !ok {
		return nil, false
	}
	if b[0]%2 == 0 {
		return binary.LittleEndian, true
	}
	return binary.BigEndian, true
}

// fixed reads a value of n bytes and, if order is set, an endianness byte
// after it, and returns it as a uint64.
func (r *v1Reader) fixed(n int, withOrder bool) (uint64, bool) {
	b, ok := r.next(n)
	if !ok {
		return 0, false
	}
	var order binary.ByteOrder = binary.BigEndian
	if withOrder {
		if order, ok = r.endian(); !ok {
			return 0, false
		}
	}
	switch n {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(order.Uint16(b)), true
	case 4:
		return uint64(order.Uint32(b)), true
	}
	return order.Uint64(b), true
}

// DecodeV1 decodes a testcase as a v1 build does for a fuzz function with
// arguments of types, and returns the values and the number of bytes read
// (the rest is ignored). Its error says where the testcase ran out: the
// build would not have called the fuzz function with it.
func DecodeV1(data []byte, types []reflect.Type) ([]any, int, error) {
	r := &v1Reader{data: data}
	vals := make([]any, len(types))
	for i, t := range types {
		start := r.p
		v := reflect.New(t).Elem()
		var u uint64
		ok := true
		// The sizes as F.Fuzz reads each type: GetByte for int8 and
		// uint8, GetUint16 for 16 bits, GetUint32 for 32 (with no
		// endianness byte), GetUint64 for int, uint and 64 bits.
		switch t.Kind() {
		case reflect.String, reflect.Slice:
			b, err := r.dynamic(t)
			if err != nil {
				return nil, 0, fmt.Errorf("argument %d (%s) at offset %d: %v", i+1, encoding.TypeName(t), start, err)
			}
			if t.Kind() == reflect.String {
				v.SetString(string(b))
			} else {
				v.SetBytes(append([]byte{}, b...))
			}
			vals[i] = v.Interface()
			continue
		case reflect.Bool:
			u, ok = r.fixed(1, false)
			v.SetBool(u%2 == 0) // GetBool: even is true
		case reflect.Int8, reflect.Uint8:
			u, ok = r.fixed(1, false)
		case reflect.Int16, reflect.Uint16:
			u, ok = r.fixed(2, true)
		case reflect.Int32, reflect.Uint32:
			u, ok = r.fixed(4, false)
		case reflect.Float32:
			u, ok = r.fixed(4, true)
			// As the build does: through float64, a NaN's payload could change.
			v.Set(reflect.ValueOf(math.Float32frombits(uint32(u))))
		case reflect.Float64:
			u, ok = r.fixed(8, true)
			v.SetFloat(math.Float64frombits(u))
		default: // int, int64, uint, uint64
			u, ok = r.fixed(8, true)
		}
		if !ok {
			return nil, 0, fmt.Errorf("argument %d (%s) at offset %d: it needs %d bytes, %s left", i+1, encoding.TypeName(t), start, v1Size(t), bytesLeft(len(data)-start))
		}
		switch t.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
			v.SetInt(signExtend(u, t)) // the build truncates as reflect's SetInt does
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint, reflect.Uint64:
			v.SetUint(u)
		}
		vals[i] = v.Interface()
	}
	return vals, r.p, nil
}

// dynamic reads a string (GetString) or a []byte (GetBytes): a 4-byte
// big-endian length, then the bytes, by rules that differ between the two.
func (r *v1Reader) dynamic(t reflect.Type) ([]byte, error) {
	n := len(r.data)
	b, ok := r.next(4)
	if !ok {
		return nil, fmt.Errorf("it needs a 4-byte length, %s left", bytesLeft(n-r.p))
	}
	l := int(binary.BigEndian.Uint32(b))
	q := r.p
	if t.Kind() == reflect.String {
		switch {
		case q > maxStringStart:
			return nil, fmt.Errorf("it starts beyond go-fuzz-headers' limit of %d bytes", maxStringStart)
		case q >= n:
			// GetString wants a byte after the length, even for "".
			return nil, fmt.Errorf("no byte follows its length, which go-fuzz-headers requires even for an empty string")
		case l > n-q:
			return nil, fmt.Errorf("its length is %d, %s left", l, bytesLeft(n-q))
		}
		r.p += l
		return r.data[q:r.p], nil
	}
	// GetBytes: a length of 0 means 30, and one that is not exactly the
	// bytes left (which later arguments need too) is taken modulo them.
	left := n - q
	if left == 0 {
		return nil, fmt.Errorf("no byte follows its length")
	}
	if l == 0 {
		l = 30
	}
	if l != left {
		l %= left
	}
	r.p += l
	return r.data[q:r.p], nil
}

// v1Size is the number of bytes a v1 build reads for a fixed-size type.
func v1Size(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Bool, reflect.Int8, reflect.Uint8:
		return 1
	case reflect.Int16, reflect.Uint16:
		return 3
	case reflect.Int32, reflect.Uint32:
		return 4
	case reflect.Float32:
		return 5
	}
	return 9
}

// signExtend returns the integer of type t whose bits are the low bits of
// u, as an int64.
func signExtend(u uint64, t reflect.Type) int64 {
	shift := 64 - t.Bits()
	return int64(u<<shift) >> shift
}

// A v2Reader is go-118-fuzz-build's input.Source: a read past the end gives
// what is left, padded with zeros.
type v2Reader struct {
	data  []byte
	p     int
	short bool // a read went past the end
}

func (r *v2Reader) next(k int) []byte {
	b := make([]byte, k)
	n := copy(b, r.data[r.p:])
	r.p += n
	r.short = r.short || n < k
	return b
}

// DecodeV2 decodes a testcase as a v2 build does for a fuzz function with
// arguments of types. Every testcase decodes; short reports that it ended
// before the fixed-size arguments or the weights did, which the build then
// read as zeros.
func DecodeV2(data []byte, types []reflect.Type) (vals []any, short bool) {
	r := &v2Reader{data: data}
	vals = make([]any, len(types))
	var dynamic []int
	// The fixed-size arguments first, in order, big-endian; a bool is
	// true if its byte is odd.
	for i, t := range types {
		if isDynamic(t) {
			dynamic = append(dynamic, i)
			continue
		}
		v := reflect.New(t).Elem()
		var u uint64
		switch size := t.Size(); size {
		case 1:
			u = uint64(r.next(1)[0])
		case 2:
			u = uint64(binary.BigEndian.Uint16(r.next(2)))
		case 4:
			u = uint64(binary.BigEndian.Uint32(r.next(4)))
		default:
			u = binary.BigEndian.Uint64(r.next(8))
		}
		switch t.Kind() {
		case reflect.Bool:
			v.SetBool(u&1 != 0)
		case reflect.Float32:
			v.Set(reflect.ValueOf(math.Float32frombits(uint32(u))))
		case reflect.Float64:
			v.SetFloat(math.Float64frombits(u))
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
			v.SetInt(signExtend(u, t))
		default:
			v.SetUint(u)
		}
		vals[i] = v.Interface()
	}
	// Then a weight byte per string or []byte, and those arguments share
	// the bytes after the weights: each but the last gets its weight's
	// share (an equal share if the weights are all 0) of the bytes that
	// were left after the weights, and the last gets the rest.
	weights := r.next(len(dynamic))
	sum := 0
	for _, w := range weights {
		sum += int(w)
	}
	left := len(data) - r.p
	for k, i := range dynamic {
		size := len(data) - r.p
		if k < len(dynamic)-1 {
			size = left / len(dynamic)
			if sum > 0 {
				size = left * int(weights[k]) / sum
			}
		}
		b := r.next(size)
		v := reflect.New(types[i]).Elem()
		if types[i].Kind() == reflect.String {
			v.SetString(string(b))
		} else {
			v.SetBytes(b)
		}
		vals[i] = v.Interface()
	}
	return vals, r.short
}

// DecodeRaw takes a testcase as the value of a fuzz function's one []byte
// or string argument.
func DecodeRaw(data []byte, types []reflect.Type) ([]any, error) {
	if len(types) != 1 || !isDynamic(types[0]) {
		return nil, fmt.Errorf("-format=raw needs a fuzz function of one []byte or string argument; it takes %s", encoding.TypeList(types))
	}
	if types[0].Kind() == reflect.String {
		return []any{string(data)}, nil
	}
	return []any{append([]byte{}, data...)}, nil
}

// isDynamic reports whether t is a string or a []byte, whose size the
// testcase chooses.
func isDynamic(t reflect.Type) bool {
	return t.Kind() == reflect.String || t.Kind() == reflect.Slice
}

// bytesLeft spells a number of bytes: "1 byte", "3 bytes".
func bytesLeft(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
