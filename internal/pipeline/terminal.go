package pipeline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TerminalSafe returns text with what a terminal would act on rather than
// show written as Go escapes: control characters other than newline and
// tab (an escape sequence starts with one), the marks that reorder text
// (U+202A–U+202E, U+2066–U+2069), and bytes that are not UTF-8. An entry's
// file name, or a test's message, can hold any of them; fuzzmin's own text
// around them holds none, so what it prints reads as it was meant, in a
// terminal and in a CI log. (go test's own lines are printed as go test
// printed them.)
func TerminalSafe(text string) string {
	i := strings.IndexFunc(text, unsafeRune)
	if i < 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(text[:i])
	for rest := text[i:]; rest != ""; {
		r, size := utf8.DecodeRuneInString(rest)
		switch {
		case !unsafeRune(r):
			b.WriteString(rest[:size])
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, rest[0])
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		rest = rest[size:]
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case unicode.IsControl(r), r == utf8.RuneError: // U+FFFD: a byte that is not UTF-8
		return true
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}
