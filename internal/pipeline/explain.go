package pipeline

import (
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// An explanation says which parts of a result matter (see shrink.Explain),
// as -json writes it and the report shows it.
type explanation struct {
	Runs int            `json:",omitempty"`
	Args []explainedArg `json:",omitempty"`
	// Smaller is a smaller input that failed the same way, met by
	// accident: the search missed it; the result stays the verified one.
	Smaller string `json:",omitempty"`
	Summary string // the line of the report
}

// An explainedArg is one argument: free if every alternative tried failed
// the same way; for a string or []byte that is not, its positions, and its
// value with each position shown by its class.
type explainedArg struct {
	Free        bool
	Unexplained bool `json:",omitempty"` // the budget ran out before a verdict
	Tried       int
	Legend      string          `json:",omitempty"`
	Positions   []explainedChar `json:",omitempty"`
	Fields      []shrink.Field  `json:",omitempty"` // of a struct: Name, Free, Tried
}

// An explainedChar is one rune or byte: its offset, its class (fixed,
// digit, lower, upper, letter, printable, free, or unexplained when the
// budget ran out first) and the alternatives tried.
type explainedChar struct {
	At    int
	Class string
	Tried int
}

func newExplanation(ex shrink.Explanation) *explanation {
	e := &explanation{Runs: ex.Runs, Summary: ex.Summary()}
	if ex.Smaller != nil {
		e.Smaller = gosyntax.Call("f.Add", ex.Smaller, "")
	}
	for _, a := range ex.Args {
		ea := explainedArg{Free: a.Free, Unexplained: a.Unexplained, Tried: a.Tried, Fields: a.Fields}
		if len(a.Positions) > 0 {
			ea.Legend = a.Legend()
			for _, p := range a.Positions {
				ea.Positions = append(ea.Positions, explainedChar{At: p.At, Class: p.Class.String(), Tried: p.Tried})
			}
		}
		e.Args = append(e.Args, ea)
	}
	return e
}

// lines returns the explanation as the report shows it, under the value.
func (e *explanation) lines() []string {
	out := []string{preview(e.Summary)}
	if e.Smaller != "" {
		out = append(out, "the explanation met a smaller input that fails the same way, which the search missed: "+preview(e.Smaller)+"; the result is the one verified")
	}
	return out
}
