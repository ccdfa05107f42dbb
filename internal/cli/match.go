package cli

import (
	"fmt"
	"regexp"
	"strings"
)

// A matcher selects targets and entries as go test -run selects tests and
// subtests: the pattern is split at slashes outside brackets and
// parentheses, the first part matches the target name and the second the
// entry's file name, each unanchored.
type matcher struct {
	target, entry *regexp.Regexp // nil matches everything
}

func newMatcher(pattern string) (*matcher, error) {
	m := &matcher{}
	if pattern == "" {
		return m, nil
	}
	parts := splitPattern(pattern)
	if len(parts) > 2 {
		return nil, fmt.Errorf("-run %q: want at most two levels, Target/entry", pattern)
	}
	for i, part := range parts {
		re, err := regexp.Compile(part)
		if err != nil {
			return nil, fmt.Errorf("-run: %w", err)
		}
		if i == 0 {
			m.target = re
		} else {
			m.entry = re
		}
	}
	return m, nil
}

func (m *matcher) matchTarget(name string) bool { return m.target == nil || m.target.MatchString(name) }

func (m *matcher) matchEntry(name string) bool { return m.entry == nil || m.entry.MatchString(name) }

// splitPattern splits a -run pattern at the slashes that are not inside
// [...] or (...), as the testing package does.
func splitPattern(pattern string) []string {
	var parts []string
	var b strings.Builder
	cs, cp := 0, 0 // open brackets, open parentheses
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch c {
		case '[':
			cs++
		case ']':
			if cs > 0 {
				cs--
			}
		case '(':
			if cs == 0 {
				cp++
			}
		case ')':
			if cs == 0 && cp > 0 {
				cp--
			}
		case '\\':
			b.WriteByte(c)
			i++
			if i < len(pattern) {
				b.WriteByte(pattern[i])
			}
			continue
		case '/':
			if cs == 0 && cp == 0 {
				parts = append(parts, b.String())
				b.Reset()
				continue
			}
		}
		b.WriteByte(c)
	}
	return append(parts, b.String())
}
