package pipeline

import (
	"fmt"
	"regexp"
	"strings"
)

// A Matcher selects targets and entries as go test -run selects tests and
// subtests: the pattern is split at slashes outside brackets and
// parentheses, the first part matches the target name and the second the
// entry's file name, each unanchored. With a shard, it selects only the
// shard's entries (shard.has).
type Matcher struct {
	target, entry *regexp.Regexp // nil matches everything
	Pattern       string         // the -run it was made from, for messages
	Shard         Shard          // the zero shard has everything
}

func NewMatcher(pattern string) (*Matcher, error) {
	m := &Matcher{Pattern: pattern}
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

// MatchTarget reports whether m selects the target name; a nil m selects
// every target.
func (m *Matcher) MatchTarget(name string) bool {
	return m == nil || m.target == nil || m.target.MatchString(name)
}

func (m *Matcher) matchEntry(name string) bool { return m.entry == nil || m.entry.MatchString(name) }

// MatchNames returns the matcher of the targets and the entries of those
// names exactly; nil names select every one.
func MatchNames(targets, entries []string) *Matcher {
	exactly := func(names []string) *regexp.Regexp {
		if names == nil {
			return nil
		}
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = regexp.QuoteMeta(n)
		}
		return regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
	}
	return &Matcher{target: exactly(targets), entry: exactly(entries)}
}

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

// DescribeSelection says what -run and -shard selected.
func DescribeSelection(run string, s Shard) string {
	var parts []string
	if run != "" {
		parts = append(parts, "-run="+run)
	}
	if s.N > 1 {
		parts = append(parts, "-shard="+s.String())
	}
	if len(parts) == 0 {
		return "the packages"
	}
	return strings.Join(parts, " ")
}
