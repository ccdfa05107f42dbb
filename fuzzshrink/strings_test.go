package fuzzshrink

import (
	"fmt"
	"testing"
	"unicode/utf8"
)

func TestRemoveRunes(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range removeRunes("a世b😀", pos{}) {
		got = append(got, c)
	}
	want := `["" "b😀" "a世" "世b😀" "ab😀" "a世😀" "a世b"]`
	if g := fmt.Sprintf("%q", got); g != want {
		t.Errorf("removeRunes = %s, want %s", g, want)
	}
}

func TestLowerRunes(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range lowerRunes("\uE000", pos{}) {
		got = append(got, fmt.Sprintf("%U", []rune(c)[0]))
	}
	want := "[U+0000 U+6C00 U+A200 U+BD00 U+CA80 U+D140 U+D4A0 U+D650 U+D728 U+D794 U+D7CA U+D7E5 U+D7F2 U+D7F9 U+D7FC U+D7FE U+D7FF]"
	if g := fmt.Sprint(got); g != want {
		t.Errorf("lowerRunes(U+E000) = %s\nwant %s", g, want)
	}
	// A search toward a threshold just above the surrogates ends above them.
	got1 := Minimize("x\uFFFFy", func(s string) bool {
		for _, r := range s {
			if r > 0xD7FF {
				return true
			}
		}
		return false
	})
	if got1 != "\uE000" {
		t.Errorf("Minimize(rune > U+D7FF) = %+q, want U+E000", got1)
	}
}

func TestRuneIndex(t *testing.T) {
	t.Parallel()
	prev := uint64(0)
	for r := rune(1); r <= utf8.MaxRune; r++ {
		if isSurrogate(r) {
			continue
		}
		i := runeIndex(r)
		if i != prev+1 || fromRuneIndex(i) != r {
			t.Fatalf("runeIndex(%U) = %d after %d; back %U", r, i, prev, fromRuneIndex(i))
		}
		prev = i
	}
}

func TestMoveRune(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b, na, nb rune
		ok           bool
	}{
		{'b', 'a', 'D', 0x7F, true},
		{0x10, 0x7F, 0x10, 0x7F, false},
		{0x20, 0xD7F0, 0x11, 0xD7FF, true},
		{0xE005, 'A', 0xE000, 'F', true},
		{0xE000, 'A', 0xE000, 'A', false},
		{0x10FFFF, 0x10000, 0x10000, 0x10FFFF, true},
		{0x7FF, 0x80, 0x80, 0x7FF, true},
	} {
		na, nb, ok := moveRune(tc.a, tc.b)
		if ok != tc.ok || ok && (na != tc.na || nb != tc.nb) {
			t.Errorf("moveRune(%U, %U) = %U, %U, %v; want %U, %U, %v", tc.a, tc.b, na, nb, ok, tc.na, tc.nb, tc.ok)
		}
	}
}

func TestRedistributeRunes(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range redistributeRunes("ba世", pos{}) {
		got = append(got, c)
	}
	want := `["D\x7f\u4e16" "\x00a\u4e78" "b\x00\u4e77"]`
	if g := fmt.Sprintf("%+q", got); g != want {
		t.Errorf("redistributeRunes = %s, want %s", g, want)
	}
}

// FuzzShrinkString checks that the candidates for any string are strictly
// smaller and that valid UTF-8 stays valid.
func FuzzShrinkString(f *testing.F) {
	for _, s := range []string{"", "bad", "héllo, 世界 😀", "\U0010FFFF\uE000\uD7FF", "a\xffb", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkCandidates(t, []any{s}, 2, 50)
	})
}
