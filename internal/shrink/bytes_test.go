package shrink

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
		n    int // candidates to compare; 0 for all
	}{
		// Sizes 5, 2, 1, the small ones at every offset.
		{"abcde", pos{}, `["" "cde" "ade" "abe" "abc" "bcde" "acde" "abde" "abce" "abcd"]`, 0},
		{"secret", pos{}, `["" "ret" "set" "set" "sec"]`, 5},
		{"abcde", pos{i: 2, j: 2}, `["abe" "abc" "bcde" "acde" "abde" "abce" "abcd"]`, 0},
		// Resuming at a size larger than what is left.
		{"ab", pos{i: 4, j: 0}, `["" "b" "a"]`, 0},
		{"abc", pos{i: 2, j: 2}, `["bc" "ac" "ab"]`, 0},
		// Above smallBlock, aligned offsets, the last block shorter; then
		// size 8 at every offset.
		{"abcdefghijklmnopqrst", pos{i: 16}, `["qrst" "abcdefghijklmnop" "ijklmnopqrst" "ajklmnopqrst"]`, 4},
		{"", pos{}, `[]`, 0},
	} {
		var got []string
		for _, c := range removeBlocks([]byte(tc.s), tc.from) {
			if tc.n > 0 && len(got) == tc.n {
				break
			}
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
		{[]byte{51, 50}, pos{}, "[[101]]"},
		{[]byte{200, 100}, pos{}, "[]"},
		{[]byte{0, 5, 250}, pos{}, "[[0 255]]"},
		{[]byte{0, 5, 251}, pos{}, "[]"},
		{[]byte{1, 2, 3}, pos{}, "[[3 3] [1 5]]"},
		{[]byte{1, 2, 3}, pos{i: 0, j: 2}, "[[1 5]]"},
		{[]byte{1, 0, 0, 0, 0, 0, 0}, pos{}, "[[1 0 0 0 0 0]]"},
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

func TestShiftBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		b    []byte
		from pos
		want string
	}{
		// The pcap shape's options: a no-op (01) comes in before the
		// option, or before its length.
		{[]byte{2, 5, 0, 0}, pos{}, "[[0 2 5 0] [1 2 5 0] [2 0 5 0] [2 1 5 0]]"},
		{[]byte{2, 5, 0, 0}, pos{i: 1}, "[[2 0 5 0] [2 1 5 0]]"},
		// Only a smaller byte comes in: 00 before 01.
		{[]byte{1, 7, 0}, pos{}, "[[0 1 7] [1 0 7] [1 1 7]]"},
		// The zero taken out lies within 8 bytes after: from byte 2 on.
		{[]byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0}, pos{i: 8}, "[[9 9 9 9 9 9 9 9 0 9 9] [9 9 9 9 9 9 9 9 1 9 9] [9 9 9 9 9 9 9 9 9 0 9] [9 9 9 9 9 9 9 9 9 1 9]]"},
		{[]byte{5, 3, 3}, pos{}, "[]"},
		{[]byte{0, 0, 1}, pos{}, "[]"},
	} {
		var got [][]byte
		for _, c := range shiftBytes(tc.b, tc.from) {
			got = append(got, c)
		}
		if g := fmt.Sprint(got); g != tc.want {
			t.Errorf("shiftBytes(%v, %+v) = %s, want %s", tc.b, tc.from, g, tc.want)
		}
	}
	far := []byte{9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 0}
	for p, c := range shiftBytes(far, pos{}) {
		if p.i != 3 || c[2] != 0 {
			t.Errorf("shiftBytes(%v) begins with %v at %d, want a zero before byte 2, the first within 8 bytes of the zero", far, c, p.i)
		}
		break
	}
}

func TestLowerBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    string
		from pos
		want string
	}{
		// '0', the top of each lower class, then a binary search from the
		// first of its own class.
		{"Q", pos{}, "0zAIMOP"},
		{"5", pos{}, "0234"},
		{"0", pos{}, ""},
		{"a", pos{}, "0"},
		// A control character tries every printable punctuation character.
		{"\n", pos{}, "0zZ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\t"}, // no control character: it would make the text binary data
		// Resuming after 'z' was accepted for '~': a search among the
		// lowercase letters.
		{"z", pos{j: charSearch}, "amsvxy"},
		{"ab", pos{i: 1}, "a0aa"},
	} {
		var got []byte
		for _, c := range lowerBytes([]byte(tc.s), tc.from) {
			if len(c) == 1 {
				got = append(got, c[0])
			} else {
				got = append(got, c...)
			}
		}
		if g := string(got); g != tc.want {
			t.Errorf("lowerBytes(%q, %+v) = %q, want %q", tc.s, tc.from, g, tc.want)
		}
	}
}

// TestRanks checks that the ranks are a bijection, in the documented order.
func TestRanks(t *testing.T) {
	t.Parallel()
	var order []byte
	for k := range 256 {
		c := rankByte[k]
		if byteRank[c] != byte(k) {
			t.Fatalf("byteRank[rankByte[%d]] = %d", k, byteRank[c])
		}
		order = append(order, c)
	}
	want := "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\x00"
	if got := string(order[:len(want)]); got != want {
		t.Errorf("first ranks %q, want %q", got, want)
	}
	for r := rune(0); r < 0x300; r++ {
		if rankRune(runeRank(r)) != r || r >= 0x80 && runeRank(r) != r {
			t.Errorf("runeRank(%U) = %d", r, runeRank(r))
		}
	}
}

// TestBytes_StringsMatchBytes: a string that is not valid UTF-8 gets exactly
// the candidates of the same []byte.
func TestBytes_StringsMatchBytes(t *testing.T) {
	t.Parallel()
	s := "a\xffb\x80\x00c"
	for _, p := range passes {
		var fromBytes, fromString []string
		for _, v := range p.candidates([]any{[]byte(s)}, cursor{}, sumsIn([]any{[]byte(s)})) {
			fromBytes = append(fromBytes, string(v.([]byte)))
		}
		for _, v := range p.candidates([]any{s}, cursor{}, sumsIn([]any{s})) {
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
		if i%11 != 0 && i%255 != 0 { // a sample of the pairs, with all the edges
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
