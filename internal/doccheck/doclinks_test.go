package doccheck

import (
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unicode"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// walk calls f for each file under root with the extension ext, skipping
// testdata and hidden directories.
func walk(t *testing.T, ext string, f func(path string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ext) {
			f(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// docLinkRE matches what a Go doc comment would take for a doc link: a
// bracketed identifier or qualified identifier, not right after a letter,
// a digit or a closing bracket (an index, b[i]) nor right before one or an
// opening bracket or parenthesis.
var docLinkRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}_\])])\[\*?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\](?:$|[^\p{L}\p{N}_(\[])`)

// TestGoDocLinks checks that every [Name] in the doc comments of each
// package (its non-test files) names something: a package-level name of
// the package (exported or not: go doc -u shows both), a method or field
// as [T.Name], or a package it imports or the standard library has, as
// [pkg.Name]. One that names nothing is shown as plain text with its
// brackets. (Lower-case words that name nothing are taken for notation.)
func TestGoDocLinks(t *testing.T) {
	dirs := map[string]bool{}
	walk(t, ".go", func(path string) {
		if !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
	})
	goroot := runtime.GOROOT()
	for dir := range dirs {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, ap := range pkgs {
			syms, imports := symbols(ap)
			resolves := func(name string) bool {
				first, _, _ := strings.Cut(name, ".")
				if syms[name] || imports[first] {
					return true
				}
				if !exportedLooking(name) {
					return true // notation, as the [server] table or [digit]: not a link
				}
				if fi, err := os.Stat(filepath.Join(goroot, "src", first)); err == nil && fi.IsDir() {
					return true
				}
				return false
			}
			var p comment.Parser // no lookups: every bracket stays text, to be checked here
			for _, f := range ap.Files {
				for _, cg := range f.Comments {
					if !isDoc(f, cg) {
						continue
					}
					for _, l := range bracketed(p.Parse(cg.Text())) {
						if !resolves(l) {
							t.Errorf("%s: the doc link [%s] does not resolve", fset.Position(cg.Pos()), l)
						}
					}
				}
			}
		}
	}
}

// exportedLooking reports whether a bracketed name reads as a link: one of
// its parts starts with an upper-case letter ([Name], [pkg.Name],
// [T.method]). A lower-case word that names nothing in the package is
// notation ([server], [digit]), which go doc shows as it is written.
func exportedLooking(name string) bool {
	for part := range strings.SplitSeq(name, ".") {
		if r := []rune(part); len(r) > 0 && unicode.IsUpper(r[0]) {
			return true
		}
	}
	return false
}

// isDoc reports whether a comment group is a doc comment: the package's,
// or a declaration's, or a spec's, or a field's.
func isDoc(f *ast.File, cg *ast.CommentGroup) bool {
	if f.Doc == cg {
		return true
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			found = found || n.Doc == cg
		case *ast.GenDecl:
			found = found || n.Doc == cg
		case *ast.TypeSpec:
			found = found || n.Doc == cg
		case *ast.ValueSpec:
			found = found || n.Doc == cg
		case *ast.Field:
			found = found || n.Doc == cg
		}
		return !found
	})
	return found
}

// symbols returns what a package declares at package level, its methods
// and fields as T.Name, and the names its files import packages as.
func symbols(p *ast.Package) (syms, imports map[string]bool) {
	syms, imports = map[string]bool{}, map[string]bool{}
	for _, f := range p.Files {
		for _, im := range f.Imports {
			path := strings.Trim(im.Path.Value, `"`)
			name := path[strings.LastIndex(path, "/")+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = true
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					syms[d.Name.Name] = true
					continue
				}
				typ := d.Recv.List[0].Type
				if s, ok := typ.(*ast.StarExpr); ok {
					typ = s.X
				}
				switch x := typ.(type) {
				case *ast.IndexExpr:
					typ = x.X
				case *ast.IndexListExpr:
					typ = x.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					syms[id.Name+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							syms[n.Name] = true
						}
					case *ast.TypeSpec:
						syms[spec.Name.Name] = true
						var fields *ast.FieldList
						switch tt := spec.Type.(type) {
						case *ast.StructType:
							fields = tt.Fields
						case *ast.InterfaceType:
							fields = tt.Methods
						}
						if fields != nil {
							for _, fl := range fields.List {
								for _, n := range fl.Names {
									syms[spec.Name.Name+"."+n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	return syms, imports
}

// bracketed returns the bracketed names of a parsed comment's text, outside
// code blocks.
func bracketed(d *comment.Doc) []string {
	var out []string
	var texts func([]comment.Text)
	texts = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case comment.Plain:
				for _, m := range docLinkRE.FindAllStringSubmatch(string(t), -1) {
					out = append(out, m[1])
				}
			case comment.Italic:
				for _, m := range docLinkRE.FindAllStringSubmatch(string(t), -1) {
					out = append(out, m[1])
				}
			case *comment.Link:
				texts(t.Text)
			}
		}
	}
	for _, b := range d.Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			texts(b.Text)
		case *comment.Heading:
			texts(b.Text)
		case *comment.List:
			for _, it := range b.Items {
				for _, c := range it.Content {
					if p, ok := c.(*comment.Paragraph); ok {
						texts(p.Text)
					}
				}
			}
		}
	}
	return out
}

// mdLinkRE matches a Markdown inline link's target.
var mdLinkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestMarkdownLinks checks that every relative link of the Markdown files
// names a file that exists and, with #anchor, a heading of it.
func TestMarkdownLinks(t *testing.T) {
	walk(t, ".md", func(path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := stripCode(string(data))
		for _, m := range mdLinkRE.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
			}
			fi, err := os.Stat(dest)
			if err != nil {
				t.Errorf("%s: the link %s: %v", path, target, err)
				continue
			}
			if anchor != "" && !fi.IsDir() && strings.HasSuffix(dest, ".md") && !hasAnchor(t, dest, anchor) {
				t.Errorf("%s: the link %s: %s has no heading #%s", path, target, dest, anchor)
			}
		}
	})
}

// stripCode removes fenced code blocks and inline code, where brackets and
// parentheses are not links.
func stripCode(s string) string {
	var b strings.Builder
	fenced := false
	for _, line := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			b.WriteString(line)
		}
	}
	return regexp.MustCompile("`[^`]*`").ReplaceAllString(b.String(), "")
}

// hasAnchor reports whether the Markdown file has a heading whose GitHub
// anchor is anchor: lower case, spaces as hyphens, punctuation but hyphens
// and underscores dropped.
func hasAnchor(t *testing.T, path, anchor string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(stripCode(string(data)), "\n") {
		heading, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		heading = strings.TrimSpace(strings.TrimLeft(heading, "#"))
		var slug strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case r == ' ':
				slug.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		if slug.String() == anchor {
			return true
		}
	}
	return false
}
