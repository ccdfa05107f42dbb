// Package gosyntax prints fuzz values as Go source: the lines a report shows
// for a user to paste into a fuzz test, f.Add(...) for native values and
// fuzzshrink.Add(...) for composite ones.
//
// A native value is spelled as in a corpus file (see
// [encoding.AppendValue]), except where that is not Go: NaN, ±Inf and -0
// are written with the math package (math.NaN(), math.Inf(-1),
// math.Copysign(0, -1)). A composite value is a composite literal whose zero
// fields are omitted, whose constants are untyped and whose element types
// are elided where Go allows it.
package gosyntax

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// Call prints a call of fn with args, such as
//
//	f.Add([]byte("a"), int(1001))
//	fuzzshrink.Add(f, Config{Items: []Item{{Count: 51}}}, int64(3))
//
// see [Args].
func Call(fn string, args []any, local string) string {
	return fn + "(" + Args(args, local) + ")"
}

// Args prints a tuple of values as Go source, each argument typed: a native
// one as a conversion, a composite one as a composite literal. Types of the
// package with import path local are unqualified, others qualified by
// package name.
func Args(args []any, local string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = Value(a, local)
	}
	return strings.Join(parts, ", ")
}

// Value prints v as a Go expression of its type; see [Args].
func Value(v any, local string) string {
	if tag, _ := encoding.NativeTag(v); tag != 0 {
		return native(v)
	}
	return printer{local}.format(reflect.ValueOf(v), placeArg)
}

// native prints a value of a native fuzz type.
func native(v any) string {
	var (
		f    float64 // v, if it is a float
		wrap bool    // v is a float32
	)
	switch v := v.(type) {
	case float64:
		if v != v && math.Float64bits(v) == math.Float64bits(math.NaN()) {
			return "math.NaN()"
		}
		f = v
	case float32:
		if v != v && math.Float32bits(v) == math.Float32bits(float32(math.NaN())) {
			return "float32(math.NaN())"
		}
		f, wrap = float64(v), true
	}
	// Other NaNs keep their math.FloatXXfrombits(0x…) line, which is Go.
	var s string
	switch {
	case math.IsInf(f, 1):
		s = "math.Inf(1)"
	case math.IsInf(f, -1):
		s = "math.Inf(-1)"
	case f == 0 && math.Signbit(f):
		s = "math.Copysign(0, -1)"
	default:
		b, err := encoding.AppendValue(nil, v)
		if err != nil {
			panic(err) // v has a native type
		}
		return string(b)
	}
	if wrap {
		return "float32(" + s + ")"
	}
	return s
}

// A printer prints values of the package with import path local without
// their package name, as its own code names them.
type printer struct{ local string }

// A place is where an expression stands, which decides how much of its
// type it must spell.
type place uint8

const (
	placeArg   place = iota // an argument: the expression has v's type by itself
	placeField              // a struct field: constants may be untyped
	placeElem               // an element or key of a literal: composite types may be elided too
)

var bytesType = reflect.TypeFor[[]byte]()

// format prints v as a Go expression standing at pl.
func (pr printer) format(v reflect.Value, pl place) string {
	t := v.Type()
	name := pr.typeName(t)
	conv := func(s string) string {
		if pl == placeArg {
			return name + "(" + s + ")"
		}
		return s
	}
	switch v.Kind() {
	case reflect.Bool:
		return conv(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return conv(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return conv(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 && math.Signbit(f) {
			// No constant spells these; the math expression is a float64.
			if s := native(f); t != reflect.TypeFor[float64]() {
				return name + "(" + s + ")"
			} else {
				return s
			}
		}
		return conv(strconv.FormatFloat(f, 'g', -1, t.Bits()))
	case reflect.String:
		return conv(strconv.Quote(v.String()))
	case reflect.Slice:
		if v.IsNil() {
			return conv("nil")
		}
		if t.Elem() == bytesType.Elem() {
			return name + "(" + strconv.Quote(string(v.Bytes())) + ")"
		}
		fallthrough
	case reflect.Array:
		elems := make([]string, v.Len())
		for i := range elems {
			elems[i] = pr.format(v.Index(i), placeElem)
		}
		return literal(name, pl, elems)
	case reflect.Map:
		if v.IsNil() {
			return conv("nil")
		}
		var elems []string
		for _, e := range sortedEntries(v) {
			elems = append(elems, pr.format(e[0], placeElem)+": "+pr.format(e[1], placeElem))
		}
		return literal(name, pl, elems)
	case reflect.Pointer:
		switch {
		case v.IsNil():
			return conv("nil")
		case v.Elem().Kind() == reflect.Struct && pl == placeElem:
			return pr.format(v.Elem(), placeElem) // &T elided
		case v.Elem().Kind() == reflect.Struct:
			return "&" + pr.format(v.Elem(), placeArg)
		}
		return "new(" + pr.format(v.Elem(), placeArg) + ")"
	case reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return pr.format(v.Elem(), placeArg) // the dynamic type must be spelled
	case reflect.Struct:
		var fields []string
		for i := range v.NumField() {
			f := t.Field(i)
			if f.IsExported() && !isZero(v.Field(i)) {
				fields = append(fields, f.Name+": "+pr.format(v.Field(i), placeField))
			}
		}
		return literal(name, pl, fields)
	}
	return fmt.Sprintf("%#v", v.Interface())
}

// literal prints a composite literal; in an element it elides the type.
func literal(name string, pl place, elems []string) string {
	if pl == placeElem {
		name = ""
	}
	return name + "{" + strings.Join(elems, ", ") + "}"
}

// typeName spells t as Go source in package pr.local does: []byte rather
// than []uint8, and local types unqualified.
func (pr printer) typeName(t reflect.Type) string {
	switch {
	case t == bytesType:
		return "[]byte"
	case t.Kind() == reflect.Interface && t.Name() == "" && t.NumMethod() == 0:
		return "any"
	case t.Name() != "":
		if t.PkgPath() == pr.local {
			return t.Name()
		}
		return t.String()
	}
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + pr.typeName(t.Elem())
	case reflect.Array:
		return fmt.Sprintf("[%d]%s", t.Len(), pr.typeName(t.Elem()))
	case reflect.Map:
		return "map[" + pr.typeName(t.Key()) + "]" + pr.typeName(t.Elem())
	case reflect.Pointer:
		return "*" + pr.typeName(t.Elem())
	}
	return t.String()
}

// isZero reports whether a field can be left out of a literal: its type's
// zero value, a nil and an empty slice or map counting alike.
func isZero(v reflect.Value) bool {
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return true
	}
	return v.IsZero()
}
