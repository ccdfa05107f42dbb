package vetcheck

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/analysis/suite/vet"
	"golang.org/x/tools/go/analysis/unitchecker"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// fuzzshrinkPath is the import path of the package whose calls are checked.
const fuzzshrinkPath = "github.com/fuzzmin/fuzzmin/fuzzshrink"

// Suite is what fuzzmin runs as a vet tool: go vet's own analyzers (the
// suite cmd/vet runs, from the same x/tools), and Analyzer. A -vettool
// replaces go vet's analyzers rather than adding to them, so the tool
// carries them: go vet -vettool=fuzzmin-vet reports all that go vet does.
var Suite = append(vet.Suite[:len(vet.Suite):len(vet.Suite)], Analyzer)

// Main is the vet tool, as go vet runs it (cmd/fuzzmin-vet): it runs
// Suite on the package go vet names, and exits.
func Main() { unitchecker.Main(Suite...) }

// Analyzer is the check.
var Analyzer = &analysis.Analyzer{
	Name:     "fuzzshrink",
	Doc:      "check fuzz targets that use fuzzshrink: Add's values against Fuzz's parameters, the types Fuzz decodes, and the T given to Draw",
	URL:      "https://pkg.go.dev/github.com/fuzzmin/fuzzmin/fuzzshrink",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run:      run,
}

// A target is the calls of fuzzshrink made with one *testing.F.
type target struct {
	adds []*ast.CallExpr
	fuzz *ast.CallExpr
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	targets := map[types.Object]*target{}
	var order []types.Object
	ins.WithStack([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node, push bool, stack []ast.Node) bool {
		if !push {
			return true
		}
		call := n.(*ast.CallExpr)
		fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != fuzzshrinkPath {
			return true
		}
		if recv := fn.Signature().Recv(); recv != nil {
			if fn.Name() == "Draw" && len(call.Args) > 0 {
				checkDraw(pass, call, stack)
			}
			return true
		}
		if fn.Name() != "Add" && fn.Name() != "Fuzz" || len(call.Args) == 0 {
			return true
		}
		f := objectOf(pass.TypesInfo, call.Args[0])
		if f == nil {
			return true
		}
		t := targets[f]
		if t == nil {
			t = &target{}
			targets[f] = t
			order = append(order, f)
		}
		if fn.Name() == "Add" {
			t.adds = append(t.adds, call)
		} else if t.fuzz == nil {
			t.fuzz = call
		}
		return true
	})
	for _, f := range order {
		checkTarget(pass, targets[f])
	}
	return nil, nil
}

// objectOf returns the variable an expression names, or nil.
func objectOf(info *types.Info, e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return info.ObjectOf(id)
	}
	return nil
}

// checkTarget checks the calls of one target.
func checkTarget(pass *analysis.Pass, t *target) {
	if t.fuzz == nil || len(t.fuzz.Args) < 2 {
		return
	}
	sig, ok := pass.TypesInfo.TypeOf(t.fuzz.Args[1]).Underlying().(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	first := ""
	if params.Len() > 0 {
		first = types.TypeString(params.At(0).Type(), nil)
	}
	switch {
	case first == "*"+fuzzshrinkPath+".T":
		if params.Len() != 1 || sig.Results().Len() != 0 {
			pass.Reportf(t.fuzz.Args[1].Pos(), "fuzzshrink.Fuzz: a property of generators is func(*fuzzshrink.T), not %s", types.TypeString(sig, types.RelativeTo(pass.Pkg)))
		}
		for _, add := range t.adds {
			pass.Reportf(add.Pos(), "fuzzshrink.Add in a target of generators, whose entries are choice sequences: add its draws' values with fuzzshrink.AddDraws")
		}
		return
	case first != "*testing.T" || sig.Results().Len() != 0 || sig.Variadic():
		pass.Reportf(t.fuzz.Args[1].Pos(), "fuzzshrink.Fuzz: want func(*testing.T, ...) or func(*fuzzshrink.T), got %s", types.TypeString(sig, types.RelativeTo(pass.Pkg)))
		return
	}
	for i := 1; i < params.Len(); i++ {
		if why := unsupported(params.At(i).Type(), map[types.Type]bool{}); why != "" {
			pass.Reportf(t.fuzz.Args[1].Pos(), "fuzzshrink.Fuzz: parameter %d has type %s, which fuzzshrink cannot decode: %s",
				i+1, types.TypeString(params.At(i).Type(), types.RelativeTo(pass.Pkg)), why)
		}
	}
	for _, add := range t.adds {
		if add.Pos() > t.fuzz.Pos() {
			pass.Reportf(add.Pos(), "fuzzshrink.Add after fuzzshrink.Fuzz: Fuzz has started, and never sees this seed")
			continue
		}
		checkAdd(pass, add, params)
	}
}

// checkAdd checks the values of an Add against the fuzz function's
// parameters after *testing.T.
func checkAdd(pass *analysis.Pass, add *ast.CallExpr, params *types.Tuple) {
	if add.Ellipsis != token.NoPos {
		return // values from a slice: not known here
	}
	vals := add.Args[1:]
	if len(vals) != params.Len()-1 {
		pass.Reportf(add.Pos(), "fuzzshrink.Add: %d values, but the fuzz function takes %d after *testing.T", len(vals), params.Len()-1)
		return
	}
	for i, v := range vals {
		got := types.Default(pass.TypesInfo.TypeOf(v))
		want := params.At(i + 1).Type()
		if got != nil && !types.Identical(got, want) {
			q := types.RelativeTo(pass.Pkg)
			pass.Reportf(v.Pos(), "fuzzshrink.Add: value %d has type %s, but the fuzz function's parameter %d has type %s",
				i+1, types.TypeString(got, q), i+2, types.TypeString(want, q))
		}
	}
}

// unsupported says why fuzzshrink cannot decode values of type t, or "".
func unsupported(t types.Type, seen map[types.Type]bool) string {
	if seen[t] {
		return ""
	}
	seen[t] = true
	if custom(t) {
		return ""
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsComplex != 0:
			return "a complex number"
		case u.Kind() == types.Uintptr:
			return "uintptr"
		case u.Kind() == types.UnsafePointer:
			return "an unsafe pointer"
		}
	case *types.Pointer:
		return unsupported(u.Elem(), seen)
	case *types.Slice:
		return unsupported(u.Elem(), seen)
	case *types.Array:
		return unsupported(u.Elem(), seen)
	case *types.Map:
		if why := unsupported(u.Key(), seen); why != "" {
			return why
		}
		return unsupported(u.Elem(), seen)
	case *types.Struct:
		exported := false
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				continue // not decoded
			}
			exported = true
			if why := unsupported(f.Type(), seen); why != "" {
				return fmt.Sprintf("field %s: %s", f.Name(), why)
			}
		}
		if !exported {
			return "a struct with no exported fields (a custom type has MarshalFuzz() []byte and, on its pointer, UnmarshalFuzz([]byte))"
		}
	case *types.Chan:
		return "a channel"
	case *types.Signature:
		return "a function"
	case *types.Interface:
		return "an interface"
	}
	return ""
}

// custom reports whether t is a custom type, as fuzzshrink decides it
// (structured.IsCustom): not a pointer or an interface, T implements
// fuzzshrink's MarshalFuzz() []byte and *T its UnmarshalFuzz([]byte).
func custom(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Interface:
		return false
	}
	return types.Implements(t, marshaler) && types.Implements(types.NewPointer(t), unmarshaler)
}

// marshaler and unmarshaler are the interfaces of a custom type.
var (
	bytes       = types.NewVar(token.NoPos, nil, "", types.NewSlice(types.Typ[types.Byte]))
	marshaler   = method("MarshalFuzz", nil, types.NewTuple(bytes))
	unmarshaler = method("UnmarshalFuzz", types.NewTuple(bytes), nil)
)

// method returns the interface of the one method name(params) results.
func method(name string, params, results *types.Tuple) *types.Interface {
	sig := types.NewSignatureType(nil, nil, nil, params, results, false)
	return types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, name, sig)}, nil).Complete()
}

// checkDraw reports a Draw given a *fuzzshrink.T that is not a parameter
// of the innermost function around the call with one.
func checkDraw(pass *analysis.Pass, call *ast.CallExpr, stack []ast.Node) {
	arg := objectOf(pass.TypesInfo, call.Args[0])
	if arg == nil || types.TypeString(arg.Type(), nil) != "*"+fuzzshrinkPath+".T" {
		return
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var ft *ast.FuncType
		switch fn := stack[i].(type) {
		case *ast.FuncLit:
			ft = fn.Type
		case *ast.FuncDecl:
			ft = fn.Type
		default:
			continue
		}
		var own types.Object
		for _, field := range ft.Params.List {
			for _, name := range field.Names {
				if obj := pass.TypesInfo.ObjectOf(name); obj != nil && types.TypeString(obj.Type(), nil) == "*"+fuzzshrinkPath+".T" {
					own = obj
				}
			}
		}
		if own == nil {
			continue // a function without a T of its own: look further out
		}
		if own != arg {
			pass.Reportf(call.Args[0].Pos(), "Draw given %s, the *fuzzshrink.T of an enclosing function: give it %s, this property's own, or its draws go to another run", arg.Name(), own.Name())
		}
		return
	}
}
