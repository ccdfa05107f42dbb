package encoding

import (
	"math"
	"reflect"
	"strings"
)

// The tags of the native fuzz types, one per type (byte and rune are uint8
// and int32): NativeTag returns them, and the forms built on it (the
// session's tuples, fuzzshrink's cache keys) write them.
const (
	TagString byte = iota + 1
	TagBytes
	TagBool
	TagInt
	TagInt8
	TagInt16
	TagInt32
	TagInt64
	TagUint
	TagUint8
	TagUint16
	TagUint32
	TagUint64
	TagFloat32
	TagFloat64
)

// NativeTag returns the tag of a value of a native fuzz type (nonzero, one
// per type) and, for a bool, an integer or a float, its 8 bytes as a uint64:
// a bool as 0 or 1, an integer sign-extended, a float's IEEE bits. For any
// other value it returns 0, 0. It is the one type switch over the native
// types that the tuple form, fuzzshrink's cache keys and its order share.
func NativeTag(v any) (tag byte, bits uint64) {
	switch x := v.(type) {
	case string:
		return TagString, 0
	case []byte:
		return TagBytes, 0
	case bool:
		if x {
			bits = 1
		}
		return TagBool, bits
	case int:
		return TagInt, uint64(x)
	case int8:
		return TagInt8, uint64(x)
	case int16:
		return TagInt16, uint64(x)
	case int32:
		return TagInt32, uint64(x)
	case int64:
		return TagInt64, uint64(x)
	case uint:
		return TagUint, uint64(x)
	case uint8:
		return TagUint8, uint64(x)
	case uint16:
		return TagUint16, uint64(x)
	case uint32:
		return TagUint32, uint64(x)
	case uint64:
		return TagUint64, x
	case float32:
		return TagFloat32, uint64(math.Float32bits(x))
	case float64:
		return TagFloat64, math.Float64bits(x)
	}
	return 0, 0
}

// NativeValue is the inverse of NativeTag for the types of fixed size: the
// value of the type tagged tag whose 8 bytes are bits. It reports false for
// TagString, TagBytes and unknown tags.
func NativeValue(tag byte, u uint64) (any, bool) {
	switch tag {
	case TagBool:
		return u != 0, true
	case TagInt:
		return int(u), true
	case TagInt8:
		return int8(u), true
	case TagInt16:
		return int16(u), true
	case TagInt32:
		return int32(u), true
	case TagInt64:
		return int64(u), true
	case TagUint:
		return uint(u), true
	case TagUint8:
		return uint8(u), true
	case TagUint16:
		return uint16(u), true
	case TagUint32:
		return uint32(u), true
	case TagUint64:
		return u, true
	case TagFloat32:
		return math.Float32frombits(uint32(u)), true
	case TagFloat64:
		return math.Float64frombits(u), true
	}
	return nil, false
}

// nativeTypes are the argument types native fuzzing accepts, by the names
// that reflect and the testing package give them ([]byte is []uint8, byte
// uint8 and rune int32).
var nativeTypes = map[string]reflect.Type{}

func init() {
	for _, v := range []any{[]byte(nil), "", false, 0, int8(0), int16(0), int32(0), int64(0),
		uint(0), uint8(0), uint16(0), uint32(0), uint64(0), float32(0), float64(0)} {
		t := reflect.TypeOf(v)
		nativeTypes[t.String()] = t
	}
}

// NativeType returns the native fuzz type of a name as Go or reflect
// spells it: "string", "[]byte" or "[]uint8", "byte" or "uint8", "rune" or
// "int32".
func NativeType(name string) (reflect.Type, bool) {
	switch name {
	case "[]byte":
		name = "[]uint8"
	case "byte":
		name = "uint8"
	case "rune":
		name = "int32"
	}
	t, ok := nativeTypes[name]
	return t, ok
}

// TypeName spells a native type as Go does: []byte, not []uint8.
func TypeName(t reflect.Type) string {
	if t.Kind() == reflect.Slice {
		return "[]byte"
	}
	return t.String()
}

// TypeList spells a list of native types as a signature: "(string, int)".
func TypeList(types []reflect.Type) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = TypeName(t)
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// ValueTypes returns the types of vals.
func ValueTypes(vals []any) []reflect.Type {
	types := make([]reflect.Type, len(vals))
	for i, v := range vals {
		types[i] = reflect.TypeOf(v)
	}
	return types
}
