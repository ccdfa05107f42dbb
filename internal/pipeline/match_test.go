package pipeline

import (
	"fmt"
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

func TestSplitPattern(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"FuzzX", []string{"FuzzX"}},
		{"FuzzX/9e16", []string{"FuzzX", "9e16"}},
		{"Fuzz[/]X/a", []string{"Fuzz[/]X", "a"}},
		{"(a/b)/c", []string{"(a/b)", "c"}},
		{`a\/b/c`, []string{`a\/b`, "c"}},
		{"/x", []string{"", "x"}},
	} {
		if got := splitPattern(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitPattern(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMatcher(t *testing.T) {
	m, err := NewMatcher("Parse/^9e")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		target, entry string
		want          bool
	}{
		{"FuzzParse", "9e16f0", true},
		{"FuzzParseJSON", "9e", true},
		{"FuzzParse", "a9e", false},
		{"FuzzLex", "9e16f0", false},
	} {
		if got := m.MatchTarget(tt.target) && m.matchEntry(tt.entry); got != tt.want {
			t.Errorf("match %s/%s = %v, want %v", tt.target, tt.entry, got, tt.want)
		}
	}
	for _, bad := range []string{"a/b/c", "(", "a/["} {
		if _, err := NewMatcher(bad); err == nil {
			t.Errorf("newMatcher(%q) succeeded, want an error", bad)
		}
	}
}

func TestFuzzTargets(t *testing.T) {
	src := `package p

import (
	"testing"
	tt "testing"
)

func FuzzA(f *testing.F)          {}
func FuzzB(f *tt.F)               {}
func Fuzz(f *testing.F)           {}
func Fuzzy(f *testing.F)          {} // lower case after Fuzz: not a target
func FuzzC(f testing.F)           {} // not a pointer
func FuzzD(f *testing.T)          {}
func FuzzE(f *testing.F) error    { return nil }
func FuzzF(f *testing.F, n int)   {}
func (x T) FuzzG(f *testing.F)    {}
func Fuzz_H(f *testing.F)         {}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p_test.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fn := range fuzzTargets(f) {
		got = append(got, fn.Name.Name)
	}
	if want := []string{"FuzzA", "FuzzB", "Fuzz", "Fuzz_H"}; !reflect.DeepEqual(got, want) {
		t.Errorf("fuzzTargets = %v, want %v", got, want)
	}
}

// TestShard checks that every entry of a corpus of 1,000 entries over 10
// targets lands in exactly one shard, for every number of shards from 1 to
// 7, and that shards are not badly unbalanced.
func TestShard(t *testing.T) {
	for n := 1; n <= 7; n++ {
		counts := make([]int, n)
		for target := range 10 {
			for entry := range 100 {
				in := 0
				for i := 1; i <= n; i++ {
					if (Shard{i, n}).Has("example.com/p", fmt.Sprintf("Fuzz%d", target), fmt.Sprintf("%016x", entry*7919)) {
						in++
						counts[i-1]++
					}
				}
				if in != 1 {
					t.Fatalf("n=%d: entry %d of target %d is in %d shards", n, entry, target, in)
				}
			}
		}
		for i, c := range counts {
			if c < 1000/n/2 {
				t.Errorf("n=%d: shard %d has %d of 1000 entries", n, i+1, c)
			}
		}
	}
	var s Shard
	for _, bad := range []string{"0/3", "4/3", "1/0", "a/b", "1/2/3", "1", " 1/2"} {
		if s.Set(bad) == nil {
			t.Errorf("-shard %s accepted", bad)
		}
	}
	if s.Set("2/3") != nil || s != (Shard{2, 3}) {
		t.Errorf("-shard 2/3: %v", s)
	}
}
