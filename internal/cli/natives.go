package cli

import (
	"reflect"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// typeList spells a signature: "(string, int)".
func typeList(types []reflect.Type) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = encoding.TypeName(t)
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
