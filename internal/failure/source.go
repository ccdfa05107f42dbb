package failure

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// SourceVersion names the rules of SourceTemplates: a cache of its results
// keys them by it. Change it with the rules.
const SourceVersion = "templates 3"

// SourceTemplates reads the message templates of one package, the Go
// files named (one directory's), and returns them by the positions of the
// calls that print them ("file.go:line", each line the call spans), and
// under "" those that only make text (errors.New, fmt.Errorf, a "+" of
// literals and values, an Error method's result). A file that does not
// parse gives what it can.
//
// The calls read: the testing package's Error, Fatal, Skip and Log and
// their f forms (and any call whose name ends in f and has a constant
// format: logf, failf, assert.Equalf), fmt's Sprint, Sprintf, Sprintln
// and Errorf, errors.New, panic, log's Print, Fatal and Panic and their
// kin, and slog's Debug, Info, Warn and Error. Constants are evaluated as
// the type checker does for strings: literals, named constants of the
// package, and their concatenations.
func SourceTemplates(files []string) map[string][]string {
	fset := gotoken.NewFileSet()
	var parsed []*ast.File
	for _, name := range files {
		if f, _ := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution); f != nil {
			parsed = append(parsed, f)
		}
	}
	return templatesOf(fset, parsed)
}

// templatesOf returns the templates of the files of one package.
func templatesOf(fset *gotoken.FileSet, parsed []*ast.File) map[string][]string {
	x := extractor{fset: fset, consts: map[string]ast.Expr{}, out: map[string][]string{}, args: map[callee]*argValues{}}
	for _, f := range parsed {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == gotoken.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							x.consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	for _, f := range parsed {
		x.callArgs(f)
	}
	for _, f := range parsed {
		x.file(f)
	}
	return x.out
}

type extractor struct {
	fset   *gotoken.FileSet
	consts map[string]ast.Expr // the package's constants, by name
	out    map[string][]string
	inPlus map[ast.Expr]bool // operands of a "+" already read as part of a longer one
	expand []string          // the values of the parameter written as expandMark
	// args are the arguments the package's calls pass to each function
	// of its own, by its name and arity; fn is the function whose body is
	// being read, whose parameters they may tell.
	args map[callee]*argValues
	fn   *ast.FuncDecl
}

// A callee is a function or method by its name and number of parameters,
// as a call names it (the receiver's type is not known without types).
type callee struct {
	name string
	n    int
}

// argValues are the constant strings the calls of a callee pass as each
// argument; a nil set: some call passes another value.
type argValues struct {
	values []map[string]bool
}

// maxExpand bounds the constants a parameter may take to be read as
// them: a context string passed by a few dozen calls
// (s.error(c, "after object key")).
const maxExpand = 64

// callArgs records the arguments of the calls of f.
func (x *extractor) callArgs(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || c.Ellipsis.IsValid() {
			return true
		}
		var name string
		switch fn := c.Fun.(type) {
		case *ast.Ident:
			name = fn.Name
		case *ast.SelectorExpr:
			name = fn.Sel.Name
		default:
			return true
		}
		k := callee{name, len(c.Args)}
		av := x.args[k]
		if av == nil {
			av = &argValues{values: make([]map[string]bool, len(c.Args))}
			for i := range av.values {
				av.values[i] = map[string]bool{}
			}
			x.args[k] = av
		}
		for i, a := range c.Args {
			s, ok := x.constString(a)
			switch {
			case av.values[i] == nil:
			case !ok || len(av.values[i]) >= maxExpand:
				av.values[i] = nil
			default:
				av.values[i][s] = true
			}
		}
		return true
	})
}

// paramValues returns the constant strings that every call of the
// function being read passes as its parameter named id, sorted, or nil.
func (x *extractor) paramValues(id *ast.Ident) []string {
	if x.fn == nil || x.fn.Type.Params == nil {
		return nil
	}
	i := 0
	for _, field := range x.fn.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, n := range field.Names {
			if n.Name == id.Name {
				av := x.args[callee{x.fn.Name.Name, x.fn.Type.Params.NumFields()}]
				if av == nil || av.values[i] == nil || len(av.values[i]) == 0 {
					return nil
				}
				return slices.Sorted(maps.Keys(av.values[i]))
			}
			i++
		}
	}
	return nil
}

func (x *extractor) file(f *ast.File) {
	x.inPlus = map[ast.Expr]bool{}
	for _, d := range f.Decls {
		x.fn, _ = d.(*ast.FuncDecl)
		x.decl(d)
	}
	x.fn = nil
}

// decl reads the templates of one declaration.
func (x *extractor) decl(d ast.Decl) {
	ast.Inspect(d, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Name == "Error" && n.Recv != nil && n.Type.Params.NumFields() == 0 && n.Body != nil {
				x.errorMethod(n.Body)
			}
		case *ast.CallExpr:
			x.call(n)
		case *ast.BinaryExpr:
			if n.Op != gotoken.ADD || x.inPlus[n] {
				return true
			}
			x.markPlus(n)
			if _, ok := x.constString(n); !ok && x.hasConst(n) {
				x.add(n, "", x.template(n))
			}
		}
		return true
	})
}

// markPlus marks the operands of a chain of "+" as read.
func (x *extractor) markPlus(e ast.Expr) {
	if b, ok := unparen(e).(*ast.BinaryExpr); ok && b.Op == gotoken.ADD {
		x.inPlus[b] = true
		x.markPlus(b.X)
		x.markPlus(b.Y)
	}
}

// hasConst reports whether a chain of "+" has a constant operand.
func (x *extractor) hasConst(e ast.Expr) bool {
	if _, ok := x.constString(e); ok {
		return true
	}
	if b, ok := unparen(e).(*ast.BinaryExpr); ok && b.Op == gotoken.ADD {
		return x.hasConst(b.X) || x.hasConst(b.Y)
	}
	return false
}

// errorMethod reads the results of an Error method.
func (x *extractor) errorMethod(body *ast.BlockStmt) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) == 1 {
				if t := x.template(n.Results[0]); hasLiteral(t) {
					x.add(n, "", t)
				}
			}
		}
		return true
	})
}

// call reads the template of a call that makes a message, if it is one.
func (x *extractor) call(c *ast.CallExpr) {
	var recv, name string
	switch f := c.Fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
		if id, ok := f.X.(*ast.Ident); ok {
			recv = id.Name
		}
	default:
		return
	}
	args := c.Args
	switch {
	case name == "panic" && recv == "" && len(args) == 1:
		x.add(c, "site", x.template(args[0]))
	case recv == "errors" && name == "New" && len(args) == 1:
		x.add(c, "", x.template(args[0]))
	case recv == "slog" && (name == "Debug" || name == "Info" || name == "Warn" || name == "Error") && len(args) > 0:
		// The default handler writes the level, the message and the
		// attributes: ERROR boom key=value.
		var b tmplBuilder
		b.slot(false, "%v")
		b.lit(" ")
		x.write(&b, args[0], "%s")
		b.slot(false, "%v")
		x.add(c, "site", b.String())
	case recv == "assert" || recv == "require":
		// testify's assertions end with their message arguments: a
		// format and its operands, or one message.
		for i, a := range args {
			if format, ok := x.constString(a); ok && (strings.Contains(format, "%") || i == len(args)-1) {
				var b tmplBuilder
				x.format(&b, format, args[i+1:])
				x.add(c, "site", b.String())
				return
			}
		}
	case len(name) > 1 && strings.HasSuffix(name, "f"):
		for i, a := range args {
			if format, ok := x.constString(a); ok {
				var b tmplBuilder
				x.format(&b, format, args[i+1:])
				x.add(c, "site", b.String())
				return
			}
		}
	case name == "Sprint" || name == "Sprintln" || name == "Print" || name == "Println" || name == "Panic" || name == "Panicln" ||
		name == "Fatal" || name == "Fatalln" || name == "Error" || name == "Skip" || name == "Log":
		if len(args) == 0 {
			return
		}
		// The testing package's calls join their operands as Sprintln
		// does, with spaces; log's and fmt.Sprint as Sprint does, with
		// none next to a string.
		spaced := strings.HasSuffix(name, "ln") || recv != "log" && recv != "fmt"
		var b tmplBuilder
		x.print(&b, args, spaced)
		x.add(c, "site", b.String())
	case name == "Fprint" || name == "Fprintln":
		if len(args) > 1 {
			var b tmplBuilder
			x.print(&b, args[1:], name == "Fprintln")
			x.add(c, "site", b.String())
		}
	}
}

// add records t, the template of node n: at each line n spans if where is
// "site", for a failure there; under "" for any failure. A template with a
// parameter of constant arguments is one template for each.
func (x *extractor) add(n ast.Node, where, t string) {
	if t == "" {
		return
	}
	if before, after, ok := strings.Cut(t, expandMark); ok {
		for _, v := range x.expand {
			x.add(n, where, before+strings.ReplaceAll(v, "%", "%%")+strings.ReplaceAll(after, expandMark, "%v"))
		}
		return
	}
	if where == "" {
		x.out[""] = append(x.out[""], t)
		return
	}
	start, end := x.fset.Position(n.Pos()), x.fset.Position(n.End())
	base := filepath.Base(start.Filename)
	for line := start.Line; line <= end.Line; line++ {
		pos := base + ":" + strconv.Itoa(line)
		x.out[pos] = append(x.out[pos], t)
	}
	if hasLiteral(t) {
		x.out[""] = append(x.out[""], t)
	}
}

// hasLiteral reports whether a template has literal text.
func hasLiteral(t string) bool { return parseTemplate(t).lits > 0 }

// template returns the template of the text e makes.
func (x *extractor) template(e ast.Expr) string {
	var b tmplBuilder
	x.write(&b, e, "%v")
	return b.String()
}

// write writes the template of e, printed with verb: the text of a
// constant, of a "+" and of a call that formats, printed as it is (%v, %s
// or %w), is part of the template.
func (x *extractor) write(b *tmplBuilder, e ast.Expr, verb string) {
	plain := verb == "%v" || verb == "%s" || verb == "%w"
	if s, ok := x.constString(e); ok && plain {
		b.lit(s)
		return
	}
	switch e := unparen(e).(type) {
	case *ast.BinaryExpr:
		if e.Op == gotoken.ADD && plain {
			x.write(b, e.X, "%v")
			x.write(b, e.Y, "%v")
			return
		}
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && plain {
			recv, _ := sel.X.(*ast.Ident)
			switch {
			case recv != nil && recv.Name == "fmt" && (sel.Sel.Name == "Sprintf" || sel.Sel.Name == "Errorf") && len(e.Args) > 0:
				if format, ok := x.constString(e.Args[0]); ok {
					x.format(b, format, e.Args[1:])
					return
				}
			case recv != nil && recv.Name == "fmt" && (sel.Sel.Name == "Sprint" || sel.Sel.Name == "Sprintln"):
				x.print(b, e.Args, sel.Sel.Name == "Sprintln")
				return
			case recv != nil && recv.Name == "errors" && sel.Sel.Name == "New" && len(e.Args) == 1:
				x.write(b, e.Args[0], "%v")
				return
			}
		}
	}
	if id, ok := e.(*ast.Ident); ok && plain && verb != "%w" && !strings.Contains(b.String(), expandMark) {
		if vs := x.paramValues(id); vs != nil {
			// A parameter every call passes a constant: each is a
			// template of its own.
			x.expand = vs
			b.WriteString(expandMark)
			return
		}
	}
	b.slot(verb == "%w" || errorLike(e), verb)
}

// expandMark stands, in a template being written, for the parameter whose
// constant arguments x.expand holds.
const expandMark = "\x00param\x00"

// format writes the template of a format and its operands.
func (x *extractor) format(b *tmplBuilder, format string, args []ast.Expr) {
	arg := 0
	for i := 0; i < len(format); {
		if format[i] != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				j = len(format) - i
			}
			b.lit(format[i : i+j])
			i += j
			continue
		}
		n, verb := verbAt(format, i)
		text := format[i : i+n]
		i += n
		if verb == '%' {
			b.lit("%")
			continue
		}
		if k := argIndex(text); k > 0 {
			arg = k - 1
		}
		arg += strings.Count(text, "*")
		var a ast.Expr
		if arg < len(args) {
			a = args[arg]
		}
		arg++
		switch {
		case a != nil && verb == 'w':
			x.write(b, a, "%w")
		case a != nil:
			x.write(b, a, text)
		default:
			b.slot(verb == 'w', text)
		}
	}
}

// argIndex returns the explicit argument index of a verb (%[2]d), or 0.
func argIndex(verb string) int {
	i := strings.LastIndexByte(verb, '[')
	j := strings.LastIndexByte(verb, ']')
	if i < 0 || j < i {
		return 0
	}
	n, _ := strconv.Atoi(verb[i+1 : j])
	return n
}

// print writes the template of the operands of a Print-like call.
func (x *extractor) print(b *tmplBuilder, args []ast.Expr, spaced bool) {
	for i, a := range args {
		if i > 0 && spaced {
			b.lit(" ")
		}
		x.write(b, a, "%v")
	}
}

// errorLike reports whether an operand holds an error, by how Go code
// names errors: err, someErr, ErrShort, x.Err, or a call of Error().
func errorLike(e ast.Expr) bool {
	var name string
	switch e := unparen(e).(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(e.Args) == 0 {
			return true
		}
		return false
	default:
		return false
	}
	return name == "err" || strings.HasPrefix(name, "err") || strings.HasPrefix(name, "Err") || strings.HasSuffix(name, "Err") || strings.HasSuffix(name, "err")
}

// constString returns the value of e if it is a constant string.
func (x *extractor) constString(e ast.Expr) (string, bool) {
	return x.constDepth(e, 0)
}

func (x *extractor) constDepth(e ast.Expr, depth int) (string, bool) {
	if depth > 16 {
		return "", false
	}
	switch e := unparen(e).(type) {
	case *ast.BasicLit:
		if e.Kind != gotoken.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.Ident:
		if v, ok := x.consts[e.Name]; ok {
			return x.constDepth(v, depth+1)
		}
	case *ast.BinaryExpr:
		if e.Op == gotoken.ADD {
			a, ok1 := x.constDepth(e.X, depth+1)
			b, ok2 := x.constDepth(e.Y, depth+1)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// A tmplBuilder writes the text of a template: literal text with its
// percent signs doubled, slots as verbs, an error's as %w.
type tmplBuilder struct {
	strings.Builder
}

func (b *tmplBuilder) lit(s string) { b.WriteString(strings.ReplaceAll(s, "%", "%%")) }

func (b *tmplBuilder) slot(isErr bool, verb string) {
	if isErr {
		verb = "%w"
	}
	b.WriteString(verb)
}
