package ossfuzz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
)

// The formats a corpus is exported in, the other way from Decode…: bytes
// that a build of the target reads as the values.

// EncodeV2 returns the testcase a v2 build (compile_native_go_fuzzer_v2)
// decodes into vals: the fixed-size arguments big-endian, in order, then a
// weight byte per string or []byte, then their bytes, which the weights
// share out as DecodeV2 reads them. Its error says why vals cannot be
// written exactly: the lengths of three or more strings and byte slices
// that no weights of a byte each share out.
func EncodeV2(vals []any) ([]byte, error) {
	var fixed, dyn []byte
	var lens []int
	for _, v := range vals {
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.String:
			dyn = append(dyn, rv.String()...)
			lens = append(lens, rv.Len())
			continue
		case reflect.Slice:
			dyn = append(dyn, rv.Bytes()...)
			lens = append(lens, rv.Len())
			continue
		}
		var u uint64
		switch rv.Kind() {
		case reflect.Bool:
			if rv.Bool() {
				u = 1
			}
		case reflect.Float32:
			f, ok := v.(float32)
			if !ok {
				f = float32(rv.Float())
			}
			u = uint64(math.Float32bits(f)) // a NaN's payload as it is
		case reflect.Float64:
			u = math.Float64bits(rv.Float())
		case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
			u = uint64(rv.Int())
		case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint, reflect.Uint64:
			u = rv.Uint()
		default:
			return nil, fmt.Errorf("a value of type %T has no v2 encoding", v)
		}
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], u)
		fixed = append(fixed, b[8-rv.Type().Size():]...)
	}
	weights, err := v2Weights(lens)
	if err != nil {
		return nil, err
	}
	return append(append(fixed, weights...), dyn...), nil
}

// v2Weights returns weights, a byte each, under which DecodeV2 shares out
// the bytes of strings and byte slices of lengths lens exactly: each but
// the last gets left*w/sum of the bytes left after the weights, the last
// the rest.
func v2Weights(lens []int) ([]byte, error) {
	w := make([]byte, len(lens))
	left := 0
	for _, n := range lens {
		left += n
	}
	if len(lens) <= 1 || left == 0 {
		return w, nil // one takes the rest; with none, every share is 0
	}
	// Try each total of the weights: each weight but the last is the
	// smallest that gives its length, and the last makes up the total.
	for sum := 1; sum <= 255*len(lens); sum++ {
		rest, ok := sum, true
		for k, n := range lens[:len(lens)-1] {
			wk := (n*sum + left - 1) / left // the smallest with left*wk/sum >= n
			if wk > 255 || wk > rest || left*wk/sum != n {
				ok = false
				break
			}
			w[k] = byte(wk)
			rest -= wk
		}
		if ok && rest <= 255 {
			w[len(lens)-1] = byte(rest)
			return w, nil
		}
	}
	return nil, errors.New("no weights of a byte each share its strings and byte slices out at their lengths")
}

// EncodeRaw returns the testcase that DecodeRaw reads as vals: the bytes
// of a fuzz function's one []byte or string argument.
func EncodeRaw(vals []any) ([]byte, error) {
	if len(vals) == 1 {
		switch v := vals[0].(type) {
		case string:
			return []byte(v), nil
		case []byte:
			return v, nil
		}
	}
	return nil, errors.New("a raw testcase holds the one []byte or string argument of a fuzz function")
}
