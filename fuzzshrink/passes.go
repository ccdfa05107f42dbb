package fuzzshrink

import (
	"bytes"
	"iter"
)

// The passes, in the order a round runs them. Structure first: removing
// blocks makes everything after it cheaper, and redistribution prepares
// more removals. Values second. Each pass works on every argument in turn,
// left to right.
var passes = [...]pass{
	{"remove", removeArg},             // bytes.go, strings.go
	{"redistribute", redistributeArg}, // bytes.go, strings.go
	{"ints", intArg},                  // ints.go
	{"floats", floatArg},              // floats.go
	{"bools", boolArg},                // bools.go
	{"bytes", lowerBytesArg},          // bytes.go: []byte, and strings that are not valid UTF-8
	{"runes", lowerRunesArg},          // strings.go: valid UTF-8 strings
}

// A pass proposes candidates for one argument at a time: arg returns the
// candidate values for v, each strictly smaller than v, starting at from, or
// nil if the pass does not apply to v's type. Iterators are lazy: the engine
// stops pulling at the first accepted candidate.
type pass struct {
	name string
	arg  func(v any, from pos) iter.Seq2[pos, any]
}

// A cursor is where a pass resumes after one of its candidates is accepted:
// each candidate carries the cursor to resume from on the new best tuple. A
// new round starts every pass from the zero cursor.
type cursor struct {
	arg int // argument index
	pos
}

// pos is the pass-specific part of a cursor. Its meaning is documented with
// each shrinker: block size and offset for removal, element indices for
// redistribution and lowering, and the state of a magnitude search.
type pos struct {
	i, j int
	s    search
}

// candidates yields, for every argument from from.arg on, the argument's
// index and candidate value with the cursor to resume from. The engine
// builds the candidate tuple only for values it has not seen (see [with]).
func (p *pass) candidates(best []any, from cursor) iter.Seq2[cursor, any] {
	return func(yield func(cursor, any) bool) {
		for i := from.arg; i < len(best); i++ {
			start := pos{}
			if i == from.arg {
				start = from.pos
			}
			seq := p.arg(best[i], start)
			if seq == nil {
				continue
			}
			for ps, v := range seq {
				if !yield(cursor{arg: i, pos: ps}, v) {
					return
				}
			}
		}
	}
}

// boxed converts a shrinker's typed candidates to the values of a tuple.
func boxed[T any](seq iter.Seq2[pos, T]) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		for p, v := range seq {
			if !yield(p, v) {
				return
			}
		}
	}
}

// with returns a new tuple equal to t with argument i replaced by v (no
// replacement if i < 0). Byte slices are copied: every candidate owns all of
// its memory, so an oracle that retains a candidate shares nothing with the
// engine's best tuple or with other candidates.
func with(t []any, i int, v any) []any {
	c := make([]any, len(t))
	for k, a := range t {
		if k == i {
			a = v
		} else if b, ok := a.([]byte); ok {
			a = bytes.Clone(b)
		}
		c[k] = a
	}
	return c
}

func cloneTuple(t []any) []any { return with(t, -1, nil) }

// supported reports whether v has one of the native fuzz types.
func supported(v any) bool {
	switch v.(type) {
	case string, []byte, bool,
		int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64,
		float32, float64:
		return true
	}
	return false
}
