package pipeline

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// The mapping of fuzzmin migrate says where each argument of a target's new
// signature comes from: one -arg per new argument, in order, each
//
//	@N      the old argument N (from 1), as it is, or converted where every
//	        value of its type is a value of the new type (widens)
//	T(@N)   the old argument N converted to T, a conversion that may not
//	        hold every value: an entry whose value does not fit is left alone
//	value   a constant, spelled as a corpus file line: int(0), string("x")
//
// Old arguments no -arg names are dropped. The syntax cannot be mistaken:
// "@" is no part of a corpus line, and a constant is typed, so int64(3) is
// the number 3 and int64(@3) the old third argument.

// A source is one -arg: where an argument of the new signature comes from.
type source struct {
	text  string
	old   int          // the old argument, from 1; 0 for a constant
	conv  reflect.Type // T of T(@N); nil for @N
	value any          // the constant
}

var (
	oldArgRE  = regexp.MustCompile(`^@(\d+)$`)
	convArgRE = regexp.MustCompile(`^(\[\]byte|\[\][a-z0-9]+|[a-z0-9]+)\(\s*@(\d+)\s*\)$`)
)

// parseSource parses one -arg.
func parseSource(text string) (source, error) {
	s := source{text: text}
	t := strings.TrimSpace(text)
	oldArg := func(digits string) error {
		n, err := strconv.Atoi(digits)
		if err != nil || n < 1 {
			return fmt.Errorf("-arg %q: old arguments are numbered from @1", text)
		}
		s.old = n
		return nil
	}
	if m := oldArgRE.FindStringSubmatch(t); m != nil {
		return s, oldArg(m[1])
	}
	if m := convArgRE.FindStringSubmatch(t); m != nil {
		typ, ok := encoding.NativeType(m[1])
		if !ok {
			return s, fmt.Errorf("-arg %q: %s is not a native fuzz type", text, m[1])
		}
		s.conv = typ
		return s, oldArg(m[2])
	}
	vals, err := encoding.Unmarshal([]byte(encoding.Version + "\n" + t + "\n"))
	if err == nil && len(vals) == 0 {
		err = errors.New("empty")
	}
	switch {
	case err != nil && strings.Contains(t, "@"):
		return s, fmt.Errorf("-arg %q: want @N or T(@N), as int64(@2), for an old argument", text)
	case err != nil:
		var se *encoding.SyntaxError
		if errors.As(err, &se) {
			err = errors.New(se.Msg)
		}
		return s, fmt.Errorf("-arg %q: want @N (the old argument N), T(@N) (converted to T), or a value as a corpus file writes it, such as int(0) or string(\"\"): %v", text, err)
	case len(vals) != 1:
		return s, fmt.Errorf("-arg %q: want one value", text)
	}
	s.value = vals[0]
	return s, nil
}

// parseTypeList parses -from: Go type names separated by commas, in
// parentheses or not.
func parseTypeList(list string) ([]reflect.Type, error) {
	inner := strings.TrimSpace(list)
	if strings.HasPrefix(inner, "(") && strings.HasSuffix(inner, ")") {
		inner = inner[1 : len(inner)-1]
	}
	var types []reflect.Type
	for _, name := range strings.Split(inner, ",") {
		t, ok := encoding.NativeType(strings.TrimSpace(name))
		if !ok {
			return nil, fmt.Errorf("-from %q: %q is not a native fuzz type", list, strings.TrimSpace(name))
		}
		types = append(types, t)
	}
	return types, nil
}

// checkNew checks the mapping against the target's new signature, to: one
// source per argument, of its type.
func checkNew(srcs []source, to []reflect.Type) error {
	if len(srcs) != len(to) {
		return fmt.Errorf("the target takes %s %s, and the mapping gives %d: one -arg per argument, in order",
			Plural(len(to), "argument", "arguments"), encoding.TypeList(to), len(srcs))
	}
	for i, s := range srcs {
		switch {
		case s.old == 0 && reflect.TypeOf(s.value) != to[i]:
			return fmt.Errorf("-arg %q: %s, but the target's argument %d is %s", s.text, aType(reflect.TypeOf(s.value)), i+1, encoding.TypeName(to[i]))
		case s.conv != nil && s.conv != to[i]:
			return fmt.Errorf("-arg %q: converts to %s, but the target's argument %d is %s", s.text, encoding.TypeName(s.conv), i+1, encoding.TypeName(to[i]))
		}
	}
	return nil
}

// checkOld checks the mapping's old arguments against the old signature,
// from: each exists, and converts to its new type as the mapping says.
func checkOld(srcs []source, from, to []reflect.Type) error {
	for i, s := range srcs {
		if s.old == 0 {
			continue
		}
		if s.old > len(from) {
			return fmt.Errorf("-arg %q: the old signature %s has %s", s.text, encoding.TypeList(from), Plural(len(from), "argument", "arguments"))
		}
		ft, tt := from[s.old-1], to[i]
		switch {
		case !convertible(ft, tt):
			return fmt.Errorf("-arg %q: the old argument %d is %s, and %s cannot become the target's argument %d, %s", s.text, s.old, encoding.TypeName(ft), aType(ft), i+1, encoding.TypeName(tt))
		case s.conv == nil && !widens(ft, tt):
			return fmt.Errorf("-arg %q: the old argument %d is %s, and the target's argument %d is %s, which does not hold every %s: write %s(@%d) to convert, and entries whose value does not fit are left alone",
				s.text, s.old, encoding.TypeName(ft), i+1, encoding.TypeName(tt), encoding.TypeName(ft), encoding.TypeName(tt), s.old)
		}
	}
	return nil
}

// aType spells a value of type t: "an int", "a string".
func aType(t reflect.Type) string {
	if strings.HasPrefix(encoding.TypeName(t), "i") {
		return "an " + encoding.TypeName(t)
	}
	return "a " + encoding.TypeName(t)
}

// dropped describes the old arguments the mapping drops, or "".
func dropped(srcs []source, from []reflect.Type) string {
	used := map[int]bool{}
	for _, s := range srcs {
		used[s.old] = true
	}
	var drops []string
	for i, t := range from {
		if !used[i+1] {
			drops = append(drops, fmt.Sprintf("@%d (%s)", i+1, encoding.TypeName(t)))
		}
	}
	if len(drops) == 0 {
		return ""
	}
	return "; drops " + strings.Join(drops, ", ")
}

// apply maps the values of an entry of the old signature to the new one,
// to. Its error says which value does not fit its new type.
func apply(srcs []source, vals []any, to []reflect.Type) ([]any, error) {
	out := make([]any, len(srcs))
	for i, s := range srcs {
		if s.old == 0 {
			out[i] = s.value
			continue
		}
		v, err := convert(vals[s.old-1], to[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.text, err)
		}
		out[i] = v
	}
	return out, nil
}

// The kinds of native types between which values convert: integers,
// floats, and the byte sequences string and []byte.
func family(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "float"
	case reflect.String, reflect.Slice:
		return "bytes"
	}
	return t.String()
}

// convertible reports whether values of type from may convert to type to:
// within a family (integers, floats, string and []byte).
func convertible(from, to reflect.Type) bool { return family(from) == family(to) }

// widens reports whether every value of type from is a value of type to,
// so that @N converts without being asked: a wider integer of the same
// signedness, an unsigned integer into a wider signed one, float32 into
// float64, string into []byte and back.
func widens(from, to reflect.Type) bool {
	switch {
	case from == to || family(from) == "bytes" && family(to) == "bytes":
		return true
	case from.Kind() == reflect.Float32 && to.Kind() == reflect.Float64:
		return true
	case family(from) != "integer" || family(to) != "integer":
		return false
	case signed(from) == signed(to):
		return from.Bits() <= to.Bits()
	default:
		return !signed(from) && from.Bits() < to.Bits()
	}
}

func signed(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return true
	}
	return false
}

// convert converts v to type to, which must be convertible: an integer
// must fit, a float must be exact (a NaN stays a NaN, its payload as a Go
// conversion leaves it).
func convert(v any, to reflect.Type) (any, error) {
	rv := reflect.ValueOf(v)
	if rv.Type() == to {
		return v, nil
	}
	out := reflect.New(to).Elem()
	ok := true
	switch family(to) {
	case "bytes":
		if to.Kind() == reflect.String {
			out.SetString(string(rv.Bytes()))
		} else {
			out.SetBytes([]byte(rv.String()))
		}
	case "float":
		f := rv.Float()
		out.SetFloat(f) // rounds to float32 if to is
		ok = out.Float() == f || math.IsNaN(f)
	case "integer":
		switch {
		case signed(rv.Type()) && signed(to):
			out.SetInt(rv.Int())
			ok = out.Int() == rv.Int()
		case signed(rv.Type()):
			out.SetUint(uint64(rv.Int()))
			ok = rv.Int() >= 0 && out.Uint() == uint64(rv.Int())
		case signed(to):
			out.SetInt(int64(rv.Uint()))
			ok = rv.Uint() <= math.MaxInt64 && out.Int() == int64(rv.Uint())
		default:
			out.SetUint(rv.Uint())
			ok = out.Uint() == rv.Uint()
		}
	}
	if !ok {
		return nil, fmt.Errorf("%s does not fit in %s", gosyntax.Value(v, ""), encoding.TypeName(to))
	}
	return out.Interface(), nil
}
