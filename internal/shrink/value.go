package shrink

import "iter"

// A Value is an argument of a kind the engine does not shrink itself: the
// value brings its own size, order, identity and passes, and the engine
// treats it as it treats a native argument. A round runs the engine's
// passes, then the passes of each kind of Value among the arguments. The
// choice sequences of generators ([ChoiceSeq]) are the one kind today.
//
// Values are immutable: candidates are new values, so that tuples may
// share them.
type Value interface {
	// Size is what the value adds to the tuple's total size, which
	// removal decreases.
	Size() int
	// Compare orders the value among values of its own kind, as [Compare]
	// orders tuples of the same size: -1, 0 or +1.
	Compare(other Value) int
	// Key identifies the value among values of its kind, for the cache
	// of candidates run: equal values have equal keys.
	Key() []byte
	// Passes are the kind's passes, the same for every value of the kind.
	Passes() []ValuePass
}

// A ValuePass proposes candidates for one Value: Run yields values strictly
// smaller than v, starting at from, each with the mark to resume from on
// it if it is accepted. The engine pulls lazily and stops at the first
// accepted candidate; a new round starts every pass from the zero Mark.
type ValuePass struct {
	Name string
	Run  func(v Value, from Mark) iter.Seq2[Mark, Value]
}

// A Mark is where a value pass resumes: three integers whose meaning is
// the pass's own.
type Mark struct{ Node, I, J int }

func isValue(v any) bool {
	_, ok := v.(Value)
	return ok
}
