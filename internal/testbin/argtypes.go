package testbin

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// The argument types of a fuzz target are those of the function its f.Fuzz
// receives, after *testing.T. import and migrate ask the test binary rather
// than read the source: the source may pass f.Fuzz a function value from
// anywhere, and a target wrapped by fuzzshrink.Fuzz gives f.Fuzz another
// function than the one the source shows (each composite argument is one
// []byte). The testing package checks every seed corpus file against those
// types before it runs any, and names them when a file does not fit:
//
//	"testdata/fuzz/FuzzX/c000001": mismatched types in corpus entry: [int], want [string int]
//	"testdata/fuzz/FuzzX/c000000": wrong number of values in corpus entry: 1, want 2
//
// So argTypes runs the target on a private corpus of files that cannot all
// fit (one of bools, one of ints, of the same length), and the target's
// function never runs.
var (
	wantTypesRE = regexp.MustCompile(`mismatched types in corpus entry: \[.*\], want \[(.*)\]$`)
	wantCountRE = regexp.MustCompile(`wrong number of values in corpus entry: \d+, want (\d+)`)
)

// ArgTypes returns the argument types of the runner's target.
func (r *Runner) ArgTypes(ctx context.Context) ([]reflect.Type, error) {
	n, tail := 1, ""
	for range 2 { // learn the number of arguments, if not 1, then the types
		bools, ints := make([]any, n), make([]any, n)
		for i := range n {
			bools[i], ints[i] = false, 0
		}
		a, err := encoding.Marshal(bools...)
		if err != nil {
			return nil, err
		}
		b, err := encoding.Marshal(ints...)
		if err != nil {
			return nil, err
		}
		out, err := r.Run(ctx, [][]byte{a, b}, Judge{Stop: func(int, failure.Signature) bool { return true }})
		if err != nil {
			return nil, err
		}
		tail = out.Tail
		if m := wantTypesRE.FindStringSubmatch(out.Stale); m != nil {
			return parseTypes(m[1])
		}
		m := wantCountRE.FindStringSubmatch(out.Stale)
		if m == nil {
			break
		}
		if n, err = strconv.Atoi(m[1]); err != nil || n < 1 {
			break
		}
	}
	return nil, fmt.Errorf("the test binary did not tell the argument types of %s (does it reach f.Fuzz?); it said:\n%s", r.Target, tail)
}

// parseTypes parses the testing package's list of types: "string int []uint8".
func parseTypes(list string) ([]reflect.Type, error) {
	var types []reflect.Type
	for _, name := range strings.Fields(list) {
		t, ok := encoding.NativeType(name)
		if !ok {
			return nil, fmt.Errorf("the target takes an argument of type %s, which is not a native fuzz type", name)
		}
		types = append(types, t)
	}
	return types, nil
}
