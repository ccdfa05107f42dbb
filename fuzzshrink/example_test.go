package fuzzshrink_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

func ExampleMinimize() {
	n := fuzzshrink.Minimize(987654321, func(n int) bool { return n > 1000 })
	s := fuzzshrink.Minimize("hello, wörld!", func(s string) bool { return strings.ContainsRune(s, 'ö') })
	fmt.Println(n, s)
	// Output: 1001 ö
}

// A request parser fails on a query string with a port above 1024; the
// flag does not matter. Minimize shrinks the struct's fields jointly, here
// for a second at most (ShrinkTime).
func ExampleMinimize_budget() {
	type Request struct {
		Line  string
		Port  int
		Debug bool
	}
	fails := func(r Request) bool { return strings.Contains(r.Line, "?") && r.Port > 1024 }
	r := Request{Line: "GET /index.html?debug=1 HTTP/1.1", Port: 8080, Debug: true}
	fmt.Printf("%+v\n", fuzzshrink.Minimize(r, fails, fuzzshrink.ShrinkTime(time.Second)))
	// Output: {Line:? Port:1025 Debug:false}
}
