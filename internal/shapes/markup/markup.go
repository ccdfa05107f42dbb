// Package markup parses HTML-like fragments (elements, quoted attributes,
// text, self-closing tags) and lays out the elements that declare a width
// in grid columns.
package markup

import (
	"fmt"
	"strconv"
	"strings"
)

// Node is an element, or a text node when Tag is "".
type Node struct {
	Tag      string
	Attrs    map[string]string
	Text     string
	Children []*Node
}

// Parse parses a fragment: a sequence of elements and text.
func Parse(src string) ([]*Node, error) {
	root := &Node{Tag: "#root"}
	stack := []*Node{root}
	for i := 0; i < len(src); {
		top := stack[len(stack)-1]
		if src[i] != '<' {
			j := strings.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			top.Children = append(top.Children, &Node{Text: src[i : i+j]})
			i += j
			continue
		}
		end := strings.IndexByte(src[i:], '>')
		if end < 0 {
			return nil, fmt.Errorf("offset %d: unterminated tag", i)
		}
		tag := src[i+1 : i+end]
		i += end + 1
		if name, ok := strings.CutPrefix(tag, "/"); ok { // end tag
			if len(stack) == 1 || top.Tag != name {
				return nil, fmt.Errorf("offset %d: unexpected </%s>", i, name)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		tag, selfClosing := strings.CutSuffix(tag, "/")
		n, err := parseTag(tag)
		if err != nil {
			return nil, fmt.Errorf("offset %d: %v", i, err)
		}
		top.Children = append(top.Children, n)
		if !selfClosing {
			stack = append(stack, n)
		}
	}
	if len(stack) > 1 {
		return nil, fmt.Errorf("unclosed <%s>", stack[len(stack)-1].Tag)
	}
	return root.Children, nil
}

// parseTag parses `name attr="v" attr='v' ...`.
func parseTag(s string) (*Node, error) {
	name, rest, _ := strings.Cut(s, " ")
	if !isName(name) {
		return nil, fmt.Errorf("bad tag name %q", name)
	}
	n := &Node{Tag: name, Attrs: map[string]string{}}
	for rest = strings.TrimLeft(rest, " "); rest != ""; rest = strings.TrimLeft(rest, " ") {
		key, after, ok := strings.Cut(rest, "=")
		if !ok || !isName(key) {
			return nil, fmt.Errorf("<%s>: bad attribute %q", name, rest)
		}
		if after == "" || (after[0] != '"' && after[0] != '\'') {
			return nil, fmt.Errorf("<%s>: unquoted value of %s", name, key)
		}
		q := after[0]
		val, tail, ok := strings.Cut(after[1:], string(q))
		if !ok {
			return nil, fmt.Errorf("<%s>: unterminated value of %s", name, key)
		}
		if tail != "" && tail[0] != ' ' {
			return nil, fmt.Errorf("<%s>: want space after %s=%c%s%c", name, key, q, val, q)
		}
		if _, dup := n.Attrs[key]; dup {
			return nil, fmt.Errorf("<%s>: duplicate attribute %s", name, key)
		}
		n.Attrs[key] = val
		rest = tail
	}
	return n, nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// Columns is the number of columns of the layout grid.
const Columns = 12

// Layout returns the pixel width of every element with a width attribute
// (in grid columns, 0 for automatic) in a container of the given pixels.
func Layout(nodes []*Node, containerPx int) map[*Node]int {
	colPx := make([]int, Columns+1) // colPx[n]: pixels of n columns
	for n := range colPx {
		colPx[n] = containerPx * n / Columns
	}
	out := map[*Node]int{}
	var walk func([]*Node)
	walk = func(nodes []*Node) {
		for _, n := range nodes {
			if w, err := strconv.Atoi(n.Attrs["width"]); err == nil && w != 0 {
				out[n] = colPx[min(w, Columns)]
			}
			walk(n.Children)
		}
	}
	walk(nodes)
	return out
}
