package fuzzshrink_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

// A property draws the values it needs from generators; the labels name
// them in reports. Here Find runs the draws of an interval, and finds the
// simplest one at least 10 wide.
func ExampleGen_Draw() {
	interval := fuzzshrink.Compose(func(t *fuzzshrink.T) [2]int {
		lo := fuzzshrink.IntRange(-100, 100).Draw(t, "lo")
		hi := fuzzshrink.IntRange(lo, 100).Draw(t, "hi")
		return [2]int{lo, hi}
	})
	iv, _ := fuzzshrink.Find(interval, func(iv [2]int) bool { return iv[1]-iv[0] >= 10 }, fuzzshrink.Seed(1))
	fmt.Println(iv)
	// Output: [0 10]
}

// FlatMap draws a value that depends on another: a pair a ≤ b. Shrinking
// lowers a first, and b keeps its distance to a; then b shrinks.
func ExampleFlatMap() {
	pair := fuzzshrink.FlatMap(fuzzshrink.IntRange(0, 1000), func(a int) *fuzzshrink.Gen[[2]int] {
		return fuzzshrink.Map(fuzzshrink.IntRange(a, 1000), func(b int) [2]int { return [2]int{a, b} })
	})
	p, _ := fuzzshrink.Find(pair, func(p [2]int) bool { return p[1]-p[0] > 5 }, fuzzshrink.Seed(1))
	fmt.Println(p)
	// Output: [0 6]
}

// stdoutTB stands in for the *testing.T of a test: it prints what Check
// reports instead of failing.
type stdoutTB struct{ testing.TB }

func (stdoutTB) Helper()           {}
func (stdoutTB) Name() string      { return "TestSum" }
func (stdoutTB) Fatal(args ...any) { fmt.Println(args...) }

// Check runs a property on generated cases and reports the simplest
// failure it can find. In a test, t is the test's *testing.T; the seed is
// random unless given, and the failure is written to
// testdata/fuzz/TestSum/ to run first from then on.
func ExampleCheck() {
	t := stdoutTB{}
	fuzzshrink.Check(t, func(t *fuzzshrink.T) {
		xs := fuzzshrink.SliceOf(fuzzshrink.Int()).Draw(t, "xs")
		sum := 0
		for _, x := range xs {
			sum += x
		}
		if sum > 100 {
			t.Fatalf("sum %d > 100", sum)
		}
	}, fuzzshrink.Seed(3), fuzzshrink.CorpusDir(""))
	// Output:
	// fuzzshrink: TestSum failed (seed 3)
	//     xs = []int{101}
	//     example_gen_test.go:57: sum 101 > 100
	// Shrunk from case 5 (size 4) of seed 3 in 65 runs, 45 accepted, 2 rounds of passes; the original:
	//     xs = []int{-5722, 599495589184654}
	// Choice sequence: []byte("\x01\xc9\x00")
	// To generate the same cases: go test -run='^TestSum$' -fuzzshrink.seed=3
}

// A fuzz target of generators fuzzes the choice sequence its draws replay;
// fuzzmin shrinks a failure as draws, and reports them. AddDraws adds a seed
// by the values of its draws.
func ExampleFuzz_generators() {
	fuzzDecode := func(f *testing.F) {
		fuzzshrink.AddDraws(f, "n", 2, "xs", []int{7, 1})
		fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
			n := fuzzshrink.IntRange(1, 5).Draw(t, "n")
			xs := fuzzshrink.SliceOfN(fuzzshrink.IntRange(0, 9), n, n).Draw(t, "xs")
			if len(xs) != n {
				t.Fatalf("%d elements, want %d", len(xs), n)
			}
		})
	}
	_ = fuzzDecode // in a _test.go file: func FuzzDecode(f *testing.F) { … }
}

// Term is a number, or a sum of terms.
type Term struct {
	Num   int
	Terms []Term
	Leaf  bool
}

func (e Term) String() string {
	if e.Leaf {
		return fmt.Sprint(e.Num)
	}
	return fmt.Sprint(e.Terms)
}

// OneOf may list a recursive alternative before the base case: it finds
// the base case (the alternative whose simplest value does not recurse),
// draws it more often as draws nest, and shrinks toward it.
func ExampleOneOf() {
	var term *fuzzshrink.Gen[Term]
	term = fuzzshrink.OneOf(
		fuzzshrink.Map(fuzzshrink.SliceOfN(fuzzshrink.Deferred(func() *fuzzshrink.Gen[Term] { return term }), 1, 3),
			func(ts []Term) Term { return Term{Terms: ts} }),
		fuzzshrink.Map(fuzzshrink.IntRange(0, 9), func(n int) Term { return Term{Num: n, Leaf: true} }),
	)
	e, _ := fuzzshrink.Find(term, func(e Term) bool { return len(e.Terms) >= 2 }, fuzzshrink.Seed(1))
	fmt.Println(e)
	// Output: [0 0]
}

// Frequency chooses among alternatives by weight; Chance draws a bool true
// with the given probability. Both shrink as their unweighted forms do:
// toward the base case (here the first alternative) and false.
func ExampleFrequency() {
	code := fuzzshrink.Frequency(
		fuzzshrink.Weighted[int]{Weight: 3, Gen: fuzzshrink.Just(200)},
		fuzzshrink.Weighted[int]{Weight: 1, Gen: fuzzshrink.IntRange(400, 599)},
	)
	retry := fuzzshrink.Chance(0.25)
	p := fuzzshrink.Compose(func(t *fuzzshrink.T) [2]int {
		c := code.Draw(t, "code")
		if retry.Draw(t, "retry") {
			return [2]int{c, 1}
		}
		return [2]int{c, 0}
	})
	v, _ := fuzzshrink.Find(p, func(v [2]int) bool { return v[0] >= 500 && v[1] == 1 }, fuzzshrink.Seed(1))
	fmt.Println(v)
	// Output: [500 1]
}

// StringMatching generates the strings a regular expression matches, and
// shrinks them as the expression's structure: fewer repetitions, earlier
// branches, the first character of each class.
func ExampleStringMatching() {
	email := fuzzshrink.StringMatching(`[a-z]+@[a-z]+\.(com|org|net)`)
	s, _ := fuzzshrink.Find(email, func(s string) bool { return strings.HasSuffix(s, ".org") }, fuzzshrink.Seed(1))
	fmt.Println(s)
	// Output: a@a.org
}

// SliceOfDistinctBy keeps one value per key; Permutation shuffles values;
// Ptr draws nil or a pointer. Each shrinks as the collection or value it
// builds on.
func ExampleSliceOfDistinctBy() {
	type user struct {
		ID   int
		Name string
	}
	users := fuzzshrink.SliceOfDistinctBy(fuzzshrink.Compose(func(t *fuzzshrink.T) user {
		return user{fuzzshrink.IntRange(0, 9).Draw(t, "id"), fuzzshrink.StringMatching(`[a-z]{1,8}`).Draw(t, "name")}
	}), func(u user) int { return u.ID })
	us, _ := fuzzshrink.Find(users, func(us []user) bool { return len(us) >= 3 }, fuzzshrink.Seed(1))
	fmt.Println(us)

	order := fuzzshrink.Permutation([]string{"a", "b", "c", "d"})
	p, _ := fuzzshrink.Find(order, func(p []string) bool { return p[0] == "c" }, fuzzshrink.Seed(1))
	fmt.Println(p)

	limit := fuzzshrink.Ptr(fuzzshrink.IntRange(0, 100))
	l, _ := fuzzshrink.Find(limit, func(l *int) bool { return l != nil && *l > 10 }, fuzzshrink.Seed(1))
	fmt.Println(*l)
	// Output:
	// [{0 a} {1 a} {2 a}]
	// [c b a d]
	// 11
}
