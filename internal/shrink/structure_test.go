package shrink

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// describe prints the spans and lists of s, one a line.
func describeStructure(s string) string {
	t := structure(s)
	var b strings.Builder
	kinds := [...]string{spanBracket: "bracket", spanQuote: "quote", spanBlock: "block"}
	for _, sp := range t.spans {
		fmt.Fprintf(&b, "%s %q %q\n", kinds[sp.kind], s[sp.start:sp.end], s[sp.in0:sp.in1])
	}
	for _, l := range t.lists {
		var items []string
		for _, r := range l.items {
			items = append(items, s[r.start:r.end])
		}
		fmt.Fprintf(&b, "list %q\n", items)
	}
	return b.String()
}

func TestStructure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s, want string
	}{
		{`[{"a":1},"x"]`, `bracket "[{\"a\":1},\"x\"]" "{\"a\":1},\"x\""
bracket "{\"a\":1}" "\"a\":1"
quote "\"a\"" "a"
quote "\"x\"" "x"
list ["[{\"a\":1},\"x\"]"]
list ["{\"a\":1}" "\"x\""]
list ["\"a\":1"]
`},
		// Blocks by indentation, with the lines that close them.
		{"<a>\n  <b>x</b>\n</a>\n", `block "<a>\n  <b>x</b>\n</a>\n" "  <b>x</b>\n"
bracket "<a>" "a"
block "  <b>x</b>\n" ""
bracket "<b>" "b"
bracket "</b>" "/b"
bracket "</a>" "/a"
list ["<a>\n  <b>x</b>\n</a>\n"]
list ["a"]
list ["  <b>x</b>\n"]
list ["b"]
list ["/b"]
list ["/a"]
`},
		// Unmatched brackets are ignored; < pairs only within a line; a
		// quote does not close on another line.
		{"f(a<b)] {'x\n}", `bracket "(a<b)" "a<b"
bracket "{'x\n}" "'x\n"
block "'x\n" ""
list ["f(a<b)]" "{'x\n}"]
list ["a<b"]
list ["'x\n"]
`},
		{"(/ 1 (- 2 2))", `bracket "(/ 1 (- 2 2))" "/ 1 (- 2 2)"
bracket "(- 2 2)" "- 2 2"
list ["(/ 1 (- 2 2))"]
list ["/" "1" "(- 2 2)"]
list ["-" "2" "2"]
`},
	} {
		if got := describeStructure(tc.s); got != tc.want {
			t.Errorf("structure(%q):\n%s\nwant\n%s", tc.s, got, tc.want)
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	var got []string
	s := "x := f(a_1, \"é\")\t\t// 世界\n"
	for _, r := range tokens(s) {
		got = append(got, s[r.start:r.end])
	}
	want := `["x" " " ":" "=" " " "f" "(" "a_1" "," " " "\"" "é" "\"" ")" "\t\t" "/" "/" " " "世界" "\n"]`
	if g := fmt.Sprintf("%q", got); g != want {
		t.Errorf("tokens = %s\nwant %s", g, want)
	}
}

// checkStructure checks the invariants of the structure of s: spans are in
// preorder, nested or disjoint, each inside its parent, with its content
// inside it; list items are ordered and inside s; tokens tile s; and for
// valid UTF-8 every boundary is at a rune start.
func checkStructure(t *testing.T, s string) {
	t.Helper()
	tx := structure(s)
	valid := utf8.ValidString(s)
	boundary := func(i int) {
		t.Helper()
		if i < 0 || i > len(s) {
			t.Fatalf("%q: boundary %d out of range", s, i)
		}
		if valid && i < len(s) && !utf8.RuneStart(s[i]) {
			t.Fatalf("%q: boundary %d inside a rune", s, i)
		}
	}
	for i, sp := range tx.spans {
		for _, b := range []int{sp.start, sp.end, sp.in0, sp.in1} {
			boundary(b)
		}
		if !(sp.start <= sp.in0 && sp.in0 <= sp.in1 && sp.in1 <= sp.end && sp.start < sp.end) {
			t.Fatalf("%q: textSpan %+v malformed", s, sp)
		}
		if i > 0 {
			prev := tx.spans[i-1]
			if prev.start > sp.start || prev.start == sp.start && prev.end < sp.end {
				t.Fatalf("%q: spans %+v, %+v not in preorder", s, prev, sp)
			}
		}
		if p := sp.parent; p >= 0 {
			if ps := tx.spans[p]; p >= i || ps.start > sp.start || ps.end < sp.end || sp.depth != ps.depth+1 {
				t.Fatalf("%q: textSpan %+v not inside its parent %+v", s, sp, ps)
			}
		}
		for _, o := range tx.spans[:i] {
			if o.start < sp.end && sp.start < o.end && !(o.start <= sp.start && sp.end <= o.end) {
				t.Fatalf("%q: spans %+v and %+v overlap", s, o, sp)
			}
		}
	}
	for _, l := range tx.lists {
		if len(l.items) == 0 {
			t.Fatalf("%q: empty list", s)
		}
		prev := 0
		for _, r := range l.items {
			boundary(r.start)
			boundary(r.end)
			if r.start < prev || r.end < r.start {
				t.Fatalf("%q: list %+v out of order", s, l)
			}
			prev = r.end
		}
		for a := range l.items {
			for b := a + 1; b <= len(l.items); b++ {
				r := itemsRange(l, a, b)
				boundary(r.start)
				boundary(r.end)
			}
		}
	}
	end := 0
	for _, r := range tokens(s) {
		if r.start != end || r.end <= r.start {
			t.Fatalf("%q: tokens do not tile it at %d", s, end)
		}
		boundary(r.start)
		end = r.end
	}
	if end != len(s) {
		t.Fatalf("%q: tokens end at %d", s, end)
	}
}

// FuzzStructure checks that finding the structure of any text never panics
// and keeps its invariants.
func FuzzStructure(f *testing.F) {
	for _, s := range []string{"", "(", ")", "<a\n>", `"\"`, "'", "[{\"a\":[1,2]},{}]", "a\n  b\n c\nd",
		"{\n\tx\n}\n", "<a>\n <b/>\n</a>", "((]]", "x, ,y;", " \t ", "é(世)\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkStructure(t, s)
	})
}
