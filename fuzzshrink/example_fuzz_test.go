package fuzzshrink_test

import (
	"fmt"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

type Rule struct {
	Path   string
	Limit  int
	Weight float64
}

type Policy struct {
	Name  string
	Rules []Rule
	Owner *string
}

// A structured value shrinks structurally: the rules that do not matter go,
// and the fields that do not matter reach their zero values.
func ExampleMinimize_struct() {
	owner := "ops"
	p := Policy{Name: "default", Owner: &owner, Rules: []Rule{
		{Path: "/", Limit: 10, Weight: 0.5},
		{Path: "/api", Limit: 98765, Weight: 2},
		{Path: "/static", Limit: 7},
	}}
	tooHigh := func(p Policy) bool {
		for _, r := range p.Rules {
			if r.Limit > 1000 {
				return true
			}
		}
		return false
	}
	fmt.Printf("%+v\n", fuzzshrink.Minimize(p, tooHigh))
	// Output: {Name: Rules:[{Path: Limit:1001 Weight:0}] Owner:<nil>}
}

// Fuzz is f.Fuzz for functions of structured values; Add adds typed seeds.
func ExampleFuzz() {
	fuzzPolicy := func(f *testing.F) {
		fuzzshrink.Add(f, Policy{Name: "default", Rules: []Rule{{Path: "/", Limit: 10}}}, 3)
		fuzzshrink.Fuzz(f, func(t *testing.T, p Policy, depth int) {
			for _, r := range p.Rules {
				if r.Limit < 0 && depth > 2 {
					t.Fatalf("negative limit %d on %q", r.Limit, r.Path)
				}
			}
		})
	}
	_ = fuzzPolicy // in a _test.go file: func FuzzPolicy(f *testing.F) { … }
}
