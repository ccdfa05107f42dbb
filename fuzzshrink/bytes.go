package fuzzshrink

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

// redistributeArg moves value between nearby elements of []byte and string
// arguments.
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
// not valid UTF-8.
func lowerBytesArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(lowerBytes(x, from))
	case string:
		if !utf8.ValidString(x) {
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

// redistributeWindow bounds the distance between the two elements of a redistribution:
// all pairs would cost O(n²) runs per round on inputs that removal could not
// shorten, and the pairs that matter are usually close once removal is done.
const redistributeWindow = 8

// redistribute yields s with value moved from element i to a later element j,
// j-i ≤ redistributeWindow: s[j] grows by as much as it can (up to 255) and s[i] shrinks
// by as much, so [51 50] becomes [0 101], which removal then shortens to
// [101]. s[i] decreases and nothing before it changes, so the result is
// smaller. The cursor is (pos.i, pos.j) = (i, j).
func redistribute[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for i := from.i; i < len(s); i++ {
			j := i + 1
			if i == from.i {
				j = max(j, from.j)
			}
			for ; j <= i+redistributeWindow && j < len(s); j++ {
				moved := min(s[i], 255-s[j])
				if moved == 0 {
					continue
				}
				c := make([]byte, len(s))
				copy(c, s)
				c[i] -= moved
				c[j] += moved
				if !yield(pos{i: i, j: j}, S(c)) {
					return
				}
			}
		}
	}
}

// lowerBytes yields s with one byte lowered: 0, then a binary search toward 0
// (see [magnitudes]). The cursor is (pos.i, pos.s) = (index, search state).
func lowerBytes[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		for i := from.i; i < len(s); i++ {
			st := magSearch{}
			if i == from.i {
				st = from.s
			}
			for st, m := range magnitudes(false, uint64(s[i]), 255, st) {
				c := make([]byte, len(s))
				copy(c, s)
				c[i] = byte(m.mag)
				if !yield(pos{i: i, s: st}, S(c)) {
					return
				}
			}
		}
	}
}

// blocks yields the [start, end) blocks that removal tries on n elements:
// sizes n, n/2, …, 1, each at offsets 0, size, 2·size, …; the cursor is
// (pos.i, pos.j) = (size, offset), as in [removeBlocks].
func blocks(n int, from pos) iter.Seq2[pos, [2]int] {
	return func(yield func(pos, [2]int) bool) {
		size, off := from.i, from.j
		if size == 0 {
			size, off = n, 0
		}
		size = min(size, n)
		for ; size > 0; size, off = size/2, 0 {
			for ; off < n; off += size {
				if !yield(pos{i: size, j: off}, [2]int{off, min(off+size, n)}) {
					return
				}
			}
		}
	}
}
