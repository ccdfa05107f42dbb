package fuzzshrink

import (
	"bytes"
	"fmt"
	"testing"
)

func TestRemoveBlocks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		from pos
		want string
	}{
		{"abcde", pos{}, `["" "cde" "abe" "abcd" "bcde" "acde" "abde" "abce" "abcd"]`},
		{"abcde", pos{i: 2, j: 2}, `["abe" "abcd" "bcde" "acde" "abde" "abce" "abcd"]`},
		// Resuming at a size larger than what is left.
		{"ab", pos{i: 4, j: 0}, `["" "b" "a"]`},
		{"abc", pos{i: 2, j: 2}, `["ab" "bc" "ac" "ab"]`},
		{"", pos{}, `[]`},
	} {
		var got []string
		for _, c := range removeBlocks([]byte(tc.s), tc.from) {
			got = append(got, string(c))
		}
		if g := fmt.Sprintf("%q", got); g != tc.want {
			t.Errorf("removeBlocks(%q, %+v) = %s, want %s", tc.s, tc.from, g, tc.want)
		}
	}
}

func TestRedistribute(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b    []byte
		from pos
		want string
	}{
		{[]byte{51, 50}, pos{}, "[[0 101]]"},
		{[]byte{200, 100}, pos{}, "[[45 255]]"},
		{[]byte{0, 5, 250}, pos{}, "[[0 0 255]]"},
		{[]byte{0, 5, 255}, pos{}, "[]"},
		{[]byte{1, 2, 3}, pos{}, "[[0 3 3] [0 2 4] [1 0 5]]"},
		{[]byte{1, 2, 3}, pos{i: 0, j: 2}, "[[0 2 4] [1 0 5]]"},
		{[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, pos{}, "[[0 1 0 0 0 0 0 0 0 0] [0 0 1 0 0 0 0 0 0 0] [0 0 0 1 0 0 0 0 0 0] " +
			"[0 0 0 0 1 0 0 0 0 0] [0 0 0 0 0 1 0 0 0 0] [0 0 0 0 0 0 1 0 0 0] [0 0 0 0 0 0 0 1 0 0] [0 0 0 0 0 0 0 0 1 0]]"},
	} {
		var got [][]byte
		for _, c := range redistribute(tc.b, tc.from) {
			got = append(got, c)
		}
		if g := fmt.Sprint(got); g != tc.want {
			t.Errorf("redistribute(%v, %+v) = %s, want %s", tc.b, tc.from, g, tc.want)
		}
	}
}

func TestLowerBytes(t *testing.T) {
	t.Parallel()
	var got [][]byte
	for _, c := range lowerBytes([]byte{10, 1}, pos{}) {
		got = append(got, c)
	}
	if g, want := fmt.Sprint(got), "[[0 1] [5 1] [7 1] [8 1] [9 1] [10 0]]"; g != want {
		t.Errorf("lowerBytes([10 1]) = %s, want %s", g, want)
	}
}

// TestBytes_StringsMatchBytes: a string that is not valid UTF-8 gets exactly
// the candidates of the same []byte.
func TestBytes_StringsMatchBytes(t *testing.T) {
	t.Parallel()
	s := "a\xffb\x80\x00c"
	for _, p := range passes {
		var fromBytes, fromString []string
		for _, v := range p.candidates([]any{[]byte(s)}, cursor{}) {
			fromBytes = append(fromBytes, string(v.([]byte)))
		}
		for _, v := range p.candidates([]any{s}, cursor{}) {
			fromString = append(fromString, v.(string))
		}
		if fmt.Sprint(fromBytes) != fmt.Sprint(fromString) {
			t.Errorf("pass %s: []byte candidates %q, string candidates %q", p.name, fromBytes, fromString)
		}
	}
}

func TestBytes_Exhaustive2(t *testing.T) {
	t.Parallel()
	for i := range 1 << 16 {
		if i%7 != 0 && i%255 != 0 { // a sample of the pairs, with all the edges
			continue
		}
		checkCandidates(t, []any{[]byte{byte(i), byte(i >> 8)}}, 2, 30)
	}
}

// FuzzShrinkBytes checks that the candidates for a []byte, and for the same
// bytes as a string, are strictly smaller.
func FuzzShrinkBytes(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{51, 50})
	f.Add(bytes.Repeat([]byte{255}, 20))
	f.Add([]byte("\xff\xfe\x00 mixed"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkCandidates(t, []any{b, string(b)}, 2, 50)
	})
}
