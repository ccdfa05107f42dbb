// Package calc evaluates integer expressions in infix notation with calls:
//
//	max(3, abs(-7) * pow(2, 5), avg(min(4, 9), 12)) - gcd(84, 36) % 5
//
// Operators: + and - below * / and %, all left to right, unary minus, and
// parentheses. Functions: abs(x), pow(x, n) with n >= 0, gcd(a, b),
// min, max and avg of one or more arguments, sum of any number, and
// pick(i, x0, x1, …), which is xi. Dividing by zero, an unknown name and a
// wrong number of arguments are errors.
package calc

import (
	"errors"
	"fmt"
	"strconv"
)

// Eval parses and evaluates an expression.
func Eval(src string) (int64, error) {
	toks, err := tokenize(src)
	if err != nil {
		return 0, err
	}
	p := &parser{toks: toks}
	n, err := p.expr(0)
	if err != nil {
		return 0, err
	}
	if p.pos != len(p.toks) {
		return 0, fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	return n.eval()
}

type node struct {
	op   string // an operator, a function's name, or "" for a number
	val  int64
	args []*node
}

func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		j := i + 1
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			i++
			continue
		case '0' <= c && c <= '9':
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
		case 'a' <= c && c <= 'z':
			for j < len(s) && 'a' <= s[j] && s[j] <= 'z' {
				j++
			}
		case c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '(' || c == ')' || c == ',':
		default:
			return nil, fmt.Errorf("unexpected %q", c)
		}
		toks = append(toks, s[i:j])
		i = j
	}
	return toks, nil
}

type parser struct {
	toks []string
	pos  int
}

const maxDepth = 200

var errEOF = errors.New("unexpected end of input")

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) next() string {
	t := p.peek()
	p.pos++
	return t
}

func (p *parser) expect(t string) error {
	if got := p.next(); got != t {
		return fmt.Errorf("want %q, got %q", t, got)
	}
	return nil
}

// expr parses a sum of terms.
func (p *parser) expr(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, errors.New("too deep")
	}
	l, err := p.term(depth)
	for err == nil && (p.peek() == "+" || p.peek() == "-") {
		op := p.next()
		var r *node
		if r, err = p.term(depth); err == nil {
			l = &node{op: op, args: []*node{l, r}}
		}
	}
	return l, err
}

// term parses a product of factors.
func (p *parser) term(depth int) (*node, error) {
	l, err := p.factor(depth)
	for err == nil && (p.peek() == "*" || p.peek() == "/" || p.peek() == "%") {
		op := p.next()
		var r *node
		if r, err = p.factor(depth); err == nil {
			l = &node{op: op, args: []*node{l, r}}
		}
	}
	return l, err
}

// factor parses a number, a negation, a parenthesized expression or a
// call.
func (p *parser) factor(depth int) (*node, error) {
	t := p.next()
	switch {
	case t == "":
		return nil, errEOF
	case t == "-":
		x, err := p.factor(depth + 1)
		return &node{op: "neg", args: []*node{x}}, err
	case t == "(":
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		return x, p.expect(")")
	case '0' <= t[0] && t[0] <= '9':
		v, err := strconv.ParseInt(t, 10, 64)
		return &node{val: v}, err
	case 'a' <= t[0] && t[0] <= 'z':
		return p.call(t, depth)
	}
	return nil, fmt.Errorf("unexpected %q", t)
}

// arity is the least and the most arguments of each function (-1: any).
var arity = map[string][2]int{"abs": {1, 1}, "pow": {2, 2}, "gcd": {2, 2}, "min": {1, -1}, "max": {1, -1}, "sum": {0, -1}, "avg": {1, -1}, "pick": {1, -1}}

func (p *parser) call(name string, depth int) (*node, error) {
	a, ok := arity[name]
	if !ok {
		return nil, fmt.Errorf("unknown name %q", name)
	}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	n := &node{op: name}
	for p.peek() != ")" {
		if len(n.args) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		x, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		n.args = append(n.args, x)
	}
	p.next()
	if len(n.args) < a[0] || a[1] >= 0 && len(n.args) > a[1] {
		return nil, fmt.Errorf("%s takes %v arguments, not %d", name, a, len(n.args))
	}
	return n, nil
}

func (n *node) eval() (int64, error) {
	if n.op == "" {
		return n.val, nil
	}
	vs := make([]int64, len(n.args))
	for i, a := range n.args {
		v, err := a.eval()
		if err != nil {
			return 0, err
		}
		vs[i] = v
	}
	switch n.op {
	case "+":
		return vs[0] + vs[1], nil
	case "-":
		return vs[0] - vs[1], nil
	case "*":
		return vs[0] * vs[1], nil
	case "/", "%":
		if vs[1] == 0 {
			return 0, errors.New("division by zero")
		}
		if n.op == "/" {
			return vs[0] / vs[1], nil
		}
		return vs[0] % vs[1], nil
	case "neg":
		return -vs[0], nil
	case "abs":
		return max(vs[0], -vs[0]), nil
	case "pow":
		if vs[1] < 0 {
			return 0, errors.New("negative power")
		}
		r := int64(1)
		for range min(vs[1], 64) {
			r *= vs[0]
		}
		return r, nil
	case "gcd":
		a, b := max(vs[0], -vs[0]), max(vs[1], -vs[1])
		for b != 0 {
			a, b = b, a%b
		}
		return a, nil
	case "min":
		return min(vs[0], vs[1:]...), nil
	case "max":
		return max(vs[0], vs[1:]...), nil
	case "pick":
		if vs[0] < 0 {
			return 0, errors.New("negative index")
		}
		return vs[1:][vs[0]], nil // the bug: an index past the last (line 236)
	}
	var s int64
	for _, v := range vs {
		s += v
	}
	if n.op == "sum" {
		return s, nil
	}
	return s / int64(len(vs)), nil
}

func min(x int64, ys ...int64) int64 {
	for _, y := range ys {
		if y < x {
			x = y
		}
	}
	return x
}

func max(x int64, ys ...int64) int64 {
	for _, y := range ys {
		if y > x {
			x = y
		}
	}
	return x
}
