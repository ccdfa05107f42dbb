package shrink

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
	if s, ok := v.(string); ok && !isBinary(s) { // valid UTF-8 too
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

// redistributeRunes is redistribute on runes: it merges rune i into rune j,
// at most mergeWindow runes later, when the sum is a code point (not a
// surrogate) whose encoding is shorter than those of the two runes
// together, so that the string gets shorter. The cursor is (pos.i, pos.j) =
// (byte offset of rune i, rune distance to j); the byte offset survives
// acceptance since the string before it is unchanged.
func redistributeRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		bi := from.i
		if bi >= len(s) || !utf8.RuneStart(s[bi]) {
			bi = 0
		}
		for bi < len(s) {
			ri, wi := utf8.DecodeRuneInString(s[bi:])
			bj := bi + wi
			for k := 1; k <= mergeWindow && bj < len(s); k++ {
				rj, wj := utf8.DecodeRuneInString(s[bj:])
				if bi != from.i || k >= from.j {
					if m := ri + rj; ri > 0 && m <= utf8.MaxRune && !isSurrogate(m) && utf8.RuneLen(m) < wi+wj {
						c := s[:bi] + s[bi+wi:bj] + string(m) + s[bj+wj:]
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

func isSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// lowerRunes yields s with one rune lowered in the printable-first order
// (see [lowerChar]), on the rune's index among the ranks of the code points
// that are not surrogates (see [runeIndex]), so that the string stays valid
// UTF-8 and never gets longer. The cursor is (pos.i, pos.j, pos.s) = (byte
// offset of the rune, step, search state).
func lowerRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		b := from.i
		if b >= len(s) || !utf8.RuneStart(s[b]) {
			b = 0
		}
		for b < len(s) {
			r, w := utf8.DecodeRuneInString(s[b:])
			step, st := 0, magSearch{}
			if b == from.i {
				step, st = from.j, from.s
			}
			for cs, k := range lowerChar(runeIndex(runeRank(r)), step, st) {
				if c := rankRune(fromRuneIndex(k)); c < 0x80 && isControlByte(byte(c)) {
					continue // it would make the text binary data, which comes after
				}
				if !yield(pos{i: b, j: cs.step, s: cs.s}, s[:b]+string(rankRune(fromRuneIndex(k)))+s[b+w:]) {
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

// swapRunes is swapBytes on the runes of a valid UTF-8 string. The cursor
// is pos.i, the byte offset of the first rune of the pair.
func swapRunes(s string, from pos) iter.Seq2[pos, string] {
	return func(yield func(pos, string) bool) {
		b := from.i
		if b >= len(s) || !utf8.RuneStart(s[b]) {
			b = 0
		}
		for b < len(s) {
			r1, w1 := utf8.DecodeRuneInString(s[b:])
			if b+w1 >= len(s) {
				return
			}
			r2, w2 := utf8.DecodeRuneInString(s[b+w1:])
			if runeRank(r1) > runeRank(r2) {
				if !yield(pos{i: b + w2}, s[:b]+string(r2)+string(r1)+s[b+w1+w2:]) {
					return
				}
			}
			b += w1
		}
	}
}
