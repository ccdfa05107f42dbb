package pipeline

import "testing"

func TestTerminalSafe(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain → text … ⟨a⟩\n\tindented\n", "plain → text … ⟨a⟩\n\tindented\n"},
		{"e\x1b[31mred\x1b[0m", `e\x1b[31mred\x1b[0m`},
		{"bell\a and cr\r", `bell\x07 and cr\x0d`},
		{"del\x7f c1\u0085", `del\x7f c1\x85`},
		{"bidi \u202eabc\u2066", `bidi \u202eabc\u2066`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"replacement \ufffd", `replacement \ufffd`},
		{"", ""},
	} {
		if got := TerminalSafe(tt.in); got != tt.want {
			t.Errorf("terminalSafe(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
