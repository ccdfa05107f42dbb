package pipeline

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

func TestParseSource(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		old  int
		conv string
		val  any
		err  string
	}{
		{in: "@1", old: 1},
		{in: " @12 ", old: 12},
		{in: "int64(@2)", old: 2, conv: "int64"},
		{in: "[]byte( @3 )", old: 3, conv: "[]uint8"},
		{in: "byte(@1)", old: 1, conv: "uint8"},
		{in: "int64(3)", val: int64(3)},
		{in: `string("a,b @1")`, val: "a,b @1"},
		{in: `[]byte("\x00")`, val: []byte{0}},
		{in: "rune('x')", val: 'x'},
		{in: "bool(false)", val: false},
		{in: "math.Float64frombits(0x7ff8000000000002)", val: math.Float64frombits(0x7ff8000000000002)},
		{in: "@0", err: "numbered from @1"},
		{in: "int64(@0)", err: "numbered from @1"},
		{in: "complex(@1)", err: "not a native fuzz type"},
		{in: "2", err: "want @N (the old argument N), T(@N)"},
		{in: "int(@x)", err: "want @N or T(@N)"},
		{in: "int(1)\nint(2)", err: "want one value"},
		{in: "", err: "want @N"},
	} {
		s, err := parseSource(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: %v, want an error with %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case s.old != tc.old || (s.conv == nil) != (tc.conv == "") || s.conv != nil && s.conv.String() != tc.conv:
			t.Errorf("%q: got @%d converted to %v, want @%d to %q", tc.in, s.old, s.conv, tc.old, tc.conv)
		case tc.val != nil && !sameValues([]any{s.value}, []any{tc.val}):
			t.Errorf("%q: got %#v, want %#v", tc.in, s.value, tc.val)
		}
	}
}

func TestParseTypeList(t *testing.T) {
	t.Parallel()
	got, err := parseTypeList("(string, []byte,byte , rune,int)")
	if err != nil || encoding.TypeList(got) != "(string, []byte, uint8, int32, int)" {
		t.Errorf("got %s, %v", encoding.TypeList(got), err)
	}
	for _, bad := range []string{"", "string,", "map[string]int", "MyInt"} {
		if _, err := parseTypeList(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// sources parses -args for a test.
func sources(t *testing.T, args ...string) []source {
	t.Helper()
	var srcs []source
	for _, a := range args {
		s, err := parseSource(a)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	return srcs
}

func TestMapping_Check(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		from, to string
		args     []string
		err      string // "" if the mapping fits
	}{
		{"string int bool", "string int64 []byte", []string{"@1", "@2", `[]byte("")`}, ""},
		{"string int", "int string", []string{"@2", "@1"}, ""},
		{"int64 string", "int8", []string{"int8(@1)"}, ""},
		{"uint8", "int16", []string{"@1"}, ""},
		{"float32", "float64", []string{"@1"}, ""},
		{"string", "[]byte", []string{"@1"}, ""},
		{"int", "int8", []string{"@1"}, "write int8(@1) to convert"},
		{"int", "uint", []string{"@1"}, "write uint(@1) to convert"},
		{"uint64", "int64", []string{"@1"}, "write int64(@1) to convert"},
		{"float64", "float32", []string{"@1"}, "write float32(@1) to convert"},
		{"int", "string", []string{"string(@1)"}, "an int cannot become the target's argument 1, string"},
		{"bool", "int", []string{"@1"}, "cannot become"},
		{"int", "int", []string{"@2"}, "the old signature (int) has 1 argument"},
		{"int", "int int", []string{"@1"}, "the target takes 2 arguments (int, int), and the mapping gives 1"},
		{"int", "int64", []string{"int(0)"}, `"int(0)": an int, but the target's argument 1 is int64`},
		{"int", "int64", []string{"int32(@1)"}, "converts to int32, but the target's argument 1 is int64"},
	} {
		from, to := types(t, tc.from), types(t, tc.to)
		srcs := sources(t, tc.args...)
		err := checkNew(srcs, to)
		if err == nil {
			err = checkOld(srcs, from, to)
		}
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s → %s by %q: %v", tc.from, tc.to, tc.args, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s → %s by %q: %v, want an error with %q", tc.from, tc.to, tc.args, err, tc.err)
		}
	}
}

func TestMapping_Apply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		to   string
		args []string
		in   []any
		want []any
		err  string
	}{
		{"int64 string []byte", []string{"@2", "@1", `[]byte("x")`}, []any{"a", 7}, []any{int64(7), "a", []byte("x")}, ""},
		{"int8", []string{"int8(@1)"}, []any{int64(-128)}, []any{int8(-128)}, ""},
		{"int8", []string{"int8(@1)"}, []any{int64(300)}, nil, "int8(@1): int64(300) does not fit in int8"},
		{"uint", []string{"uint(@1)"}, []any{-1}, nil, "int(-1) does not fit in uint"},
		{"int64", []string{"int64(@1)"}, []any{uint64(math.MaxUint64)}, nil, "does not fit in int64"},
		{"int64", []string{"int64(@1)"}, []any{uint64(math.MaxInt64)}, []any{int64(math.MaxInt64)}, ""},
		{"float32", []string{"float32(@1)"}, []any{0.5}, []any{float32(0.5)}, ""},
		{"float32", []string{"float32(@1)"}, []any{0.1}, nil, "float64(0.1) does not fit in float32"},
		{"float32", []string{"float32(@1)"}, []any{1e300}, nil, "does not fit in float32"},
		{"float32", []string{"float32(@1)"}, []any{math.Inf(-1)}, []any{float32(math.Inf(-1))}, ""},
		{"string", []string{"@1"}, []any{[]byte("\xff")}, []any{"\xff"}, ""},
		{"[]byte", []string{"@1"}, []any{"ab"}, []any{[]byte("ab")}, ""},
	} {
		got, err := apply(sources(t, tc.args...), tc.in, types(t, tc.to))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q of %#v: got %#v, %v; want an error with %q", tc.args, tc.in, got, err, tc.err)
		case tc.err == "" && (err != nil || !sameValues(got, tc.want)):
			t.Errorf("%q of %#v: got %#v, %v; want %#v", tc.args, tc.in, got, err, tc.want)
		}
	}
	got, err := apply(sources(t, "float32(@1)"), []any{math.NaN()}, types(t, "float32"))
	if err != nil || !math.IsNaN(float64(got[0].(float32))) {
		t.Errorf("a NaN converts to %v, %v; want a NaN", got, err)
	}
}

// TestWidens_Exhaustive checks, for every pair of integer types, that @N
// converts without being asked exactly when the extremes of the old type
// fit the new one.
func TestWidens_Exhaustive(t *testing.T) {
	t.Parallel()
	ints := []any{0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0), uint64(0)}
	for _, a := range ints {
		from := reflect.TypeOf(a)
		lo, hi := reflect.New(from).Elem(), reflect.New(from).Elem()
		if signed(from) {
			lo.SetInt(math.MinInt64 >> (64 - from.Bits()))
			hi.SetInt(math.MaxInt64 >> (64 - from.Bits()))
		} else {
			hi.SetUint(math.MaxUint64 >> (64 - from.Bits()))
		}
		for _, b := range ints {
			to := reflect.TypeOf(b)
			_, errLo := convert(lo.Interface(), to)
			_, errHi := convert(hi.Interface(), to)
			if fits := errLo == nil && errHi == nil; fits != widens(from, to) {
				t.Errorf("%s → %s: widens %v, but the extremes fit: %v", from, to, widens(from, to), fits)
			}
		}
	}
}

// sameValues reports whether a and b are the same values bit for bit, of
// the same types, as their corpus files tell.
func sameValues(a, b []any) bool {
	ea, err1 := encoding.Marshal(a...)
	eb, err2 := encoding.Marshal(b...)
	return err1 == nil && err2 == nil && bytes.Equal(ea, eb)
}

// types parses a signature for the tests, "string int", as migrate's -from
// does "string,int".
func types(t testing.TB, list string) []reflect.Type {
	t.Helper()
	ts, err := parseTypeList(strings.Join(strings.Fields(list), ","))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}
