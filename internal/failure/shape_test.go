package failure

import (
	"fmt"
	"testing"
)

func TestShape(t *testing.T) {
	for _, tt := range []struct {
		msg    string
		inputs []any
		want   string
	}{
		// go-toml's errors: two bugs at one t.Fatalf line stay apart.
		{`toml: line 1 (last key "a"): incomplete number`, nil, `toml: line N (last key "…"): incomplete number`},
		{`toml: line 3 (last key "b.c"): expected 'true'`, nil, `toml: line N (last key "…"): expected "…"`},
		// BurntSushi/toml's encoder panics, re-raised at one line.
		{"toml: cannot encode a value of Kind: string", nil, "toml: cannot encode a value of Kind: string"},
		{"toml: cannot encode a value of Kind: int64", nil, "toml: cannot encode a value of Kind: intN"},
		// Values printed with %v.
		{"got [1 2 3], want [1 2]", nil, "got […]"},
		{"{Name:} Retries:-1 Tags:[ ] Parent:0xc000012}", nil, "{…}"},
		{"{Name:] Retries:-59 Tags:[a] Parent:<nil>}", nil, "{…}"},
		{"config {Name:x Items:[]} invalid", nil, "config {…} invalid"},
		{"offset -12 exceeds 0x1f", nil, "offset N exceeds N"},
		// An apostrophe is not a quote.
		{"can't parse 'x' here", nil, `can't parse "…" here`},
		// Only the first line; white space folded.
		{"mismatch:\n-a\n+b", nil, "mismatch:"},
		{"  a \t b  ", nil, "a b"},
		// An unbalanced bracket stays.
		{"unexpected ] in [a", nil, "unexpected ] in [a"},
	} {
		if got := Shape(tt.msg, tt.inputs); got != tt.want {
			t.Errorf("Shape(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

// TestShape_Input checks that a message that prints the input keeps its
// shape as the input shrinks, quoted or not, and that the input is masked
// only as a whole word.
func TestShape_Input(t *testing.T) {
	for _, tt := range []struct {
		format string
		inputs []string
	}{
		{"parse(%q): unexpected end", []string{"a long input with \"quotes\" and 12 numbers", "ab", "a", ""}},
		{"parse %s: unexpected end", []string{"a-long-input", "ab=c", "a", "in"}},
		{"Unmarshal([%s]) = nil, want error", []string{"0x12 true", "t", "{"}},
	} {
		want := ""
		for i, in := range tt.inputs {
			got := Shape(sprintf(tt.format, in), []any{in})
			if i == 0 {
				want = got
				continue
			}
			if got != want {
				t.Errorf("%s with input %q: shape %q, want %q (as with %q)", tt.format, in, got, want, tt.inputs[0])
			}
		}
	}
	if got := Shape("index in slice", []any{"in"}); got != "index … slice" {
		t.Errorf("a whole-word input: %q", got)
	}
	if got := Shape("a maintainer says", []any{[]byte("main")}); got != "a maintainer says" {
		t.Errorf("an input inside a word must stay: %q", got)
	}
}

func sprintf(format, in string) string { return fmt.Sprintf(format, in) }

// TestShaper checks that a search masks its candidates' inputs only if the
// original's message printed its input: a constant message that a
// candidate happens to equal keeps its shape.
func TestShaper(t *testing.T) {
	constant := NewShaper("alpha", []any{"the alpha and"})
	if constant.MaskInputs || constant.Shape("alpha", []any{"alpha"}) != "alpha" {
		t.Errorf("a constant message: %+v, shape %q", constant, constant.Shape("alpha", []any{"alpha"}))
	}
	printing := NewShaper("parse the alpha: bad", []any{"the alpha"})
	if !printing.MaskInputs || printing.Shape("parse al: bad", []any{"al"}) != "parse …: bad" {
		t.Errorf("a message that prints its input: %+v, shape %q", printing, printing.Shape("parse al: bad", []any{"al"}))
	}
}
