package shrink

import (
	"fmt"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

func TestPool(t *testing.T) {
	a := failure.Signature{Kind: failure.Panic, Text: "a"}
	b := failure.Signature{Kind: failure.Panic, Text: "b"}
	c := failure.Signature{Kind: failure.Fail, Pos: "x.go:1"}
	var p Pool
	p.Add(a, []any{"zzz"})
	p.Add(a, []any{"zz"})  // smaller: kept
	p.Add(a, []any{"yyy"}) // larger: not
	p.Add(b, []any{"z"})
	p.Add(c, []any{"z"}) // as simple as b's: after it by text
	if got := fmt.Sprint(p.Args(a)); got != "[zz]" {
		t.Errorf("the candidate of a is %s, want the smallest, [zz]", got)
	}
	if p.Count(a) != 3 || p.Count(b) != 1 || p.Len() != 3 {
		t.Errorf("counts %d, %d of %d failures; want 3, 1 of 3", p.Count(a), p.Count(b), p.Len())
	}
	if got, want := fmt.Sprint(p.Sorted()), fmt.Sprint([]failure.Signature{c, b, a}); got != want {
		t.Errorf("Sorted = %s, want %s", got, want)
	}
}
