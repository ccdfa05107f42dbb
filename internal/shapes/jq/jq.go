// Package jq runs filters of a small jq-like language on JSON values. An
// input is the filter, a newline, then the JSON value it runs on:
//
//	[.store.books[] | select(.price > 10)] | map({title, cost: .price * 2}) | .[-1]
//	{"store": {"books": [{"title": "Dune", "price": 12}]}}
//
// A filter is a pipeline of expressions separated by |, each producing a
// stream of values from its input. Terms: . (the input), .name and .[i]
// (an object's field, an array's element; i < 0 counts from the end),
// .[] (every element), literals (numbers, "strings", true, false, null),
// [f] (collect f's outputs into an array), {key: f, name} (an object;
// name alone is name: .name), (f), and the builtins map(f), select(f),
// length and keys. Comparisons (== != < <= > >=) and arithmetic (+ - *)
// combine every output of the left side with every output of the right.
package jq

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Run parses the filter and the JSON value of src and returns the outputs.
func Run(src string) ([]any, error) {
	filter, data, ok := strings.Cut(src, "\n")
	if !ok {
		return nil, errors.New("no input")
	}
	var in any
	if err := json.Unmarshal([]byte(data), &in); err != nil {
		return nil, err
	}
	toks, err := tokenize(filter)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f, err := p.pipe(0)
	if err != nil {
		return nil, err
	}
	if p.pos != len(p.toks) {
		return nil, fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	return f(in)
}

// A filter maps an input to a stream of outputs.
type filter func(in any) ([]any, error)

func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c, j := s[i], i+1
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case isLetter(c):
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j])) {
				j++
			}
		case isDigit(c):
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		case c == '"':
			for j < len(s) && s[j] != '"' {
				j++
			}
			if j == len(s) {
				return nil, errors.New("unterminated string")
			}
			j++
		case strings.IndexByte("=!<>", c) >= 0:
			if j < len(s) && s[j] == '=' {
				j++
			} else if c == '=' || c == '!' {
				return nil, fmt.Errorf("unexpected %q", c)
			}
		case strings.IndexByte(".|[](){}:,+-*", c) >= 0:
		default:
			return nil, fmt.Errorf("unexpected %q", c)
		}
		toks = append(toks, s[i:j])
		i = j
	}
	return toks, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

type parser struct {
	toks []string
	pos  int
}

const maxDepth = 100

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

// pipe parses expressions separated by |.
func (p *parser) pipe(depth int) (filter, error) {
	if depth > maxDepth {
		return nil, errors.New("too deep")
	}
	l, err := p.compare(depth)
	for err == nil && p.peek() == "|" {
		p.next()
		var r filter
		if r, err = p.compare(depth); err == nil {
			l = then(l, r)
		}
	}
	return l, err
}

func then(l, r filter) filter {
	return func(in any) ([]any, error) {
		xs, err := l(in)
		var out []any
		for _, x := range xs {
			if err != nil {
				break
			}
			var ys []any
			ys, err = r(x)
			out = append(out, ys...)
		}
		return out, err
	}
}

var compareOps = []string{"==", "!=", "<", "<=", ">", ">="}

func (p *parser) compare(depth int) (filter, error) {
	l, err := p.sum(depth)
	if err != nil || !slices.Contains(compareOps, p.peek()) {
		return l, err
	}
	op := p.next()
	r, err := p.sum(depth)
	return binary(op, l, r), err
}

func (p *parser) sum(depth int) (filter, error) {
	l, err := p.product(depth)
	for err == nil && (p.peek() == "+" || p.peek() == "-") {
		op := p.next()
		var r filter
		if r, err = p.product(depth); err == nil {
			l = binary(op, l, r)
		}
	}
	return l, err
}

func (p *parser) product(depth int) (filter, error) {
	l, err := p.postfix(depth)
	for err == nil && p.peek() == "*" {
		p.next()
		var r filter
		if r, err = p.postfix(depth); err == nil {
			l = binary("*", l, r)
		}
	}
	return l, err
}

// postfix parses a term and the field and index accesses after it.
func (p *parser) postfix(depth int) (filter, error) {
	f, err := p.term(depth)
	for err == nil {
		switch {
		case p.peek() == "." && p.pos+1 < len(p.toks) && isLetter(p.toks[p.pos+1][0]):
			p.next()
			f = then(f, field(p.next()))
		case p.peek() == "[":
			var g filter
			if g, err = p.access(depth); err == nil {
				f = then(f, g)
			}
		default:
			return f, nil
		}
	}
	return nil, err
}

// access parses [] or [i] after a term.
func (p *parser) access(depth int) (filter, error) {
	p.next()
	if p.peek() == "]" {
		p.next()
		return each, nil
	}
	i, err := p.pipe(depth + 1)
	if err != nil {
		return nil, err
	}
	return index(i), p.expect("]")
}

func (p *parser) term(depth int) (filter, error) {
	t := p.next()
	switch {
	case t == ".":
		switch {
		case p.peek() == "[":
			return p.access(depth)
		case p.peek() != "" && isLetter(p.peek()[0]):
			return field(p.next()), nil
		}
		return func(in any) ([]any, error) { return []any{in}, nil }, nil
	case t == "-" && p.peek() != "" && isDigit(p.peek()[0]):
		n, err := strconv.Atoi(p.next())
		return constant(float64(-n)), err
	case t != "" && isDigit(t[0]):
		n, err := strconv.Atoi(t)
		return constant(float64(n)), err
	case t != "" && t[0] == '"':
		return constant(t[1 : len(t)-1]), nil
	case t == "true" || t == "false":
		return constant(t == "true"), nil
	case t == "null":
		return constant(nil), nil
	case t == "(":
		f, err := p.pipe(depth + 1)
		if err != nil {
			return nil, err
		}
		return f, p.expect(")")
	case t == "[":
		f, err := p.pipe(depth + 1)
		if err != nil {
			return nil, err
		}
		return collect(f), p.expect("]")
	case t == "{":
		return p.object(depth)
	case t == "map" || t == "select":
		if err := p.expect("("); err != nil {
			return nil, err
		}
		f, err := p.pipe(depth + 1)
		if err != nil {
			return nil, err
		}
		if t == "map" {
			return collect(then(each, f)), p.expect(")")
		}
		return selectBy(f), p.expect(")")
	case t == "length":
		return length, nil
	case t == "keys":
		return keys, nil
	case t == "":
		return nil, errors.New("unexpected end of filter")
	}
	return nil, fmt.Errorf("unexpected %q", t)
}

// object parses the fields of {…}, after the brace.
func (p *parser) object(depth int) (filter, error) {
	var names []string
	var values []filter
	for p.peek() != "}" {
		if len(names) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		name := p.next()
		if name == "" || !isLetter(name[0]) {
			return nil, fmt.Errorf("want a key, got %q", name)
		}
		v := field(name)
		if p.peek() == ":" {
			p.next()
			var err error
			if v, err = p.compare(depth + 1); err != nil {
				return nil, err
			}
		}
		names, values = append(names, name), append(values, v)
	}
	p.next()
	return func(in any) ([]any, error) {
		obj := map[string]any{}
		for i, v := range values {
			vs, err := v(in)
			if err != nil {
				return nil, err
			}
			if len(vs) > 0 {
				obj[names[i]] = vs[0]
			}
		}
		return []any{obj}, nil
	}, nil
}

func constant(v any) filter { return func(any) ([]any, error) { return []any{v}, nil } }

func field(name string) filter {
	return func(in any) ([]any, error) {
		switch x := in.(type) {
		case nil:
			return []any{nil}, nil
		case map[string]any:
			return []any{x[name]}, nil
		}
		return nil, fmt.Errorf("cannot read .%s of %T", name, in)
	}
}

func index(i filter) filter {
	return func(in any) ([]any, error) {
		is, err := i(in)
		if err != nil || len(is) == 0 {
			return nil, err
		}
		n, ok := is[0].(float64)
		switch a := in.(type) {
		case nil:
			return []any{nil}, nil
		case []any:
			if !ok {
				return nil, errors.New("index is not a number")
			}
			k := int(n)
			if k < 0 {
				k += len(a) // the bug: still negative if -n > len(a)
			}
			if k >= len(a) {
				return []any{nil}, nil
			}
			return []any{a[k]}, nil // line 360
		}
		return nil, fmt.Errorf("cannot index %T", in)
	}
}

func each(in any) ([]any, error) {
	switch x := in.(type) {
	case []any:
		return x, nil
	case map[string]any:
		var out []any
		for _, k := range sortedKeys(x) {
			out = append(out, x[k])
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot iterate over %T", in)
}

func collect(f filter) filter {
	return func(in any) ([]any, error) {
		xs, err := f(in)
		if xs == nil {
			xs = []any{}
		}
		return []any{xs}, err
	}
}

func selectBy(f filter) filter {
	return func(in any) ([]any, error) {
		cs, err := f(in)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if c != nil && c != false {
				return []any{in}, nil
			}
		}
		return nil, nil
	}
}

func length(in any) ([]any, error) {
	switch x := in.(type) {
	case nil:
		return []any{0.0}, nil
	case string:
		return []any{float64(len(x))}, nil
	case []any:
		return []any{float64(len(x))}, nil
	case map[string]any:
		return []any{float64(len(x))}, nil
	case float64:
		return []any{max(x, -x)}, nil
	}
	return nil, fmt.Errorf("%T has no length", in)
}

func keys(in any) ([]any, error) {
	m, ok := in.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%T has no keys", in)
	}
	var out []any
	for _, k := range sortedKeys(m) {
		out = append(out, k)
	}
	return []any{out}, nil
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// binary combines every output of l with every output of r.
func binary(op string, l, r filter) filter {
	return func(in any) ([]any, error) {
		ls, err := l(in)
		if err != nil {
			return nil, err
		}
		rs, err := r(in)
		if err != nil {
			return nil, err
		}
		var out []any
		for _, a := range ls {
			for _, b := range rs {
				v, err := apply(op, a, b)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
		}
		return out, nil
	}
}

func apply(op string, a, b any) (any, error) {
	x, xok := a.(float64)
	y, yok := b.(float64)
	switch op {
	case "==":
		return fmt.Sprint(a) == fmt.Sprint(b), nil
	case "!=":
		return fmt.Sprint(a) != fmt.Sprint(b), nil
	}
	if !xok || !yok {
		if s, ok := a.(string); ok && op == "+" {
			if t, ok := b.(string); ok {
				return s + t, nil
			}
		}
		return nil, fmt.Errorf("cannot %s %T and %T", op, a, b)
	}
	switch op {
	case "<":
		return x < y, nil
	case "<=":
		return x <= y, nil
	case ">":
		return x > y, nil
	case ">=":
		return x >= y, nil
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	}
	return x * y, nil
}
