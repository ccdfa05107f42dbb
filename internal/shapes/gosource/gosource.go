// Package gosource is a small lint for Go source: it reports shift
// assignments by constant counts (x <<= n, x >>= n) and what they leave of a
// 64-bit operand.
package gosource

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// Finding is one reported shift.
type Finding struct {
	Pos  token.Position
	Func string
	Msg  string
}

// keepMask[n] is the mask of the bits of a uint64 that survive x <<= n.
var keepMask [64]uint64

func init() {
	for n := range keepMask {
		keepMask[n] = ^uint64(0) << n
	}
}

// Check parses src as a Go file and reports its constant shift assignments.
func Check(filename string, src []byte) ([]Finding, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || (as.Tok != token.SHL_ASSIGN && as.Tok != token.SHR_ASSIGN) {
				return true
			}
			lit, ok := as.Rhs[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.INT {
				return true
			}
			count, err := strconv.ParseUint(lit.Value, 0, 64)
			if err != nil {
				return true
			}
			mask := keepMask[count]
			if as.Tok == token.SHR_ASSIGN {
				mask = ^uint64(0) >> count
			}
			out = append(out, Finding{
				Pos:  fset.Position(as.Pos()),
				Func: fn.Name.Name,
				Msg:  fmt.Sprintf("shift by %d keeps %#x", count, mask),
			})
			return true
		})
	}
	return out, nil
}
