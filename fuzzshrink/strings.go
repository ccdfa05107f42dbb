package fuzzshrink

import (
	"iter"
	"unicode/utf8"
)

// Valid UTF-8 strings are shrunk on runes, with the same passes as []byte
// (remove blocks, redistribute, lower), and every candidate is valid UTF-8:
// a valid string never becomes invalid. Strings that are not valid UTF-8 are
// shrunk on bytes by the functions of bytes.go.

// lowerRunesArg lowers the runes of valid UTF-8 strings.
func lowerRunesArg(v any, from pos) iter.Seq2[pos, any] {
	if s, ok := v.(string); ok && utf8.ValidString(s) {
		return boxed(lowerRunes(s, from))
	}
	return nil
}

// removeRunes is removeBlocks on the runes of a valid UTF-8 string. The
// cursor is (pos.i, pos.j) = (size, offset), in runes.
func removeRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		starts := runeStarts(s)
		for p, b := range blocks(len(starts)-1, from) {
			if !yield(p, s[:starts[b[0]]]+s[starts[b[1]]:]) {
				return
			}
		}
	}
}

// runeStarts returns the byte offsets of the runes of s, and len(s).
func runeStarts(s string) []int {
	starts := make([]int, 0, len(s)+1)
	for i := range s {
		starts = append(starts, i)
	}
	return append(starts, len(s))
}

// redistributeRunes is redistribute on runes: it moves code point value from
// rune i to rune j, at most redistributeWindow runes later, without changing the length
// of rune j's encoding or making either rune a surrogate. Rune i decreases,
// so its encoding gets no longer and compares lower: the string is smaller.
// The cursor is (pos.i, pos.j) = (byte offset of rune i, rune distance to j);
// the byte offset survives acceptance since the string before it is unchanged.
func redistributeRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		bi := from.i
		if bi >= len(s) || !utf8.RuneStart(s[bi]) {
			bi = 0
		}
		for bi < len(s) {
			ri, wi := utf8.DecodeRuneInString(s[bi:])
			bj := bi + wi
			for k := 1; k <= redistributeWindow && bj < len(s); k++ {
				rj, wj := utf8.DecodeRuneInString(s[bj:])
				if bi != from.i || k >= from.j {
					if ni, nj, ok := moveRune(ri, rj); ok {
						c := s[:bi] + string(ni) + s[bi+wi:bj] + string(nj) + s[bj+wj:]
						if !yield(pos{i: bi, j: k}, c) {
							return
						}
					}
				}
				bj += wj
			}
			bi += wi
		}
	}
}

// moveRune moves as much as it can from code point a to code point b: b may
// grow up to the largest code point with an encoding as long as its own,
// staying below the surrogates if it is below them, and a may not land
// among the surrogates.
func moveRune(a, b rune) (na, nb rune, ok bool) {
	var limit rune
	switch {
	case b < 0x80:
		limit = 0x7F
	case b < 0x800:
		limit = 0x7FF
	case b < 0xD800:
		limit = 0xD7FF
	case b < 0x10000:
		limit = 0xFFFF
	default:
		limit = utf8.MaxRune
	}
	moved := min(a, limit-b)
	if na = a - moved; isSurrogate(na) {
		na = 0xE000 // a > 0xDFFF here: the lowest code point above the surrogates
		moved = a - na
	}
	return na, b + moved, moved > 0
}

func isSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// lowerRunes yields s with one rune lowered: U+0000, then a binary search
// (see [magnitudes]) on the rune's index among the code points that are not
// surrogates (see [runeIndex]). The cursor is (pos.i, pos.s) = (byte offset of
// the rune, search state).
func lowerRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		b := from.i
		if b >= len(s) || !utf8.RuneStart(s[b]) {
			b = 0
		}
		for b < len(s) {
			r, w := utf8.DecodeRuneInString(s[b:])
			st := magSearch{}
			if b == from.i {
				st = from.s
			}
			i := runeIndex(r)
			for st, m := range magnitudes(false, i, i, st) {
				if !yield(pos{i: b, s: st}, s[:b]+string(fromRuneIndex(m.mag))+s[b+w:]) {
					return
				}
			}
			b += w
		}
	}
}

// runeIndex maps a code point to its index among the code points that are
// not surrogates (which UTF-8 cannot encode), in increasing order, so that a
// binary search on indices only visits valid runes.
func runeIndex(r rune) uint64 {
	if r > 0xDFFF {
		r -= 0x800
	}
	return uint64(r)
}

// fromRuneIndex is the inverse of runeIndex.
func fromRuneIndex(i uint64) rune {
	if r := rune(i); r < 0xD800 {
		return r
	}
	return rune(i) + 0x800
}
