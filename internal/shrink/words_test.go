package shrink

import (
	"context"
	"strings"
	"testing"
)

func TestReplaceWords(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range replaceWords("set k.ey 1\nget k.ey\nfoo", pos{}) {
		got = append(got, c)
	}
	// The field k.ey (8 bytes in all) first, then the words by their
	// bytes in all: ey, set, get, foo, k. Each that occurs twice is
	// removed, then replaced by 0, a and the shorter words of the
	// vocabulary; one that occurs once only by the shorter words.
	want := []string{
		"set  1\nget \nfoo", "set 0 1\nget 0\nfoo", "set a 1\nget a\nfoo", "set 1 1\nget 1\nfoo", "set k 1\nget k\nfoo",
		"set ey 1\nget ey\nfoo", "set foo 1\nget foo\nfoo", "set get 1\nget get\nfoo", "set set 1\nget set\nfoo",
		"set k. 1\nget k.\nfoo", "set k.0 1\nget k.0\nfoo", "set k.a 1\nget k.a\nfoo", "set k.1 1\nget k.1\nfoo", "set k.k 1\nget k.k\nfoo",
		"1 k.ey 1\nget k.ey\nfoo", "k k.ey 1\nget k.ey\nfoo", "ey k.ey 1\nget k.ey\nfoo",
		"set k.ey 1\n1 k.ey\nfoo", "set k.ey 1\nk k.ey\nfoo", "set k.ey 1\ney k.ey\nfoo",
		"set k.ey 1\nget k.ey\n1", "set k.ey 1\nget k.ey\nk", "set k.ey 1\nget k.ey\ney",
		"set .ey 1\nget .ey\nfoo",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("candidates:\n%q\nwant\n%q", got, want)
	}
}

// TestShrink_DefinitionAndUse: a key defined by one command and used by
// two others shrinks in all three places at once.
func TestShrink_DefinitionAndUse(t *testing.T) {
	t.Parallel()
	in := "let session.user.name = 7\nlet other = 1\nprint session.user.name\ndrop session.user.name\n"
	fails := Predicate(func(args []any) bool {
		lines := strings.Split(args[0].(string), "\n")
		def := map[string]bool{}
		printed := ""
		for _, l := range lines {
			f := strings.Fields(l)
			switch {
			case len(f) == 4 && f[0] == "let" && f[2] == "=":
				def[f[1]] = true
			case len(f) == 2 && f[0] == "print" && def[f[1]]:
				printed = f[1]
			case len(f) == 2 && f[0] == "drop" && f[1] == printed:
				return true
			}
		}
		return false
	})
	r, err := Shrink(context.Background(), []any{in}, fails)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Args[0], "let 0 = 0\nprint 0\ndrop 0"; got != want {
		t.Errorf("Shrink = %q, want %q (%d runs)", got, want, r.Stats.Runs)
	}
}

// FuzzReplaceWords: every candidate is shorter than the input.
func FuzzReplaceWords(f *testing.F) {
	f.Add("set k.ey 1\nget k.ey\nfoo")
	f.Add("a a a b.c b.c ééé ééé")
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for _, c := range replaceWords(s, pos{}) {
			if len(c) >= len(s) {
				t.Fatalf("candidate %q of %q is not shorter", c, s)
			}
			if n++; n == 500 {
				break
			}
		}
	})
}
