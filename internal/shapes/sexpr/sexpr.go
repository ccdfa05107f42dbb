// Package sexpr evaluates integer arithmetic written as S-expressions:
//
//	(+ 1 (* 2 (/ 7 (- 3 1))))
//
// Operators: + and * take any number of operands, - takes one (negation)
// or more, / two or more (left to right), min and max one or more.
package sexpr

import (
	"errors"
	"fmt"
	"strconv"
)

// Eval parses and evaluates one expression.
func Eval(src string) (int64, error) {
	p := &parser{toks: tokenize(src)}
	n, err := p.expr(0)
	if err != nil {
		return 0, err
	}
	if p.pos != len(p.toks) {
		return 0, fmt.Errorf("unexpected %q after expression", p.toks[p.pos])
	}
	return eval(n), nil
}

type node struct {
	op   string // "" for a number
	val  int64
	args []*node
}

const maxDepth = 1000

// arity is the least number of operands of each operator.
var arity = map[string]int{"+": 0, "*": 0, "-": 1, "/": 2, "min": 1, "max": 1}

var errEOF = errors.New("unexpected end of input")

func tokenize(s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, s[i:i+1])
			i++
		default:
			j := i
			for j < len(s) && !isDelim(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks
}

func isDelim(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == ')'
}

type parser struct {
	toks []string
	pos  int
}

func (p *parser) expr(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errors.New("expression nested too deeply")
	}
	if p.pos >= len(p.toks) {
		return nil, errEOF
	}
	tok := p.toks[p.pos]
	p.pos++
	switch tok {
	case ")":
		return nil, errors.New("unexpected )")
	case "(":
	default:
		v, err := strconv.ParseInt(tok, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q", tok)
		}
		return &node{val: v}, nil
	}
	if p.pos >= len(p.toks) {
		return nil, errEOF
	}
	n := &node{op: p.toks[p.pos]}
	p.pos++
	want, ok := arity[n.op]
	if !ok {
		return nil, fmt.Errorf("unknown operator %q", n.op)
	}
	for {
		if p.pos >= len(p.toks) {
			return nil, errEOF
		}
		if p.toks[p.pos] == ")" {
			p.pos++
			break
		}
		a, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, a)
	}
	if len(n.args) < want {
		return nil, fmt.Errorf("%s needs at least %d operands", n.op, want)
	}
	return n, nil
}

func eval(n *node) int64 {
	if n.op == "" {
		return n.val
	}
	if len(n.args) == 0 { // (+) and (*)
		return map[string]int64{"+": 0, "*": 1}[n.op]
	}
	acc := eval(n.args[0])
	if n.op == "-" && len(n.args) == 1 {
		return -acc
	}
	for _, a := range n.args[1:] {
		v := eval(a)
		switch n.op {
		case "+":
			acc += v
		case "-":
			acc -= v
		case "*":
			acc *= v
		case "/":
			acc /= v
		case "min":
			acc = min(acc, v)
		case "max":
			acc = max(acc, v)
		}
	}
	return acc
}
