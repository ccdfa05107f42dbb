package cli

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/packages"
)

// A pkg is a package with fuzz targets.
type pkg struct {
	ImportPath string
	Args       []string // how the go command is told of it: the import path, or the .go files named
	Dir        string
	ModuleDir  string    // the root of its module, or Dir outside modules
	Writable   bool      // in the main module: testdata may be written
	Targets    []*target // FuzzXxx functions in its test files, sorted by name
}

// A target is a fuzz target of a package.
type target struct {
	Name string
	// Wrapped: the target calls fuzzshrink.Fuzz, as its source shows
	// (see wrappedTargets), or as it said when asked (session.Probe).
	Wrapped bool
}

// target returns p's target of that name, or nil.
func (p *pkg) target(name string) *target {
	for _, t := range p.Targets {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// loadPackages loads the packages matching patterns, as go test would
// (build tags go to the build system), and finds the fuzz targets in their
// test files. It returns every loaded package, with or without targets;
// errors are those of the go command (no such package, a broken go.mod) as
// "pos: msg" lines.
func loadPackages(dir string, env []string, tags string, patterns []string) ([]*pkg, error) {
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedModule | packages.NeedForTest,
		Dir:   dir,
		Env:   env,
		Tests: true,
		Fset:  token.NewFileSet(),
	}
	if tags != "" {
		cfg.BuildFlags = []string{"-tags=" + tags}
	}
	loaded, err := packages.Load(cfg, patterns...)
	if err != nil {
		// "err: exit status 1: stderr: go: …": the go command's words suffice.
		msg := err.Error()
		if _, after, ok := strings.Cut(msg, "stderr: "); ok {
			msg = after
		}
		return nil, errors.New(strings.TrimSpace(msg))
	}
	byPath := map[string]*pkg{}
	var pkgs []*pkg
	var errs []string
	for _, lp := range loaded {
		path := lp.PkgPath
		if lp.ForTest != "" {
			path = lp.ForTest
		}
		if strings.HasSuffix(lp.ID, ".test") && lp.Name == "main" {
			continue // the generated test main
		}
		for _, e := range lp.Errors {
			if e.Kind == packages.ListError || len(lp.Syntax) == 0 {
				msg := e.Msg
				if e.Pos != "" && e.Pos != "-" {
					msg = e.Pos + ": " + msg
				}
				errs = append(errs, msg)
			}
		}
		p := byPath[path]
		if p == nil {
			if lp.Dir == "" {
				continue
			}
			p = &pkg{ImportPath: path, Args: []string{path}, Dir: lp.Dir, ModuleDir: lp.Dir, Writable: lp.Module == nil || lp.Module.Main}
			if path == "command-line-arguments" {
				p.Args = goFiles(patterns) // go test x.go x_test.go, as the user named them
			}
			if lp.Module != nil && lp.Module.Dir != "" {
				p.ModuleDir = lp.Module.Dir
			}
			byPath[path] = p
			pkgs = append(pkgs, p)
		}
		wrapped := wrappedTargets(lp.Syntax)
		for i, f := range lp.Syntax {
			if i < len(lp.CompiledGoFiles) && !strings.HasSuffix(lp.CompiledGoFiles[i], "_test.go") {
				continue
			}
			for _, name := range fuzzTargets(f) {
				if p.target(name) == nil {
					p.Targets = append(p.Targets, &target{Name: name, Wrapped: wrapped[name]})
				}
			}
		}
	}
	if len(errs) > 0 {
		sort.Strings(errs)
		return nil, fmt.Errorf("%s", strings.Join(dedupe(errs), "\n"))
	}
	for _, p := range pkgs {
		slices.SortFunc(p.Targets, func(a, b *target) int { return strings.Compare(a.Name, b.Name) })
	}
	return pkgs, nil
}

// fuzzTargets returns the fuzz targets a test file declares: functions
// FuzzXxx(*testing.F), where Xxx does not start with a lower-case letter.
func fuzzTargets(f *ast.File) []string {
	names := importNames(f, "testing")
	if len(names) == 0 {
		return nil
	}
	var targets []string
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
				targets = append(targets, fn.Name.Name)
			}
		case *ast.Ident:
			if names["."] && x.Name == "F" {
				targets = append(targets, fn.Name.Name)
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

func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
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
