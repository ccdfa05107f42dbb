package cli

import (
	"reflect"
	"strings"
)

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

// nativeType returns the native fuzz type of a name as Go or reflect
// spells it: "string", "[]byte" or "[]uint8", "byte" or "uint8", "rune" or
// "int32".
func nativeType(name string) (reflect.Type, bool) {
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

// typeName spells a native type as Go does: []byte, not []uint8.
func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Slice {
		return "[]byte"
	}
	return t.String()
}

// typeList spells a signature: "(string, int)".
func typeList(types []reflect.Type) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = typeName(t)
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// valueTypes returns the types of vals.
func valueTypes(vals []any) []reflect.Type {
	types := make([]reflect.Type, len(vals))
	for i, v := range vals {
		types[i] = reflect.TypeOf(v)
	}
	return types
}

// sameTypes reports whether two signatures are the same.
func sameTypes(a, b []reflect.Type) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// isDynamic reports whether t is a string or a []byte, whose size the
// testcase chooses.
func isDynamic(t reflect.Type) bool {
	return t.Kind() == reflect.String || t.Kind() == reflect.Slice
}
