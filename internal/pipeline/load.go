package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Package is a package with fuzz targets.
type Package struct {
	ImportPath string
	Args       []string // how the go command is told of it: the import path, or the .go files named
	Dir        string
	ModuleDir  string    // the root of its module, or Dir outside modules
	ModulePath string    // its module's path, "" outside modules
	Writable   bool      // in the main module: testdata may be written
	Targets    []*Target // FuzzXxx functions in its test files, sorted by name
	// Unbuilt are the fuzz targets of test files that the build
	// constraints leave out here (a GOOS, a build tag), by name, with the
	// file: not orphans, only not built.
	Unbuilt map[string]string
	// templates are its test binary's message templates, loaded once.
	templates pkgTemplates
}

// A Target is a fuzz target of a package.
type Target struct {
	Name string
	File string // the test file that declares it, and the line
	Line int
	// Package is the package clause of File, External whether that is
	// the external test package.
	Package  string
	External bool
	// Wrapped: the target calls fuzzshrink.Fuzz, as its source shows
	// (see wrappedTargets), or as it said when asked (session.Probe).
	Wrapped bool
}

// Target returns p's target of that name, or nil.
func (p *Package) Target(name string) *Target {
	for _, t := range p.Targets {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// listed is what go list says of a package (the fields loadPackages asks
// for).
type listed struct {
	ImportPath   string
	Dir          string
	GoFiles      []string
	CgoFiles     []string
	TestGoFiles  []string
	XTestGoFiles []string
	// IgnoredGoFiles are the files build constraints leave out.
	IgnoredGoFiles []string
	Module         *struct {
		Path string
		Dir  string
		Main bool
	}
	Error *struct{ Pos, Err string }
}

// loadPackages loads the packages matching patterns, as go test would
// (build tags go to the go command), and finds the fuzz targets in their
// test files. It returns every loaded package, with or without targets;
// errors are those of the go command (no such package, a broken go.mod) as
// "pos: msg" lines.
//
// It asks go list for the packages' files and parses the test files
// itself: go list -test, which go/packages needs for test files, costs
// ten times as much (0.16 s against 0.02 s for a small package), and it
// is most of what a run on a small entry spends before its build.
func loadPackages(dir string, env []string, tags string, patterns []string) ([]*Package, error) {
	args := []string{"list", "-e", "-json=ImportPath,Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles,Module,Error"}
	if tags != "" {
		args = append(args, "-tags="+tags)
	}
	cmd := exec.Command("go", append(args, patterns...)...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg) // the go command's words suffice
		}
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []*Package
	var errs []string
	fset := token.NewFileSet()
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var lp listed
		if err := dec.Decode(&lp); err != nil {
			return nil, fmt.Errorf("reading go list's output: %w", err)
		}
		if lp.Error != nil {
			msg := lp.Error.Err
			if lp.Error.Pos != "" {
				msg = lp.Error.Pos + ": " + msg
			}
			errs = append(errs, msg)
			continue
		}
		if lp.Dir == "" {
			continue
		}
		p := &Package{ImportPath: lp.ImportPath, Args: []string{lp.ImportPath}, Dir: lp.Dir, ModuleDir: lp.Dir, Writable: lp.Module == nil || lp.Module.Main}
		if lp.ImportPath == "command-line-arguments" {
			p.Args = goFiles(patterns) // go test x.go x_test.go, as the user named them
		}
		if lp.Module != nil && lp.Module.Dir != "" {
			p.ModuleDir, p.ModulePath = lp.Module.Dir, lp.Module.Path
		}
		p.findTargets(fset, &lp)
		pkgs = append(pkgs, p)
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(dedupe(errs), "\n"))
	}
	return pkgs, nil
}

// findTargets finds the fuzz targets in the test files go list named, and
// those of the test files the build constraints leave out (Unbuilt).
func (p *Package) findTargets(fset *token.FileSet, lp *listed) {
	// The package's test files are compiled with its other files; the
	// external test files (package p_test) are a package of their own.
	internal := slices.Concat(lp.GoFiles, lp.CgoFiles, lp.TestGoFiles)
	for k, files := range [][]string{internal, lp.XTestGoFiles} {
		syntax := parseFiles(fset, lp.Dir, files)
		wrapped := wrappedTargets(syntax)
		for i, f := range syntax {
			if !strings.HasSuffix(files[i], "_test.go") {
				continue
			}
			for _, fn := range fuzzTargets(f) {
				if name := fn.Name.Name; p.Target(name) == nil {
					pos := fset.Position(fn.Pos())
					p.Targets = append(p.Targets, &Target{Name: name, File: pos.Filename, Line: pos.Line, Wrapped: wrapped[name],
						Package: f.Name.Name, External: k == 1})
				}
			}
		}
	}
	slices.SortFunc(p.Targets, func(a, b *Target) int { return strings.Compare(a.Name, b.Name) })
	var ignoredTests []string
	for _, name := range lp.IgnoredGoFiles {
		if strings.HasSuffix(name, "_test.go") {
			ignoredTests = append(ignoredTests, name)
		}
	}
	for i, f := range parseFiles(fset, lp.Dir, ignoredTests) {
		for _, fn := range fuzzTargets(f) {
			if p.Target(fn.Name.Name) == nil {
				if p.Unbuilt == nil {
					p.Unbuilt = map[string]string{}
				}
				p.Unbuilt[fn.Name.Name] = ignoredTests[i]
			}
		}
	}
}

// parseFiles parses the files of a package in dir. A file with syntax
// errors gives what parsed (go test reports the errors when it builds), and
// one that cannot be read an empty file.
func parseFiles(fset *token.FileSet, dir string, names []string) []*ast.File {
	files := make([]*ast.File, len(names))
	for i, name := range names {
		f, _ := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if f == nil {
			f = &ast.File{Name: ast.NewIdent("_")}
		}
		files[i] = f
	}
	return files
}

// fuzzTargets returns the fuzz targets a test file declares: functions
// FuzzXxx(*testing.F), where Xxx does not start with a lower-case letter.
func fuzzTargets(f *ast.File) []*ast.FuncDecl {
	names := importNames(f, "testing")
	if len(names) == 0 {
		return nil
	}
	var targets []*ast.FuncDecl
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !isFuzzName(fn.Name.Name) || fn.Type.Params.NumFields() != 1 || fn.Type.Results.NumFields() != 0 {
			continue
		}
		star, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		switch x := star.X.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && names[id.Name] && x.Sel.Name == "F" {
				targets = append(targets, fn)
			}
		case *ast.Ident:
			if names["."] && x.Name == "F" {
				targets = append(targets, fn)
			}
		}
	}
	return targets
}

// goFiles returns the patterns that name .go files.
func goFiles(patterns []string) []string {
	var files []string
	for _, p := range patterns {
		if strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
	}
	return files
}

func isFuzzName(name string) bool { return hasTestPrefix(name, "Fuzz") }

// isTestName reports whether go test runs a function of that name as a
// test, TestXxx.
func isTestName(name string) bool { return hasTestPrefix(name, "Test") }

func hasTestPrefix(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || !unicode.IsLower(r)
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// linkedPackages returns the packages of the main module that the test
// binary of p links: p, and those its tests import, directly or not,
// sorted. A fuzz target in a harness package (one whose tests call another
// package of the module) covers code there.
func (c *Run) linkedPackages(ctx context.Context, p *Package) ([]string, error) {
	deps, err := c.testDeps(ctx, p)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, d := range deps {
		if d.main && !d.testMain() {
			paths = append(paths, d.path())
		}
	}
	slices.Sort(paths)
	return dedupe(paths), nil
}

// LiteralDirs returns the directories whose literals a campaign's
// workers try in p's inputs (testbin.WriteDict): p's own, then those of
// the packages it and its tests import that are neither the standard
// library's nor fuzzmin's, nearest first. A harness package's tests call
// a parser of another module, whose keywords and markers its bugs sit
// behind; the mutator does not write them by itself.
func (c *Run) LiteralDirs(ctx context.Context, p *Package) ([]string, error) {
	deps, err := c.testDeps(ctx, p)
	if err != nil {
		return nil, err
	}
	byPath := make(map[string]*testDep, len(deps))
	var queue []string
	for i := range deps {
		d := &deps[i]
		byPath[d.importPath] = d
		if d.testMain() {
			queue = append(queue, d.imports...) // p, its test variant and its external tests
		}
	}
	dirs := []string{p.Dir}
	seen := map[string]bool{p.Dir: true}
	visited := map[string]bool{}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		d := byPath[path]
		if d == nil || visited[path] || d.standard || d.module == fuzzminModule {
			continue
		}
		visited[path] = true
		if !seen[d.dir] {
			seen[d.dir] = true
			dirs = append(dirs, d.dir)
		}
		queue = append(queue, d.imports...)
	}
	return dirs, nil
}

// fuzzminModule is this module's path: its packages' literals are not the
// code under test's.
const fuzzminModule = "github.com/fuzzmin/fuzzmin"

// A testDep is a package the test binary of a package links, as go list
// -deps -test lists it: "x [x.test]" for x compiled with its tests.
type testDep struct {
	importPath, name, dir, module string
	standard, main                bool // of the standard library; of the main module
	imports                       []string
}

// path is the package's import path, without the test binary it was
// compiled for.
func (d *testDep) path() string {
	path, _, _ := strings.Cut(d.importPath, " [")
	return path
}

// testMain reports whether d is the test binary's generated main package.
func (d *testDep) testMain() bool {
	return d.name == "main" && strings.HasSuffix(d.importPath, ".test")
}

// testDeps lists the packages the test binary of p links.
func (c *Run) testDeps(ctx context.Context, p *Package) ([]testDep, error) {
	const format = "{{.ImportPath}}\t{{.Name}}\t{{.Dir}}\t{{.Standard}}\t" +
		"{{with .Module}}{{.Path}}\t{{.Main}}{{else}}\tfalse{{end}}\t{{join .Imports \",\"}}" // "x [x.test]" has a space
	args := append(append([]string{"list", "-deps", "-test", "-f", format}, c.BuildFlags()...), p.Args...)
	out, err := c.goOutput(ctx, args...)
	if err != nil {
		return nil, err
	}
	var deps []testDep
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			continue
		}
		deps = append(deps, testDep{importPath: f[0], name: f[1], dir: f[2], standard: f[3] == "true",
			module: f[4], main: f[5] == "true", imports: strings.FieldsFunc(f[6], func(r rune) bool { return r == ',' })})
	}
	return deps, nil
}
