package testbin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// RunPattern is a -run pattern that selects exactly the seed corpus file
// named file of target: ^Target$/^file$, the file's name quoted. The
// testing package matches a seed corpus file by its name as it is, but
// rewrites each part of the pattern as it rewrites the names of subtests
// (testing/match.go: simpleMatch.verify, rewrite): white space becomes _,
// and a rune that is not printable its Go escape. So such runes of the name
// are spelled as escapes of the regular expression, \x{20}, which the
// rewrite leaves as they are.
func RunPattern(target, file string) string {
	var b strings.Builder
	for _, r := range regexp.QuoteMeta(file) {
		if isSpace(r) || !strconv.IsPrint(r) {
			fmt.Fprintf(&b, `\x{%x}`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return "^" + regexp.QuoteMeta(target) + "$/^" + b.String() + "$"
}

// isSpace is the testing package's: not the same as Unicode's Z class.
func isSpace(r rune) bool {
	if r < 0x2000 {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x85, 0xA0, 0x1680:
			return true
		}
		return false
	}
	if r <= 0x200a {
		return true
	}
	switch r {
	case 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return false
}
