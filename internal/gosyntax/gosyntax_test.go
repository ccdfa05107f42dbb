package gosyntax

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"strings"
	"testing"
)

func TestCall_Native(t *testing.T) {
	got := Call("f.Add", []any{
		[]byte("a\x00"), int(1001), "s", byte('x'), rune(-1), true,
		math.NaN(), math.Inf(-1), math.Copysign(0, -1), float32(math.NaN()), float32(math.Inf(1)),
		float32(math.Copysign(0, -1)), math.Float64frombits(0x7ff8000000000002), float32(2.5), 1e100}, "")
	want := `f.Add([]byte("a\x00"), int(1001), string("s"), byte('x'), int32(-1), bool(true), ` +
		`math.NaN(), math.Inf(-1), math.Copysign(0, -1), float32(math.NaN()), float32(math.Inf(1)), ` +
		`float32(math.Copysign(0, -1)), math.Float64frombits(0x7ff8000000000002), float32(2.5), float64(1e+100))`
	if got != want {
		t.Errorf("Call =\n%s\nwant\n%s", got, want)
	}
}

func TestArgs_Composite(t *testing.T) {
	type celsius float64
	type inner struct{ A, B int }
	type outer struct {
		Name  string
		In    []inner
		Ptr   *inner
		IntP  *int
		M     map[string]inner
		T     celsius
		Blob  []byte
		Arr   [2]uint8
		Empty []string
		F     float32
	}
	three := 3
	for _, tt := range []struct {
		args []any
		want string
	}{
		{[]any{"bad", 1001}, `string("bad"), int(1001)`},
		{[]any{celsius(21.5)}, `gosyntax.celsius(21.5)`},
		{[]any{outer{}}, `gosyntax.outer{}`},
		{[]any{outer{Name: "x", In: []inner{{A: 51}, {}}, Ptr: &inner{B: 2}, IntP: &three,
			M: map[string]inner{"k": {A: 1}}, T: 1.5, Blob: []byte("\x00"), Arr: [2]uint8{0, 7}}, int64(-3)},
			`gosyntax.outer{Name: "x", In: []gosyntax.inner{{A: 51}, {}}, Ptr: &gosyntax.inner{B: 2}, IntP: new(int(3)), ` +
				`M: map[string]gosyntax.inner{"k": {A: 1}}, T: 1.5, Blob: []byte("\x00"), Arr: [2]uint8{0, 7}}, int64(-3)`},
		{[]any{&inner{A: 1}}, `&gosyntax.inner{A: 1}`},
		{[]any{[]*inner{{A: 1}, nil}}, `[]*gosyntax.inner{{A: 1}, nil}`},
		{[]any{outer{F: float32(math.Inf(-1)), T: celsius(math.NaN())}}, `gosyntax.outer{T: gosyntax.celsius(math.NaN()), F: float32(math.Inf(-1))}`},
	} {
		if got := Args(tt.args, "github.com/fuzzmin/fuzzmin/other"); got != tt.want {
			t.Errorf("Args(%#v) =\n%s\nwant\n%s", tt.args, got, tt.want)
		}
	}
	local := Args([]any{[]map[string]*outer{{"k": {Name: "x"}}}}, "github.com/fuzzmin/fuzzmin/internal/gosyntax")
	if want := `[]map[string]*outer{{"k": {Name: "x"}}}`; local != want {
		t.Errorf("Args in the local package = %s, want %s", local, want)
	}
}

// TestArgs_MapKeys checks that map literals list their keys in the order
// fmt does, whatever the map's iteration order.
func TestArgs_MapKeys(t *testing.T) {
	type key struct {
		S string
		N int
	}
	nan := math.NaN()
	for _, tt := range []struct {
		m    any
		want string
	}{
		{map[int]bool{10: true, -3: false, 9: true}, `map[int]bool{-3: false, 9: true, 10: true}`},
		{map[string]int{"b": 1, "a": 2, "": 3}, `map[string]int{"": 3, "a": 2, "b": 1}`},
		{map[bool]int{true: 1, false: 0}, `map[bool]int{false: 0, true: 1}`},
		{map[float64]int{2.5: 1, nan: 2, -1: 3}, `map[float64]int{math.NaN(): 2, -1: 3, 2.5: 1}`},
		{map[key]int{{"b", 1}: 1, {"a", 2}: 2, {"a", 1}: 3}, `map[gosyntax.key]int{{S: "a", N: 1}: 3, {S: "a", N: 2}: 2, {S: "b", N: 1}: 1}`},
		{map[[2]uint8]int{{1, 0}: 1, {0, 9}: 2}, `map[[2]uint8]int{{0, 9}: 2, {1, 0}: 1}`},
	} {
		for range 5 { // map iteration order varies from run to run
			if got := Value(tt.m, ""); got != tt.want {
				t.Fatalf("Value(%v) = %s, want %s", tt.m, got, tt.want)
			}
		}
	}
}

// TestValue_IsGo type-checks the spelling of edge values of every native
// type as Go source: each must be an expression of the value's type.
func TestValue_IsGo(t *testing.T) {
	vals := []any{
		"", "\x00\xff☺", []byte{}, []byte("\xff"), true, math.MinInt, int8(-128), int16(7), int32(-1), 'x', int32(0x10FFFF + 1),
		int64(math.MinInt64), uint(math.MaxUint), byte(0), byte('\''), uint16(1), uint32(2), uint64(math.MaxUint64),
		math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), math.Float64frombits(0x7ff8000000000002), 1e100, 5e-324,
		float32(math.NaN()), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), math.Float32frombits(0x7fc00001), float32(1.5),
	}
	var src strings.Builder
	src.WriteString("package p\n\nimport \"math\"\n\nvar _ = math.Pi\n\n")
	for i, v := range vals {
		fmt.Fprintf(&src, "var v%d %T = %s\n", i, v, Value(v, ""))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src.String(), 0)
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	// Each expression has exactly its variable's type: a conversion or
	// call of that type, not an untyped constant converted on assignment.
	for _, d := range f.Decls {
		spec, ok := d.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		if !ok || spec.Type == nil {
			continue
		}
		got, want := info.Types[spec.Values[0]].Type, info.Types[spec.Type].Type
		if !types.Identical(got, want) {
			t.Errorf("%s: the expression has type %s, want %s", spec.Names[0], got, want)
		}
	}
}

// TestArgs_Interfaces checks that a value in an interface is spelled with
// its dynamic type, which the interface's type does not tell.
func TestArgs_Interfaces(t *testing.T) {
	type lit int
	type div struct{ L, R any }
	got := Args([]any{div{L: lit(0), R: div{L: lit(2)}}, []any{nil, "s", 1.5}}, "github.com/fuzzmin/fuzzmin/internal/gosyntax")
	want := `div{L: lit(0), R: div{L: lit(2)}}, []any{nil, string("s"), float64(1.5)}`
	if got != want {
		t.Errorf("Args = %s, want %s", got, want)
	}
}
