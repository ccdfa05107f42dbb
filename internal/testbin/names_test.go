package testbin

import (
	"regexp"
	"strings"
	"testing"
)

func TestRunPattern(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"5ec67e2451cd668e", `^FuzzX$/^5ec67e2451cd668e$`},
		{"a b", `^FuzzX$/^a\x{20}b$`},
		{"a\tb\u00a0c", `^FuzzX$/^a\x{9}b\x{a0}c$`},
		{"a:b", `^FuzzX$/^a:b$`},
		{"héllo", `^FuzzX$/^héllo$`},
		{"x.y(z)+", `^FuzzX$/^x\.y\(z\)\+$`},
		{"bell\a", `^FuzzX$/^bell\x{7}$`},
	} {
		got := RunPattern("FuzzX", tt.in)
		if got != tt.want {
			t.Errorf("RunPattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// The entry part matches the name, and the rewrite of the testing
		// package would leave it as it is: no white space, all printable.
		entry := strings.TrimPrefix(got, `^FuzzX$/`)
		if !regexp.MustCompile(entry).MatchString(tt.in) || regexp.MustCompile(`[\s\x00-\x1f]`).MatchString(entry) {
			t.Errorf("RunPattern(%q): %q does not match the name, or holds what testing rewrites", tt.in, entry)
		}
	}
}
