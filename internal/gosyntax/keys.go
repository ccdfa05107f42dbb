package gosyntax

import (
	"cmp"
	"reflect"
	"slices"
)

// sortedEntries returns the keys and values of map m in the order fmt
// prints them (a NaN key cannot be looked up, so the values come along), so
// a printed map literal is the same whatever the map's iteration order:
// numbers and strings in their natural order, false before true, structs
// and arrays element by element, a nil pointer before the others and the
// others by their pointees, and NaN before every other float.
func sortedEntries(m reflect.Value) [][2]reflect.Value {
	var es [][2]reflect.Value
	for it := m.MapRange(); it.Next(); {
		es = append(es, [2]reflect.Value{it.Key(), it.Value()})
	}
	slices.SortStableFunc(es, func(a, b [2]reflect.Value) int { return compareKeys(a[0], b[0]) })
	return es
}

func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Bool:
		return cmp.Compare(b2i(a.Bool()), b2i(b.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float()) // cmp.Compare puts NaN first
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Struct:
		for i := range a.NumField() {
			if c := compareKeys(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
	case reflect.Pointer:
		switch {
		case a.IsNil() || b.IsNil():
			return cmp.Compare(b2i(!a.IsNil()), b2i(!b.IsNil()))
		default:
			return compareKeys(a.Elem(), b.Elem())
		}
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
