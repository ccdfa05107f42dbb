package shrink

import (
	"math"
	"slices"
)

// A Record is what a run of a property drew.
type Record struct {
	Choices []Choice
	Spans   []Span
	Draws   []Drawn // the values of top-level draws, when kept
}

// A Choice is one typed Choice and where its token lies in the sequence.
type Choice struct {
	Kind       ChoiceKind
	Signed     bool   // kindInt: the range is signed
	NaN        bool   // kindFloat: NaN is allowed
	Lo, Hi     uint64 // kindInt: the range; kindFloat: the bounds' bits
	Val        uint64 // kindInt: the rank; kindFloat: the value's bits
	Start, End int32  // the token, data[start:end], clipped to the data
}

func (c *Choice) Interval() Interval { return Interval{c.Signed, c.Lo, c.Hi} }

func (c *Choice) FloatInterval() FloatInterval {
	return FloatInterval{math.Float64frombits(c.Lo), math.Float64frombits(c.Hi), c.NaN}
}

func (c *Choice) Float() float64 { return math.Float64frombits(c.Val) }

// AppendToken appends the canonical token of the choice's value.
func (c *Choice) AppendToken(b []byte) []byte {
	if c.Kind == KindFloat {
		return AppendFloatToken(b, c.Float())
	}
	return AppendIntToken(b, c.Val)
}

// lowered returns the token of the integer choice c with its value lower
// by d, which the caller knows to stay in the range.
func (c *Choice) lowered(d uint64) []byte {
	r := c.Interval()
	v, _ := Shift(c, r.Value(c.Val), d, false)
	return AppendIntToken(nil, r.Rank(v))
}

// simplest reports whether the choice has the simplest value of its
// domain, whose canonical token is a zero byte or, for floats out of 0's
// reach, whatever reading past the end gives.
func (c *Choice) simplest() bool {
	if c.Kind == KindFloat {
		return c.Val == math.Float64bits(c.FloatInterval().Simplest())
	}
	return c.Val == 0
}

// A Span is the choices that one draw made: [first, last) in
// record.choices, nested in its parent Span (-1 at the top).
type Span struct {
	Drawer      *Drawer
	Label       string
	First, Last int32
	Parent      int32
	Flagged     bool // an element of a collection whose first choice is its continue flag
}

// Drawn is the value of a top-level draw, for reports.
type Drawn struct {
	Label string
	Value any
}

// Drawer is the part of a generator that spans record: its identity (the
// pointer), for "same generator" checks, and how the shrinker treats it.
type Drawer struct {
	Name     string
	NoShrink bool // NoShrink: the choices inside are frozen
	Filter   bool // Filter: the values inside skip rejected ones
	Element  bool // an element of a collection: its flag and its value
	Depth    bool // OneOf: counts nested draws of itself
	Steps    bool // Repeat: its spans are the steps of a sequence of commands
	// Scattered: the failing values of its integers are scattered over
	// their range, as a Unicode class is over the runes: lowering one
	// tries the distances with only their highest bits set too.
	Scattered bool
}

// Normalize returns the normal form of a run's sequence: the canonical
// tokens of the choices it drew, and its record with the tokens' new
// positions, in memory of its own. The unconsumed rest of the data is gone. It replays to the
// same choices, so to the same run.
//
// Trailing simplest choices stay: replay would read them past the end
// anyway, but dropped, they would cost nothing in the order, and the
// shrinker would prefer [2 9 0] to [0 2 9], and never sort a set whose
// smallest element comes last. Every choice counts, as in Hypothesis.
func (rec *Record) Normalize() ([]byte, *Record) {
	out := &Record{Choices: make([]Choice, len(rec.Choices)), Spans: slices.Clone(rec.Spans), Draws: slices.Clone(rec.Draws)}
	var data []byte
	for i, c := range rec.Choices {
		start := len(data)
		data = c.AppendToken(data)
		c.Start, c.End = int32(start), int32(len(data))
		out.Choices[i] = c
	}
	return data[:len(data):len(data)], out
}
