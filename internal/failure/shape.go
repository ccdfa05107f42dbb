package failure

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shape is the part of a message that identifies a failure, whatever the
// input: its first line with the input itself, quoted strings, bracketed
// values and numbers masked. A test that fails with t.Fatalf("parse %q: %v",
// in, err) fails the same way as its input shrinks, while two errors of the
// code under test, "incomplete number" and "expected 'true'", stay apart.
//
// The masks, in order:
//   - each string or []byte of inputs that stands in the message as a whole
//     word (not inside a longer word) becomes …: an input printed with %s or
//     %v;
//   - a string in double quotes or backquotes, and a short one in single
//     quotes that does not start inside a word (so that "can't" stays),
//     becomes "…": values printed with %q, as Go errors quote what they read;
//   - what stands between the first opening square or curly bracket and
//     the last closing one becomes …: slices, maps and structs printed with
//     %v, whose strings need not keep their brackets balanced;
//   - a number (decimal, hexadecimal, with a sign, a fraction, an
//     exponent) becomes N;
//   - runs of white space become one space, and the shape is cut at 200
//     bytes.
func Shape(msg string, inputs []any) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimSpace(msg)
	for _, in := range inputs {
		var s string
		switch x := in.(type) {
		case string:
			s = x
		case []byte:
			s = string(x)
		}
		if s != "" && utf8.ValidString(s) && !strings.ContainsRune(s, '\n') {
			msg = maskWord(msg, s)
		}
	}
	msg = maskQuotes(msg)
	msg = maskBrackets(msg)
	msg = numberShapeRE.ReplaceAllString(msg, "N")
	msg = strings.Join(strings.Fields(msg), " ")
	if len(msg) > 200 {
		msg = msg[:200]
	}
	return msg
}

// A Shaper shapes the messages of the candidates of one search the way the
// original's message needs: with their inputs masked only if the original
// message printed its input. A constant message ("alpha") that happens to
// equal a candidate ("alpha") must keep its shape, while one that prints
// its input (parse %s) must mask it, and only the original can tell which.
type Shaper struct{ MaskInputs bool }

// NewShaper returns the Shaper of a search whose original failed with msg
// on inputs.
func NewShaper(msg string, inputs []any) Shaper {
	return Shaper{MaskInputs: Shape(msg, inputs) != Shape(msg, nil)}
}

// Shape is [Shape], with inputs masked if s says so.
func (s Shaper) Shape(msg string, inputs []any) string {
	if !s.MaskInputs {
		inputs = nil
	}
	return Shape(msg, inputs)
}

var numberShapeRE = regexp.MustCompile(`[-+]?(?:0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)`)

// maskWord replaces the occurrences of w in s that are not part of a longer
// word with "…".
func maskWord(s, w string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, w)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		first, _ := utf8.DecodeRuneInString(w)
		last, _ := utf8.DecodeLastRuneInString(w)
		if (i > 0 && isWord(before) && isWord(first)) || (end < len(s) && isWord(after) && isWord(last)) {
			b.WriteString(s[:i+1]) // inside a word: move on
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString("…")
		s = s[end:]
	}
}

func isWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// maskQuotes replaces quoted strings with "…".
func maskQuotes(s string) string {
	var b bytes.Buffer
	for i := 0; i < len(s); {
		c := s[i]
		if c == '"' || c == '`' || c == '\'' && (i == 0 || !isWordByte(s[i-1])) {
			if end := closingQuote(s, i); end > 0 {
				b.WriteString(`"…"`)
				i = end + 1
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// closingQuote returns the index of the quote that closes the one at s[i],
// or -1: a backquoted string has no escapes, and a single-quoted one is
// short (a character or a word), so that an apostrophe does not swallow
// the rest of a sentence.
func closingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '\'' && j-i > 32:
			return -1
		case s[j] == '\\' && q != '`':
			j++
		case s[j] == q:
			return j
		}
	}
	return -1
}

// maskBrackets replaces what stands between the first opening bracket,
// square or curly, and the last closing one after it with …: %v prints
// slices, maps and structs in brackets, with the strings inside them as they
// are, so their brackets need not balance, and one span from the first to
// the last is the only cut that stays the same as the values change.
func maskBrackets(s string) string {
	open := strings.IndexAny(s, "[{")
	if open < 0 {
		return s
	}
	end := strings.LastIndexAny(s, "]}")
	if end < open {
		return s
	}
	return s[:open+1] + "…" + s[end:]
}
