package encoding

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	gotoken "go/token"
)

// referenceUnmarshal decodes a corpus file the way the toolchain does: each
// line through go/parser, then checks on the expression's shape. It is the
// oracle for the differential tests of Unmarshal and the baseline of its
// benchmarks, and it shares only convert's final literal-to-value step with
// Unmarshal (the part that is plain strconv in both).
func referenceUnmarshal(data []byte) ([]any, error) {
	lines := bytes.Split(data, []byte("\n"))
	if len(data) == 0 || len(lines) < 2 {
		return nil, errors.New("too short")
	}
	if string(bytes.TrimSuffix(lines[0], []byte("\r"))) != Version {
		return nil, errors.New("bad version")
	}
	var vals []any
	for _, line := range lines[1:] {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		v, err := referenceValue(line)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	return vals, nil
}

func referenceValue(line []byte) (any, error) {
	expr, err := parser.ParseExprFrom(gotoken.NewFileSet(), "", line, 0)
	if err != nil {
		return nil, err
	}
	call, ok := expr.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, errors.New("not a call with one argument")
	}
	var typ string
	switch fun := call.Fun.(type) {
	case *ast.ArrayType:
		if elt, ok := fun.Elt.(*ast.Ident); !ok || fun.Len != nil || elt.Name != "byte" {
			return nil, errors.New("not []byte")
		}
		typ = "[]byte"
	case *ast.SelectorExpr:
		x, ok := fun.X.(*ast.Ident)
		if !ok || x.Name != "math" {
			return nil, errors.New("bad selector")
		}
		typ = "math." + fun.Sel.Name
	case *ast.Ident:
		typ = fun.Name
	default:
		return nil, errors.New("bad type")
	}

	var a arg
	x := call.Args[0]
	if u, ok := x.(*ast.UnaryExpr); ok {
		a.op, x = u.Op.String(), u.X
	}
	switch x := x.(type) {
	case *ast.BasicLit:
		a.tok.text = x.Value
		a.tok.kind = map[gotoken.Token]tokKind{
			gotoken.INT: tokInt, gotoken.FLOAT: tokFloat, gotoken.IMAG: tokImag,
			gotoken.CHAR: tokChar, gotoken.STRING: tokString,
		}[x.Kind]
	case *ast.Ident:
		a.tok = token{tokIdent, x.Name}
	default:
		return nil, errors.New("not a literal")
	}
	return convert(typ, a)
}
