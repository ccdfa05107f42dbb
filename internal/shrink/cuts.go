package shrink

import (
	"iter"
	"unicode/utf8"
)

// The cuts pass is the toolchain's own minimizer for []byte and string
// arguments, as moves of the engine judged by its identity
// ($GOROOT/src/internal/fuzz/minimize.go, minimizeBytes): the tail cut by
// 1024, 512, …, 1 bytes, then every range of two bytes or more removed,
// from each start, longest first. Its single-byte removals are the remove
// pass's blocks of one byte, and its printable replacements never make a
// result shorter. A search's result is a fixed point of every pass, so no
// one of the toolchain's removals makes it smaller and still fails the
// same way as far as the pass's budget reaches (pass.budgeted): removing
// every range costs a run per pair of offsets, which the budget affords
// whole for inputs of up to 128 bytes. In a string of valid UTF-8 the cuts
// are between runes, as every pass keeps such strings valid.

// minPassBudget is the least number of candidates a budgeted pass may
// propose: every range of an input of 128 bytes.
const minPassBudget = 128 * 127 / 2

// cutsArg applies the cuts pass to []byte and string arguments.
func cutsArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		return boxed(cuts(x, from, false))
	case string:
		return boxed(cuts(x, from, utf8.ValidString(x)))
	}
	return nil
}

// cuts yields s without its tail, then without a range, cut between runes
// if s is text. The cursor is (pos.k, pos.i) = (0, bytes cut) for the tail
// and (1, start) for a range, the longest from start first.
func cuts[S byteString](s S, from pos, text bool) iter.Seq2[pos, S] {
	at := func(i int) bool { return !text || i == len(s) || utf8.RuneStart(s[i]) }
	return func(yield func(pos, S) bool) {
		if from.k == 0 {
			n := 1024
			if from.i > 0 {
				n = from.i
			}
			for ; n > 0; n /= 2 {
				if n < len(s) && at(len(s)-n) && !yield(pos{i: n}, s[:len(s)-n]) {
					return
				}
			}
			from = pos{k: 1}
		}
		for i := from.i; i < len(s)-1; i++ {
			if !at(i) {
				continue
			}
			for j := len(s); j > i+1; j-- {
				if !at(j) {
					continue
				}
				// After a cut the toolchain tries the new longest
				// range from the same start.
				if !yield(pos{k: 1, i: i}, cut(s, rng{i, j})) {
					return
				}
			}
		}
	}
}
