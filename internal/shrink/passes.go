package shrink

import (
	"bytes"
	"iter"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// The passes, in the order a round runs them. Structure first: removing
// blocks makes everything after it cheaper, and redistribution prepares
// more removals. Values second. Each pass works on every argument in turn,
// left to right.
var passes = [...]pass{
	{name: "fields", arg: fieldsArg, sealed: fieldsSealed, node: leaves(fieldsArg), repeat: true}, // fields.go, fieldmoves.go
	{name: "lengths", arg: lengthsArg, node: leaves(lengthsArg), repeat: true},                    // records.go
	{name: "trees", arg: treesArg, node: leaves(treesArg), repeat: true},                          // trees.go
	{name: "inflate", arg: inflateArg, sealed: inflateSealed},                                     // inflate.go
	{name: "lists", arg: listsArg, node: leaves(listsArg)},                                        // text.go
	{name: "hoist", arg: hoistArg, node: leaves(hoistArg)},                                        // text.go
	{name: "spans", arg: spansArg, node: leaves(spansArg)},                                        // text.go
	{name: "tokens", arg: tokensArg, node: leaves(tokensArg)},                                     // text.go
	{name: "remove", arg: removeArg, node: removeNode},                                            // bytes.go, strings.go, composite.go
	{name: "rewrap", arg: rewrapArg, node: leaves(rewrapArg), tuple: rewrapTuple},                 // text.go
	{name: "pairs", arg: pairsArg, node: leaves(pairsArg), stuck: true},                           // text.go
	{name: "words", arg: wordsArg, node: leaves(wordsArg), stuck: true},                           // words.go
	{name: "counts", tuple: countTuple, stuck: true},                                              // counts.go
	{name: "zero", node: zeroNode},                                                                // composite.go
	{name: "sort", node: sortNode},                                                                // composite.go
	{name: "redistribute", arg: redistributeArg, node: leaves(redistributeArg), tuple: moveTuple}, // bytes.go, strings.go, ints.go
	{name: "offset", node: offsetNode, tuple: offsetTuple},                                        // ints.go
	{name: "ints", arg: intArg, node: leaves(intArg)},                                             // ints.go
	{name: "floats", arg: floatArg, node: leaves(floatArg)},                                       // floats.go
	{name: "bools", arg: boolArg, node: leaves(boolArg)},                                          // bools.go
	{name: "literals", arg: literalsArg, node: leaves(literalsArg)},                               // text.go
	{name: "numbers", arg: numbersArg, node: leaves(numbersArg)},                                  // text.go
	{name: "bytes", arg: lowerBytesArg, node: leaves(lowerBytesArg)},                              // bytes.go: []byte, and strings that are not valid UTF-8
	{name: "runes", arg: lowerRunesArg, node: leaves(lowerRunesArg)},                              // strings.go: valid UTF-8 strings
	{name: "swap", arg: swapArg, node: leaves(swapArg), stuck: true},                              // bytes.go, strings.go
	{name: "shift", arg: shiftArg, node: leaves(shiftArg), stuck: true},                           // bytes.go: binary data
	{name: "cuts", arg: cutsArg, node: leaves(cutsArg), stuck: true, budgeted: true},              // cuts.go: last, at a fixed point of all the others
}

// searchPasses are the passes of a search of args: the engine's, then the
// passes of each kind of [Value] among the arguments, in the order the
// kinds first appear.
func searchPasses(args []any) []pass {
	ps := passes[:]
	seen := map[reflect.Type]bool{}
	for _, a := range args {
		v, ok := a.(Value)
		if !ok || seen[reflect.TypeOf(v)] {
			continue
		}
		seen[reflect.TypeOf(v)] = true
		ps = slices.Clip(ps)
		for _, vp := range v.Passes() {
			ps = append(ps, pass{name: vp.Name, kind: reflect.TypeOf(v), value: vp.Run})
		}
	}
	return ps
}

// A pass proposes candidates for one argument at a time: arg returns the
// candidate values for a native v, each strictly smaller than v, starting at
// from, or nil if the pass does not apply to v's type; node does the same
// for one node of a composite argument (see composite.go); tuple proposes
// whole tuples, for moves across arguments, after the per-argument ones (its
// candidates have the argument index len(best)). Iterators are
// lazy: the engine stops pulling at the first accepted candidate. A stuck
// pass runs only in rounds where no pass before it accepted anything: it is
// costly, and worth its runs only when cheaper moves are exhausted. The
// repeat passes come first, and once one accepts anything they run again
// from the first, before the passes after them: their moves are large (a
// binary format's parts with the fields that size them), each makes the
// others' cheaper, and every byte-level pass after them cheaper still.
type pass struct {
	name   string
	arg    func(v any, from pos) iter.Seq2[pos, any]
	node   func(n node, from pos) iter.Seq2[pos, reflect.Value]
	tuple  func(t []any, from pos) iter.Seq2[pos, []any]
	stuck  bool
	repeat bool
	// budgeted: the pass runs at most as many candidates in a search as
	// the other passes do, and at least minPassBudget; its moves are many
	// (a run per pair of offsets), worth trying as far as the search
	// affords them.
	budgeted bool
	// sealed, if set, is arg for an argument with sums (formats.FindSums), which
	// the pass seals itself; the candidates of other passes for such an
	// argument are sealed after them.
	sealed func(v any, from pos, sums []formats.Sum) iter.Seq2[pos, any]
	// A pass of a kind of Value: run on the arguments of that kind.
	kind  reflect.Type
	value func(v Value, from Mark) iter.Seq2[Mark, Value]
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
// redistribution and lowering, and the state of a magnitude search; in a
// composite argument, node is the preorder index of the node shrunk.
type pos struct {
	k, i, j int
	s       magSearch
	node    int
	sub     *pos // the cursor of a pass run inside this one (inflate.go)
}

// candidates yields, for every argument from from.arg on, the argument's
// index and candidate value with the cursor to resume from. The engine
// builds the candidate tuple only for values it has not seen (see [with]).
// sumsOf returns the sums of an argument of best.
func (p *pass) candidates(best []any, from cursor, sumsOf func(i int) []formats.Sum) iter.Seq2[cursor, any] {
	return func(yield func(cursor, any) bool) {
		for i := from.arg; i < len(best); i++ {
			start := pos{}
			if i == from.arg {
				start = from.pos
			}
			var seq iter.Seq2[pos, any]
			switch {
			case p.value != nil:
				if reflect.TypeOf(best[i]) == p.kind {
					seq = markedSeq(p.value(best[i].(Value), Mark{Node: start.node, I: start.i, J: start.j}))
				}
			case composite(best[i]):
				if p.node != nil {
					seq = structural(best[i], start, p.node)
				}
			case p.arg != nil:
				seq = p.arg(best[i], start)
				if sums := sumsOf(i); len(sums) > 0 {
					seq = sealedSeq(p, best[i], start, seq, sums)
				}
				if s, ok := best[i].(string); ok && seq != nil && utf8.ValidString(s) {
					seq = validStrings(seq)
				}
			}
			if seq == nil {
				continue
			}
			for ps, v := range seq {
				if !yield(cursor{arg: i, pos: ps}, v) {
					return
				}
			}
		}
		if p.tuple == nil || from.arg > len(best) {
			return
		}
		start := pos{}
		if from.arg == len(best) {
			start = from.pos
		}
		seq := p.tuple(best, start)
		if seq == nil {
			return
		}
		for ps, t := range seq {
			if !yield(cursor{arg: len(best), pos: ps}, t) {
				return
			}
		}
	}
}

// sealedSeq returns the candidates of pass p for v, which has sums, given
// seq, those for v without them.
func sealedSeq(p *pass, v any, from pos, seq iter.Seq2[pos, any], sums []formats.Sum) iter.Seq2[pos, any] {
	if p.sealed != nil {
		return p.sealed(v, from, sums)
	}
	if seq == nil {
		return nil
	}
	switch x := v.(type) {
	case []byte:
		return resealed(seq, x, sums)
	case string:
		return resealed(seq, x, sums)
	}
	return seq
}

// markedSeq converts the candidates of a value pass to those of a pass.
func markedSeq(seq iter.Seq2[Mark, Value]) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		for m, v := range seq {
			if !yield(pos{node: m.Node, i: m.I, j: m.J}, v) {
				return
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
// replacement if i < 0; if i is len(t), v is the whole new tuple, []any).
// Byte slices and composite values are copied: every candidate owns all of
// its memory, so an oracle that retains a candidate shares nothing with the
// engine's best tuple or with other candidates.
func with(t []any, i int, v any) []any {
	if i == len(t) {
		return with(v.([]any), -1, nil)
	}
	c := make([]any, len(t))
	for k, a := range t {
		switch {
		case k == i:
			a = v
		case composite(a):
			a = deepCopy(reflect.ValueOf(a)).Interface()
		default:
			if b, ok := a.([]byte); ok {
				a = bytes.Clone(b)
			}
		}
		c[k] = a
	}
	return c
}

func cloneTuple(t []any) []any { return with(t, -1, nil) }

// Supported reports whether v has one of the native fuzz types.
func Supported(v any) bool {
	tag, _ := encoding.NativeTag(v)
	return tag != 0
}

// validStrings drops the candidates that are not valid UTF-8 from the
// candidates of a valid string: a string that is text stays text, whichever
// pass made the candidate (the byte-level ones see binary data in a string
// with control characters, "\x00\u0080", which is valid UTF-8 too).
func validStrings(seq iter.Seq2[pos, any]) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		for ps, v := range seq {
			if s, ok := v.(string); ok && !utf8.ValidString(s) {
				continue
			}
			if !yield(ps, v) {
				return
			}
		}
	}
}
