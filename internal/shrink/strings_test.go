package shrink

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
	want := `["" "b😀" "a😀" "a世" "世b😀" "ab😀" "a世😀" "a世b"]`
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
	// '0', the tops of the lower classes, then a binary search from U+0000,
	// the first of the rest (U+0000 itself is no candidate: a control
	// character would make the text binary data, which comes after).
	want := "[U+0030 U+007A U+005A U+0020 U+007E U+6C2F U+A217 U+BD0B U+CA85 U+D142 U+D4A1 U+D650 U+D728 U+D794 U+D7CA U+D7E5 U+D7F2 U+D7F9 U+D7FC U+D7FE U+D7FF]"
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

func TestRedistributeRunes(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range redistributeRunes("ba世\x01", pos{}) {
		got = append(got, c)
	}
	// b+a = U+00C3 needs two bytes, no fewer than b and a.
	want := `["b\u4e77\x01" "ba\u4e17"]`
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
