package shrink

import (
	"iter"
	"unicode/utf8"
)

// byteString is what the byte-level shrinkers work on: []byte arguments, and
// strings that are not valid UTF-8 (valid ones are shrunk on runes, see
// strings.go).
type byteString interface{ string | []byte }

// removeArg removes blocks from []byte and string arguments.
func removeArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(removeBlocks(x, from))
	case string:
		if utf8.ValidString(x) {
			return boxed(removeRunes(x, from))
		}
		return boxed(removeBlocks(x, from))
	}
	return nil
}

// redistributeArg merges nearby elements of []byte and string arguments.
func redistributeArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(redistribute(x, from))
	case string:
		if utf8.ValidString(x) {
			return boxed(redistributeRunes(x, from))
		}
		return boxed(redistribute(x, from))
	}
	return nil
}

// lowerBytesArg lowers the bytes of []byte arguments and of strings that are
// binary data (see [isBinary]).
func lowerBytesArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(lowerBytes(x, from))
	case string:
		if isBinary(x) {
			return boxed(lowerBytes(x, from))
		}
	}
	return nil
}

// removeBlocks yields s without one contiguous block, ddmin-style: block
// sizes len(s), len(s)/2, …, 1, and for each size the blocks at offsets
// 0, size, 2·size, … (the last one may be shorter). The cursor is
// (pos.i, pos.j) = (size, offset): after a removal the pass stays at the same
// size and offset, where the rest of the input has shifted in. Isolating k
// interesting bytes in n takes O(k·log n) runs.
func removeBlocks[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for p, b := range blocks(len(s), from) {
			c := make([]byte, 0, len(s)-(b[1]-b[0]))
			c = append(c, s[:b[0]]...)
			c = append(c, s[b[1]:]...)
			if !yield(p, S(c)) {
				return
			}
		}
	}
}

// mergeWindow bounds the distance between the two elements of a merge: all
// pairs would cost O(n²) runs per round on inputs that removal could not
// shorten, and the elements that matter are adjacent once removal is done.
const mergeWindow = 1

// redistribute yields s with element i merged into a later element j,
// j-i ≤ mergeWindow: s[j] grows by s[i] (if the sum fits in a byte) and s[i]
// is removed, so [51 50] becomes [101]. The result is shorter, so smaller.
// (Moving only part of the value, as Hypothesis does between integers, would
// not decrease the printable-first order of characters.) The cursor is
// (pos.i, pos.j) = (i, j).
func redistribute[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for i := from.i; i < len(s); i++ {
			if s[i] == 0 {
				continue // merging 0 is removing it: the remove pass did
			}
			j := i + 1
			if i == from.i {
				j = max(j, from.j)
			}
			for ; j <= i+mergeWindow && j < len(s); j++ {
				if int(s[i])+int(s[j]) > 255 {
					continue
				}
				c := make([]byte, 0, len(s)-1)
				c = append(c, s[:i]...)
				c = append(c, s[i+1:j]...)
				c = append(c, s[i]+s[j])
				c = append(c, s[j+1:]...)
				if !yield(pos{i: i, j: j}, S(c)) {
					return
				}
			}
		}
	}
}

// lowerBytes yields s with one byte lowered: in text in the
// printable-first order (see [lowerChar]), in binary data by value, to 0
// and then by a binary search (see [magnitudes]). The cursor is (pos.i,
// pos.j, pos.s) = (index, step, search state).
func lowerBytes[S byteString](s S, from pos) iter.Seq2[pos, S] {
	if isBinary(s) {
		return func(yield func(pos, S) bool) {
			// Text comes before binary data of its length: first every
			// byte that makes s binary as a '0'.
			if from == (pos{}) && !yield(pos{}, S(textOf(s))) { // textOf is text
				return
			}
			for p, c := range lowerValues(s, from) {
				if !yield(p, c) {
					return
				}
			}
		}
	}
	return func(yield func(pos, S) bool) {
		for i := from.i; i < len(s); i++ {
			step, st := 0, magSearch{}
			if i == from.i {
				step, st = from.j, from.s
			}
			for cs, k := range lowerChar(uint64(byteRank[s[i]]), step, st) {
				c := make([]byte, len(s))
				copy(c, s)
				c[i] = rankByte[k]
				// s is text; c is not if the byte is a control character
				// or a byte of a rune became invalid UTF-8.
				if isControlByte(c[i]) || (c[i] >= utf8.RuneSelf || s[i] >= utf8.RuneSelf) && !utf8.Valid(c) {
					continue // binary data comes after text
				}
				if !yield(pos{i: i, j: cs.step, s: cs.s}, S(c)) {
					return
				}
			}
		}
	}
}

// textOf returns s with its control bytes and bytes of 0x80 and above as
// '0'.
func textOf[S byteString](s S) []byte {
	t := []byte(string(s))
	for i, b := range t {
		if isControlByte(b) || b >= utf8.RuneSelf {
			t[i] = '0'
		}
	}
	return t
}

// lowerValues yields binary data s with one byte lowered by value. The
// cursor is (pos.i, pos.s) = (index, search state).
func lowerValues[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for i := from.i; i < len(s); i++ {
			st := magSearch{}
			if i == from.i {
				st = from.s
			}
			v := uint64(s[i])
			for st, m := range magnitudes(false, v, v, st) {
				c := []byte(string(s))
				c[i] = byte(m.mag)
				if !yield(pos{i: i, s: st}, S(c)) {
					return
				}
			}
		}
	}
}

// The classes of the printable-first order, as ranges of ranks:
// [classStart[k], classStart[k+1]), the last one open.
const (
	classDigit = iota
	classLower
	classUpper
	classSpace
	classPunct
	classRest
)

var classStart = [...]uint64{0, 10, 36, 62, 63, 95}

func charClass(k uint64) int {
	c := classRest
	for c > 0 && k < classStart[c] {
		c--
	}
	return c
}

// isControlByte reports whether c makes text binary data (see
// [isBinary]).
func isControlByte(c byte) bool { return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f }

// isControl reports whether rank k is an ASCII control character or DEL.
func isControl(k uint64) bool { return classStart[classRest] <= k && k < 0x80 }

// charStep is the cursor of [lowerChar].
type charStep struct {
	step int
	s    magSearch
}

// The steps of lowerChar.
const (
	charZero   = iota // '0'
	charTops          // the highest character of each lower class
	charSweep         // every punctuation character, for a control character
	charSearch        // a binary search within the character's own class
	charDone
)

// lowerChar yields the ranks of characters smaller than the one of rank k,
// for lowering one byte or rune. A binary search over all ranks would suit
// only predicates monotone in the rank, and the characters a parser wants
// are rather of a class (a digit, a letter, a space) or exactly one
// character. So it proposes '0'; then the highest character of each lower
// class ('z', 'Z', ' ', '~'), after which the search goes on within that
// class; for a control character (a newline, a tab, \x00) every printable
// punctuation character, since a separator may be replaced by another
// (\n by ;); and last a binary search within its own class, from the class's
// first character up (see [magnitudes]). A character that must keep its
// value costs about 2 + log₂ of its class's size runs, a control character
// about 35. Each candidate carries the step to resume from on the new
// character.
func lowerChar(k uint64, step int, st magSearch) iter.Seq2[charStep, uint64] {
	return func(yield func(charStep, uint64) bool) {
		cls := charClass(k)
		if step == charZero {
			if k > 0 && !yield(charStep{step: charDone}, 0) {
				return
			}
			step, st = charTops, magSearch{d: classLower}
		}
		if step == charTops {
			for c := max(int(st.d), classLower); c < cls && c <= classPunct; c++ {
				if c == classPunct && isControl(k) {
					continue // the sweep tries it
				}
				if !yield(charStep{step: charSearch}, classStart[c+1]-1) {
					return
				}
			}
			step, st = charSweep, magSearch{d: classStart[classPunct]}
		}
		if step == charSweep {
			if isControl(k) {
				for p := max(st.d, classStart[classPunct]); p < classStart[classRest]; p++ {
					if !yield(charStep{step: charDone}, p) {
						return
					}
				}
			}
			step, st = charSearch, magSearch{}
			if cls == classDigit {
				st.phase = 1 // '0' was the first candidate
			}
		}
		if step != charSearch {
			return
		}
		base := classStart[cls]
		for s, m := range magnitudes(false, k-base, k-base, st) {
			if !yield(charStep{step: charSearch, s: s}, base+m.mag) {
				return
			}
		}
	}
}

// smallBlock is the largest block size that removal tries at every offset;
// larger blocks are tried at aligned offsets only.
//
// Aligned blocks alone (ddmin's) miss removals that straddle a boundary:
// `-=nan\n0=0` keeps `\n0=0` (4 bytes at offset 5), `"\n"=""""""` keeps
// `""""`. Every offset for every size would cost n runs per size, n·log₂ n
// per round on an input where nothing can go. Aligned blocks first shrink a
// long input to a few blocks around what matters; every offset then costs
// about n·log₂(smallBlock) runs on what is left, and size 1 at every offset
// is the final pass that guarantees no single element can be removed.
const smallBlock = 8

// blocks yields the [start, end) blocks that removal tries on n elements:
// sizes n, n/2, n/4, …, 1; sizes above smallBlock at offsets 0, size,
// 2·size, … (the last block may be shorter), the others at every offset
// where they fit. The cursor is (pos.i, pos.j) =
// (size, offset): after a removal the pass stays at the same size and
// offset, where the rest of the input has shifted in. Isolating k
// interesting elements in n takes O(k·log n) runs.
func blocks(n int, from pos) iter.Seq2[pos, [2]int] { return blockSizes(n, false, from) }

// blockSizes yields the blocks of blocks, or, with every, every size from
// smallBlock down to 1 instead of the halves below smallBlock.
func blockSizes(n int, every bool, from pos) iter.Seq2[pos, [2]int] {
	return func(yield func(pos, [2]int) bool) {
		size, off := from.i, from.j
		if size == 0 {
			size, off = n, 0
		}
		size = min(size, n)
		for size > 0 {
			step := size
			if size <= smallBlock {
				step = 1
			}
			for ; off < n && (step == size || off+size <= n); off += step {
				if !yield(pos{i: size, j: off}, [2]int{off, min(off+size, n)}) {
					return
				}
			}
			if size > smallBlock || !every {
				size /= 2
			} else {
				size--
			}
			off = 0
		}
	}
}

// shiftArg shifts bytes of binary []byte and string arguments right.
func shiftArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(shiftBytes(x, from))
	case string:
		if isBinary(x) {
			return boxed(shiftBytes(x, from))
		}
	}
	return nil
}

// shiftWindow bounds how far the shift pass carries bytes to a zero.
const shiftWindow = 8

// shiftBytes yields binary data with a byte 00, then 01, put in before
// byte i and the first zero byte of the shiftWindow after it taken out, so
// that the bytes between move one place right: a smaller candidate of the
// same length where byte i is above the byte put in. In the options of a
// header, kind and length of an option then move past a no-op option
// (01), as "02 05 00 00" becomes "01 02 05 00" and then "01 01 02 05",
// where no one byte can change alone. It runs only when no other pass
// makes progress. The cursor is pos.i, the byte before which one goes in.
func shiftBytes[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for i := from.i; i+1 < len(s); i++ {
			z := i + 1
			for z < len(s) && z <= i+shiftWindow && s[z] != 0 {
				z++
			}
			if z == len(s) || z > i+shiftWindow {
				continue
			}
			for _, b := range []byte{0, 1} {
				if b >= s[i] {
					break
				}
				c := make([]byte, 0, len(s))
				c = append(append(append(append(c, s[:i]...), b), s[i:z]...), s[z+1:]...)
				if !yield(pos{i: i + 1}, S(c)) {
					return
				}
			}
		}
	}
}

// swapArg swaps adjacent bytes or runes of []byte and string arguments.
func swapArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(swapBytes(x, from))
	case string:
		if !isBinary(x) { // valid UTF-8 too
			return boxed(swapRunes(x, from))
		}
		return boxed(swapBytes(x, from))
	}
	return nil
}

// swapBytes yields s with two adjacent bytes swapped where the second comes
// first in the printable-first order, so the result is smaller: a step of a
// bubble sort, which moves a character that must be somewhere, such as the
// one separator a parser needs, past the characters that need not be
// before it ("00!000" → "00000!"). After a swap the pass goes on with the
// next pair, carrying the larger byte along. It costs a run per pair out of
// order, so the swap pass runs only when no other pass makes progress. The
// cursor is pos.i, the index of the first byte of the pair.
func swapBytes[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		text := !isBinary(s)
		ranks := ranksFor(!text)
		for i := from.i; i+1 < len(s); i++ {
			if ranks[s[i]] <= ranks[s[i+1]] {
				continue
			}
			c := make([]byte, len(s))
			copy(c, s)
			c[i], c[i+1] = c[i+1], c[i]
			if text && (c[i] >= utf8.RuneSelf || c[i+1] >= utf8.RuneSelf) && !utf8.Valid(c) {
				continue // a rune cut: binary data comes after text
			}
			if !yield(pos{i: i + 1}, S(c)) {
				return
			}
		}
	}
}
