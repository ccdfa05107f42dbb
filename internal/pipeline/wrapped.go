package pipeline

import (
	"go/ast"
	pathpkg "path"
	"strconv"
)

const fuzzshrinkPath = "github.com/fuzzmin/fuzzmin/fuzzshrink"

// wrappedTargets finds, in the files of one package, the functions that call
// fuzzshrink.Fuzz, directly or through package-level functions of the same
// package, and returns their names: a fuzz target among them is wrapped,
// and its entries shrink in the test process, as Go values.
//
// The source cannot show a call made through a function of another package
// or through a function value; for the targets it does not show as
// wrapped, the command asks the test binary (session.Probe) while it
// replays their entries.
func wrappedTargets(files []*ast.File) map[string]bool {
	direct := map[string]bool{}    // functions that call fuzzshrink.Fuzz
	calls := map[string][]string{} // package-level functions each function calls
	for _, f := range files {
		names := importNames(f, fuzzshrinkPath)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fun := call.Fun
				if ix, ok := fun.(*ast.IndexExpr); ok { // an instantiation
					fun = ix.X
				}
				switch x := fun.(type) {
				case *ast.SelectorExpr:
					if id, ok := x.X.(*ast.Ident); ok && names[id.Name] && x.Sel.Name == "Fuzz" {
						direct[fn.Name.Name] = true
					}
				case *ast.Ident:
					if names["."] && x.Name == "Fuzz" {
						direct[fn.Name.Name] = true
					}
					calls[fn.Name.Name] = append(calls[fn.Name.Name], x.Name)
				}
				return true
			})
		}
	}
	wrapped := map[string]bool{}
	var reaches func(name string, seen map[string]bool) bool
	reaches = func(name string, seen map[string]bool) bool {
		if direct[name] {
			return true
		}
		if seen[name] {
			return false
		}
		seen[name] = true
		for _, callee := range calls[name] {
			if reaches(callee, seen) {
				return true
			}
		}
		return false
	}
	for name := range calls {
		if reaches(name, map[string]bool{}) {
			wrapped[name] = true
		}
	}
	for name := range direct {
		wrapped[name] = true
	}
	return wrapped
}

// importNames returns the names under which file f imports the package
// with import path path: its name, an alias, or "." for a dot import.
func importNames(f *ast.File, path string) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			name := pathpkg.Base(p)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = true
		}
	}
	return names
}
