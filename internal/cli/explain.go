package cli

import (
	"fmt"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// An explanation says which parts of a result matter (see shrink.Explain),
// as -json writes it and the report shows it.
type explanation struct {
	Runs int
	Args []explainedArg
	// Smaller is a smaller input that failed the same way, met by
	// accident: the search missed it; the result stays the verified one.
	Smaller string `json:",omitempty"`
}

// An explainedArg is one argument: free if every alternative tried failed
// the same way; for a string or []byte that is not, its positions, and its
// value with each position shown by its class.
type explainedArg struct {
	Free      bool
	Tried     int
	Legend    string          `json:",omitempty"`
	Positions []explainedChar `json:",omitempty"`
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
	e := &explanation{Runs: ex.Runs}
	if ex.Smaller != nil {
		e.Smaller = gosyntax.Call("f.Add", ex.Smaller, "")
	}
	for _, a := range ex.Args {
		ea := explainedArg{Free: a.Free, Tried: a.Tried}
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

// lines returns the explanation as the report shows it, under the value:
// "explained in 65 runs: argument 1 reads [letter]=[digit](; arguments
// 2–12 do not matter", with a key to _ and ? when the legend has them.
func (e *explanation) lines() []string {
	var parts []string
	key := ""
	for i := 0; i < len(e.Args); i++ {
		a := e.Args[i]
		name := fmt.Sprintf("argument %d", i+1)
		if len(e.Args) == 1 {
			name = "the value"
		}
		switch {
		case a.Free:
			j := i
			for j+1 < len(e.Args) && e.Args[j+1].Free {
				j++
			}
			switch {
			case len(e.Args) == 1:
				parts = append(parts, "the value does not matter")
			case j > i:
				parts = append(parts, fmt.Sprintf("arguments %d–%d do not matter", i+1, j+1))
			default:
				parts = append(parts, name+" does not matter")
			}
			i = j
		case a.Legend != "":
			parts = append(parts, name+" reads "+preview(a.Legend))
			if strings.ContainsAny(a.Legend, "_") {
				key = " (_ is any byte)"
			}
			if strings.Contains(a.Legend, "?") {
				key += " (? was not tried: the budget ran out)"
			}
		case a.Tried > 0:
			parts = append(parts, name+" matters")
		}
	}
	out := []string{fmt.Sprintf("explained in %s: %s%s", plural(e.Runs, "run", "runs"), strings.Join(parts, "; "), key)}
	if e.Smaller != "" {
		out = append(out, "the explanation met a smaller input that fails the same way, which the search missed: "+preview(e.Smaller)+"; the result is the one verified")
	}
	return out
}
