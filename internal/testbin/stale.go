package testbin

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
)

// The testing package checks every file of a seed corpus against the fuzz
// target's argument types before it runs any (internal/fuzz/fuzz.go,
// ReadCorpus and CheckCorpus), and names each file that does not fit:
//
//	"testdata/fuzz/FuzzB/c000000": mismatched types in corpus entry: [int], want [string]
//	"testdata/fuzz/FuzzB/c000001": wrong number of values in corpus entry: 1, want 2

// Stale reads the toolchain's complaint about an input of a run (a line of
// Result.Stales, or Result.Stale), whose file holds vals. It returns the
// reason without the file's name, and the line of the file at which the
// reason starts to apply: the first value whose type differs from the
// target's, the first value too many, or the last value of a file that has
// too few. ok is false if msg is not such a complaint.
func Stale(msg string, vals []any) (line int, reason string, ok bool) {
	loc := privateNameRE.FindStringIndex(msg)
	if loc == nil {
		return 0, "", false
	}
	reason = msg[loc[1]:]
	return staleLine(reason, vals), reason, true
}

// privateNameRE matches the name of an input of a private corpus in the
// toolchain's complaint about it, quoted and followed by ": ".
var privateNameRE = regexp.MustCompile(`^"testdata[/\\]+fuzz[/\\]+[^/\\"]+[/\\]+c\d{6}": `)

func staleLine(reason string, vals []any) int {
	if _, want, ok := strings.Cut(reason, "], want ["); ok {
		types := strings.Fields(strings.TrimSuffix(want, "]"))
		for i, v := range vals {
			if i >= len(types) || reflect.TypeOf(v).String() != types[i] {
				return i + 2
			}
		}
	}
	var got, want int
	if _, err := fmt.Sscanf(reason, "wrong number of values in corpus entry: %d, want %d", &got, &want); err == nil && got > want {
		return want + 2
	}
	return len(vals) + 1
}
