package fuzzshrink_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

func ExampleMinimize() {
	n := fuzzshrink.Minimize(987654321, func(n int) bool { return n > 1000 })
	s := fuzzshrink.Minimize("hello, wörld!", func(s string) bool { return strings.ContainsRune(s, 'ö') })
	fmt.Println(n, s)
	// Output: 1001 ö
}

func ExampleShrink() {
	// A request parser that fails on a query string with a port above 1024;
	// the flag does not matter.
	fails := func(args []any) bool {
		return strings.Contains(args[0].(string), "?") && args[1].(int) > 1024
	}
	args := []any{"GET /index.html?debug=1 HTTP/1.1", 8080, true}
	r, err := fuzzshrink.Shrink(context.Background(), args, fuzzshrink.Predicate(fails))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q %d %v (%v)\n", r.Args[0], r.Args[1], r.Args[2], r.Stats.Stop)
	// Output: "?" 1025 false (done)
}

// The integer shrinker is a binary search that resumes where it accepted.
func ExampleObserve() {
	trace := fuzzshrink.Observe(func(ev fuzzshrink.Event) {
		if ev.Kind == fuzzshrink.Accepted {
			fmt.Print(ev.Args[0], " ")
		}
	})
	fuzzshrink.Minimize(1000, func(n int) bool { return n >= 300 }, trace)
	fmt.Println()
	// Output: 500 375 312 304 300
}
