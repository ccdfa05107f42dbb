package testbin

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// The fuzz worker protocol is internal to the toolchain and may change in
// any release. fuzzmin speaks it (worker.go) only after checking it against
// the source of the toolchain that built the test binary, which every Go
// installation carries under GOROOT/src: the messages fuzzmin sends and
// reads must be the structs of the same names in internal/fuzz/worker.go
// with fields of the same names and types, the header of the shared memory
// must be internal/fuzz/mem.go's field by field (fuzzmin writes it
// through a pointer, so the layout is the order and the types), the input
// must follow the header, the worker must take its pipes and memory as
// descriptors 3, 4 and 5 (internal/fuzz/sys_posix.go, getWorkerComm), and
// testing must have the flags fuzzmin starts the worker with
// (testing/fuzz.go). The mirrors of the hook's shim (hook/shim.go), which
// passes calls and answers between the toolchain's coordinator and worker
// and answers for a worker that ended, must be the toolchain's too. Any
// difference is drift: candidates then run in processes, which need none
// of it, and the workers of a run that fuzzes past failures are no shims.

// protocolTypes are the mirrors in worker.go of the toolchain's types, by
// the name they have there.
var protocolTypes = []struct {
	file   string
	typ    reflect.Type
	layout bool // the whole struct, in order: it is read as memory
}{
	{"worker.go", reflect.TypeFor[call](), false},
	{"worker.go", reflect.TypeFor[pingArgs](), true},
	{"worker.go", reflect.TypeFor[fuzzArgs](), false},
	{"worker.go", reflect.TypeFor[fuzzResponse](), false},
	{"mem.go", reflect.TypeFor[sharedMemHeader](), true},
}

// protocolFlags are the testing flags a worker is started with.
var protocolFlags = []string{"test.fuzz", "test.fuzzworker", "test.fuzzcachedir"}

// checkProtocol checks the worker protocol of the toolchain whose source
// is in src (GOROOT/src). Its error names the first difference found.
func checkProtocol(src string) error {
	fuzzDir := filepath.Join(src, "internal", "fuzz")
	files := map[string]*ast.File{}
	parse := func(path string) (*ast.File, error) {
		if f, ok := files[path]; ok {
			return f, nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("reading the toolchain's source: %w", err)
		}
		files[path] = f
		return f, nil
	}
	for _, pt := range protocolTypes {
		f, err := parse(filepath.Join(fuzzDir, pt.file))
		if err != nil {
			return err
		}
		if err := checkStruct(f, pt.file, pt.typ, pt.layout); err != nil {
			return err
		}
	}
	mem, err := parse(filepath.Join(fuzzDir, "mem.go"))
	if err != nil {
		return err
	}
	if !funcContains(mem, "valueRef", "valueOffset := int(unsafe.Sizeof(sharedMemHeader{}))") ||
		!funcContains(mem, "valueRef", "return m.region[valueOffset : valueOffset+length]") {
		return errors.New("mem.go: the input no longer follows the header (valueRef)")
	}
	sys, err := parse(filepath.Join(fuzzDir, "sys_posix.go"))
	if err != nil {
		return err
	}
	fdVars := map[string]string{"fuzz_in": "fuzzIn", "fuzz_out": "fuzzOut", "fuzz_mem": "memFile"}
	for fd, name := range []string{3: "fuzz_in", 4: "fuzz_out", 5: "fuzz_mem"} {
		if name != "" && !funcContains(sys, "getWorkerComm", fmt.Sprintf("%s := os.NewFile(%d, %q)", fdVars[name], fd, name)) {
			return fmt.Errorf("sys_posix.go: the worker no longer takes %s as descriptor %d (getWorkerComm)", name, fd)
		}
	}
	worker, err := parse(filepath.Join(fuzzDir, "worker.go"))
	if err != nil {
		return err
	}
	if err := checkShim(worker, mem); err != nil {
		return err
	}
	testing, err := parse(filepath.Join(src, "testing", "fuzz.go"))
	if err != nil {
		return err
	}
	for _, name := range protocolFlags {
		if !hasStringLit(testing, name) {
			return fmt.Errorf("testing/fuzz.go: no flag -%s", name)
		}
	}
	return nil
}

// shimMirrors are the mirrors of the toolchain's types in the hook's shim
// (hook/shim.go), by their names there and in the toolchain's file; with
// layout, the mirror has the fields in their order, or else some of them;
// with names, only the names of the fields are the toolchain's.
var shimMirrors = []struct {
	ours, theirs, file string
	layout, names      bool
}{
	{"call", "call", "worker.go", true, true},
	{"minimizeArgs", "minimizeArgs", "worker.go", false, false},
	{"fuzzResponse", "fuzzResponse", "worker.go", false, false},
	{"minimizeResponse", "minimizeResponse", "worker.go", false, false},
	{"sharedMemHeader", "sharedMemHeader", "mem.go", true, false},
}

// checkShim checks the shim's mirrors against the toolchain's worker.go
// and mem.go.
func checkShim(worker, mem *ast.File) error {
	shim, err := parser.ParseFile(token.NewFileSet(), "shim.go", shimSource, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	// The shim passes calls and answers as the lines json.Encoder writes.
	if !funcContains(worker, "serve", "enc := json.NewEncoder(ws.fuzzOut)") || !funcContains(worker, "callLocked", "enc := json.NewEncoder(wc.fuzzIn)") {
		return errors.New("worker.go: calls and answers are no longer written by a json.Encoder (serve, callLocked)")
	}
	for _, m := range shimMirrors {
		f := worker
		if m.file == "mem.go" {
			f = mem
		}
		theirs, ours := findStruct(f, m.theirs), findStruct(shim, m.ours)
		if theirs == nil {
			return fmt.Errorf("%s: no struct type %s", m.file, m.theirs)
		}
		if ours == nil {
			return fmt.Errorf("the hook's shim.go has no mirror %s", m.ours)
		}
		fields := func(st *ast.StructType) (names []string, types map[string]string) {
			types = map[string]string{}
			for _, fl := range st.Fields.List {
				for _, n := range fl.Names {
					names = append(names, n.Name)
					types[n.Name] = exprString(fl.Type)
				}
			}
			return names, types
		}
		theirNames, theirTypes := fields(theirs)
		ourNames, ourTypes := fields(ours)
		for _, n := range ourNames {
			switch t, ok := theirTypes[n]; {
			case !ok:
				return fmt.Errorf("%s: %s has no field %s", m.file, m.theirs, n)
			case !m.names && t != ourTypes[n]:
				return fmt.Errorf("%s: %s.%s is a %s, not a %s", m.file, m.theirs, n, t, ourTypes[n])
			}
		}
		if m.layout && strings.Join(theirNames, " ") != strings.Join(ourNames, " ") {
			return fmt.Errorf("%s: %s has the fields %v, not %v", m.file, m.theirs, theirNames, ourNames)
		}
	}
	return nil
}

// checkStruct checks that the struct type named as typ in f has typ's
// fields, with the same names and types; with layout, exactly those fields
// in that order.
func checkStruct(f *ast.File, file string, typ reflect.Type, layout bool) error {
	st := findStruct(f, typ.Name())
	if st == nil {
		return fmt.Errorf("%s: no struct type %s", file, typ.Name())
	}
	var theirs []string
	types := map[string]string{}
	for _, fl := range st.Fields.List {
		for _, n := range fl.Names {
			theirs = append(theirs, n.Name)
			types[n.Name] = exprString(fl.Type)
		}
	}
	var ours []string
	for i := range typ.NumField() {
		sf := typ.Field(i)
		ours = append(ours, sf.Name)
		got, ok := types[sf.Name]
		switch want := typeString(sf.Type); {
		case !ok:
			return fmt.Errorf("%s: %s has no field %s", file, typ.Name(), sf.Name)
		case got != want:
			return fmt.Errorf("%s: %s.%s is a %s, not a %s", file, typ.Name(), sf.Name, got, want)
		}
	}
	if layout && strings.Join(theirs, " ") != strings.Join(ours, " ") {
		return fmt.Errorf("%s: %s has the fields %v, not %v", file, typ.Name(), theirs, ours)
	}
	return nil
}

func findStruct(f *ast.File, name string) *ast.StructType {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, s := range gd.Specs {
			if ts := s.(*ast.TypeSpec); ts.Name.Name == name {
				st, _ := ts.Type.(*ast.StructType)
				return st
			}
		}
	}
	return nil
}

// exprString spells a type expression of the source as typeString spells
// a type.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.ArrayType:
		if e.Len == nil {
			return "[]" + exprString(e.Elt)
		}
	}
	return fmt.Sprintf("%T", e) // never equal to a typeString
}

// typeString spells a type of a mirror: its own name for the mirrors (the
// toolchain's name), the qualified name for other named types.
func typeString(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Pointer:
		return "*" + typeString(t.Elem())
	case t.Kind() == reflect.Slice && t.Name() == "":
		return "[]" + typeString(t.Elem())
	case t.PkgPath() == reflect.TypeFor[call]().PkgPath():
		return t.Name()
	}
	return t.String()
}

// funcContains reports whether the body of function name in f has the
// statement want, spelled as gofmt spells it.
func funcContains(f *ast.File, name, want string) bool {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || fd.Body == nil {
			continue
		}
		for _, st := range fd.Body.List {
			var b strings.Builder
			if printer.Fprint(&b, token.NewFileSet(), st) == nil && b.String() == want {
				return true
			}
		}
	}
	return false
}

// hasStringLit reports whether f holds the string literal s.
func hasStringLit(f *ast.File, s string) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil && v == s {
				found = true
			}
		}
		return !found
	})
	return found
}
