package fuzzshrink

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// formatArgs prints a tuple of user values as Go source: the arguments of a
// fuzzshrink.Add call, such as
//
//	Config{Items: []Item{{Count: 51}}}, int64(3)
//
// Each argument is typed (a native one as a conversion, a composite one as a
// composite literal); inside a literal, zero fields are omitted, constants
// untyped, and element types elided where Go allows it. Types of package
// local are unqualified, others qualified by package name.
func formatArgs(args []any, local string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if supported(a) {
			parts[i] = encoding.FormatValue(a)
		} else {
			parts[i] = printer{local}.format(reflect.ValueOf(a), top)
		}
	}
	return strings.Join(parts, ", ")
}

// A printer prints values of the package with import path local without
// their package name, as its own code names them.
type printer struct{ local string }

// Where an expression stands decides how much of its type it must spell.
type place uint8

const (
	top   place = iota // an argument: the expression has v's type by itself
	field              // a struct field: constants may be untyped
	elem               // an element or key of a literal: composite types may be elided too
)

// formatGo prints v as a Go expression in context ctx.
func (pr printer) format(v reflect.Value, ctx place) string {
	t := v.Type()
	name := pr.typeName(t)
	conv := func(s string) string {
		if ctx == top {
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
			if s := encoding.FormatValue(f); t != reflect.TypeFor[float64]() {
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
			elems[i] = pr.format(v.Index(i), elem)
		}
		return literal(name, ctx, elems)
	case reflect.Map:
		if v.IsNil() {
			return conv("nil")
		}
		var elems []string
		for _, k := range sortedKeys(v) {
			elems = append(elems, pr.format(k, elem)+": "+pr.format(v.MapIndex(k), elem))
		}
		return literal(name, ctx, elems)
	case reflect.Pointer:
		switch {
		case v.IsNil():
			return conv("nil")
		case v.Elem().Kind() == reflect.Struct && ctx == elem:
			return pr.format(v.Elem(), elem) // &T elided
		case v.Elem().Kind() == reflect.Struct:
			return "&" + pr.format(v.Elem(), top)
		}
		return "new(" + pr.format(v.Elem(), top) + ")"
	case reflect.Struct:
		var fields []string
		for i := range v.NumField() {
			f := t.Field(i)
			if f.IsExported() && !isZero(v.Field(i)) {
				fields = append(fields, f.Name+": "+pr.format(v.Field(i), field))
			}
		}
		return literal(name, ctx, fields)
	}
	return fmt.Sprintf("%#v", v.Interface())
}

// literal prints a composite literal; in an element it elides the type.
func literal(name string, ctx place, elems []string) string {
	if ctx == elem {
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

// funcPackage returns the import path of the package that declares fn.
func funcPackage(fn reflect.Value) string {
	name := runtime.FuncForPC(fn.Pointer()).Name() // example.com/p.FuzzX.func1
	slash := strings.LastIndexByte(name, '/')
	if dot := strings.IndexByte(name[slash+1:], '.'); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}
