package doccheck

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite api/*.txt from the packages' current API")

// publicPackages are the packages a user imports, by directory from the
// root: their API is recorded in api/<name>.txt.
var publicPackages = []string{"fuzzshrink", "corpus"}

// TestAPI checks the exported API of each public package against its
// record, api/<package>.txt: a name added, removed or changed is a
// decision, made by rewriting the record (-update) in the same commit.
func TestAPI(t *testing.T) {
	for _, dir := range publicPackages {
		got := apiOf(t, filepath.Join(root, dir))
		path := filepath.Join(root, "api", dir+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./internal/doccheck -update writes it)", err)
		}
		if got != string(want) {
			t.Errorf("the API of %s is not the one api/%s.txt records; if the change is meant, rewrite it with go test ./internal/doccheck -update\n%s",
				dir, dir, lineDiff(string(want), got))
		}
	}
}

// apiOf lists the exported API of the package in dir, a line per name, as
// the Go project's api files do: functions and methods with their
// signatures, types with their exported fields and methods, constants and
// variables with their types or values, sorted.
func apiOf(t *testing.T, dir string) string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	src := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return strings.Join(strings.Fields(b.String()), " ")
	}
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for name, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					typ := src(d.Type)
					typ = strings.TrimPrefix(typ, "func")
					if d.Recv == nil {
						add("pkg %s, func %s%s", name, d.Name.Name, typ)
						continue
					}
					recv := src(d.Recv.List[0].Type)
					if base := strings.TrimLeft(recv, "*"); !ast.IsExported(strings.SplitN(base, "[", 2)[0]) {
						continue
					}
					add("pkg %s, method (%s) %s%s", name, recv, d.Name.Name, typ)
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if !s.Name.IsExported() {
								continue
							}
							tparams := ""
							if s.TypeParams != nil {
								tparams = src(s.TypeParams)
								tparams = "[" + strings.TrimSuffix(strings.TrimPrefix(tparams, "("), ")") + "]"
							}
							assign := ""
							if s.Assign.IsValid() {
								assign = "= "
							}
							switch tt := s.Type.(type) {
							case *ast.StructType:
								add("pkg %s, type %s%s %sstruct", name, s.Name.Name, tparams, assign)
								for _, fl := range tt.Fields.List {
									for _, n := range fl.Names {
										if n.IsExported() {
											add("pkg %s, type %s struct, %s %s", name, s.Name.Name, n.Name, src(fl.Type))
										}
									}
									if len(fl.Names) == 0 {
										add("pkg %s, type %s struct, embedded %s", name, s.Name.Name, src(fl.Type))
									}
								}
							case *ast.InterfaceType:
								add("pkg %s, type %s%s %sinterface", name, s.Name.Name, tparams, assign)
								for _, m := range tt.Methods.List {
									for _, n := range m.Names {
										if n.IsExported() {
											add("pkg %s, type %s interface, %s%s", name, s.Name.Name, n.Name, strings.TrimPrefix(src(m.Type), "func"))
										}
									}
									if len(m.Names) == 0 {
										add("pkg %s, type %s interface, %s", name, s.Name.Name, src(m.Type))
									}
								}
							default:
								add("pkg %s, type %s%s %s%s", name, s.Name.Name, tparams, assign, src(s.Type))
							}
						case *ast.ValueSpec:
							kind := "var"
							if d.Tok == token.CONST {
								kind = "const"
							}
							for i, n := range s.Names {
								if !n.IsExported() {
									continue
								}
								switch {
								case s.Type != nil:
									add("pkg %s, %s %s %s", name, kind, n.Name, src(s.Type))
								case i < len(s.Values):
									add("pkg %s, %s %s = %s", name, kind, n.Name, src(s.Values[i]))
								default:
									add("pkg %s, %s %s", name, kind, n.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}

// lineDiff lists the lines only want has (-) and only got has (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if l != "" && !slices.Contains(g, l) {
			fmt.Fprintf(&b, "-%s\n", l)
		}
	}
	for _, l := range g {
		if l != "" && !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+%s\n", l)
		}
	}
	return b.String()
}
