package fuzzshrink

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// StringMatching generates strings that the regular expression expr (in
// the syntax of package regexp) matches in full, as if it were
// ^(?:expr)$. Each alternation draws a branch, each repetition is a
// collection of its copies, and each character class draws an index into
// its ranges, so the strings shrink as the expression's structure does:
// toward earlier branches, fewer repetitions and the first character of
// each class ("a@a.com" for `[a-z]+@[a-z]+\.(com|org)`). Unbounded
// repetitions draw as many copies as a collection would. A string that
// generation makes but that expr does not match (word boundaries, line
// anchors in the middle) is not a valid case, and is skipped. It panics if
// expr does not parse.
func StringMatching(expr string) *Gen[string] {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(fmt.Sprintf("fuzzshrink.StringMatching(%q): %v", expr, err))
	}
	// Of the parsed expression, not expr: a \Q in expr would quote the
	// closing parenthesis.
	full := regexp.MustCompile(`^(?:` + re.String() + `)$`)
	g := &regexpGen{re: re, name: fmt.Sprintf("StringMatching(%q)", expr), elems: map[*syntax.Regexp]*shrink.Drawer{}}
	g.repetitions(g.re)
	return newGen(g.name,
		func(t *T) string {
			var b strings.Builder
			g.draw(t, g.re, &b)
			s := b.String()
			if !full.MatchString(s) {
				t.invalidate("%s drew %q, which it does not match", g.name, s)
			}
			return s
		},
		nil)
}

// A regexpGen draws the strings of a parsed expression.
type regexpGen struct {
	re    *syntax.Regexp
	name  string
	elems map[*syntax.Regexp]*shrink.Drawer // per repetition: its copies, elements of a collection
}

// repetitions makes the generators of the copies of each repetition in re.
func (g *regexpGen) repetitions(re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		g.elems[re] = elementOf(fmt.Sprintf("%s: %v", g.name, re))
	}
	for _, sub := range re.Sub {
		g.repetitions(sub)
	}
}

// anyRunes are the runes of . and (?s:.): those of Rune, but newlines for
// the first.
var anyRunes, anyNotNL = Rune(), Rune().Filter(func(r rune) bool { return r != '\n' })

func (g *regexpGen) draw(t *T, re *syntax.Regexp, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				r = foldCase(t, r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		b.WriteRune(classRune(t, re.Rune))
	case syntax.OpAnyCharNotNL:
		b.WriteRune(anyNotNL.value(t))
	case syntax.OpAnyChar:
		b.WriteRune(anyRunes.value(t))
	case syntax.OpCapture:
		g.draw(t, re.Sub[0], b)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			g.draw(t, sub, b)
		}
	case syntax.OpAlternate:
		k := t.drawInt(shrink.UnsignedInterval(0, uint64(len(re.Sub)-1)), uniform)
		g.draw(t, re.Sub[k], b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := repeats(re)
		collect(t, g.elems[re], lo, hi, func() bool {
			g.draw(t, re.Sub[0], b)
			return true
		})
	}
	// The empty matches (OpEmptyMatch, anchors, word boundaries) draw
	// nothing: the full match checks them.
}

// repeats returns the bounds of a repetition (max < 0: none).
func repeats(re *syntax.Regexp) (lo, hi int) {
	switch re.Op {
	case syntax.OpStar:
		return 0, -1
	case syntax.OpPlus:
		return 1, -1
	case syntax.OpQuest:
		return 0, 1
	}
	return re.Min, re.Max
}

// classRune draws a rune of the class whose ranges are the pairs of rs, by
// its index among the class's runes, so that it shrinks toward the first.
func classRune(t *T, rs []rune) rune {
	total := uint64(0)
	for i := 0; i < len(rs); i += 2 {
		total += uint64(rs[i+1]-rs[i]) + 1
	}
	k := t.drawInt(shrink.UnsignedInterval(0, total-1), biased)
	for i := 0; i < len(rs); i += 2 {
		n := uint64(rs[i+1]-rs[i]) + 1
		if k < n {
			r := rs[i] + rune(k)
			if !utf8.ValidRune(r) { // a surrogate of a negated class
				return utf8.RuneError
			}
			return r
		}
		k -= n
	}
	return rs[0]
}

// foldCase draws r or another case of it: r first.
func foldCase(t *T, r rune) rune {
	n := 1 // the cases of r, in the order of unicode.SimpleFold from r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		n++
	}
	if n == 1 {
		return r
	}
	for k := t.drawInt(shrink.UnsignedInterval(0, uint64(n-1)), uniform); k > 0; k-- {
		r = unicode.SimpleFold(r)
	}
	return r
}
