package shrink

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/shapes"
)

// planted fails when its string is a letter, '=', a digit and '(', whatever
// its eleven other arguments.
var plantedRE = regexp.MustCompile(`^[A-Za-z]=[0-9]\($`)

func planted(args []any) bool { return plantedRE.MatchString(args[0].(string)) }

func plantedArgs() []any {
	return []any{"a=0(", byte(0), false, 0, int8(0), uint16(0), 0.0, "", []byte(nil), int64(0), rune(0), uint(0)}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	args := plantedArgs()
	ex, err := Explain(context.Background(), args, Predicate(planted), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Args[0].Free {
		t.Fatalf("the string is free: %+v", ex.Args[0])
	}
	for i := 1; i < len(args); i++ {
		if !ex.Args[i].Free || ex.Args[i].Tried == 0 {
			t.Errorf("argument %d: %+v, want free", i, ex.Args[i])
		}
	}
	if got, want := ex.Args[0].Legend(), "[letter]=[digit]("; got != want {
		t.Errorf("legend = %q, want %q", got, want)
	}
	if ex.Smaller != nil {
		t.Errorf("Smaller = %v, want nil: the result is minimal", ex.Smaller)
	}
	t.Logf("%d runs", ex.Runs)

	// Check the explanation: inputs consistent with it, each position
	// another character of its class and the free arguments other values,
	// fail; each fixed position has an alternative that passes.
	rng := rand.New(rand.NewPCG(3, 4))
	orig := args[0].(string)
	for range 50 {
		b := []byte(orig)
		for _, p := range ex.Args[0].Positions {
			if chars := classChars(rune(orig[p.At]), p.Class); chars != "" {
				b[p.At] = chars[rng.IntN(len(chars))]
			}
		}
		c := []any{string(b)}
		for i := 1; i < len(args); i++ {
			alts := alternatives(args[i], rng)
			c = append(c, alts[rng.IntN(len(alts))])
		}
		if !planted(c) {
			t.Errorf("%v is consistent with the explanation and passes", c)
		}
	}
	for _, p := range ex.Args[0].Positions {
		if p.Class != Fixed {
			continue
		}
		s := args[0].(string)
		if planted(with(args, 0, s[:p.At]+"#"+s[p.At+1:])) {
			t.Errorf("position %d is fixed, but # there fails too", p.At)
		}
	}
}

// classChars returns the characters of class cl around c (see chain):
// none for Fixed.
func classChars(c rune, cl Class) string {
	classes, adds := chain(c)
	chars := ""
	for k, x := range classes {
		chars += adds[k]
		if x == cl {
			return chars
		}
	}
	return ""
}

// TestExplain_Budget: the explanation runs no more candidates than its
// budget, and says which positions it did not reach.
func TestExplain_Budget(t *testing.T) {
	t.Parallel()
	runs := 0
	o := Predicate(func(args []any) bool { runs++; return planted(args) })
	ex, err := Explain(context.Background(), plantedArgs(), o, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Runs > 20 || runs > 20 {
		t.Errorf("%d runs (%d counted), budget 20", runs, ex.Runs)
	}
	// Every claim made is right: the string matters, the others do not;
	// what the budget did not reach is said to be unexplained, not to
	// matter.
	unexplained := 0
	for i, a := range ex.Args {
		switch {
		case a.Unexplained:
			unexplained++
		case a.Free != (i > 0):
			t.Errorf("argument %d: free = %v after %d alternatives", i+1, a.Free, a.Tried)
		}
	}
	if unexplained == 0 {
		t.Errorf("every argument explained in %d runs: the budget did not bind", ex.Runs)
	}
	for _, p := range ex.Args[0].Positions {
		if p.Class != Unexplained {
			t.Errorf("position %d is %v, but the budget ran out before the positions", p.At, p.Class)
		}
	}
	if s := ex.Summary(); !strings.Contains(s, "not explained: the budget ran out") || strings.Count(s, "matters") > 1 {
		t.Errorf("Summary = %q", s)
	}
}

// TestExplain_Smaller: an alternative smaller than the result that fails
// the same way is reported.
func TestExplain_Smaller(t *testing.T) {
	t.Parallel()
	ex, err := Explain(context.Background(), []any{"Q=0("}, Predicate(planted), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Smaller == nil {
		t.Fatalf("no smaller tuple reported for Q=0(, where a=0( fails too")
	}
	if compareArgs(ex.Smaller, []any{"Q=0("}) >= 0 || !planted(ex.Smaller) {
		t.Errorf("Smaller = %q", ex.Smaller)
	}
}

// BenchmarkExplain reports the runs and the time of the explanation of
// each shape's result against its search's, with the default budget (the
// search's runs), and the planted 12-argument target's.
//
//	go test -run '^$' -bench Explain -benchtime 1x ./internal/shrink
func BenchmarkExplain(b *testing.B) {
	type tc struct {
		name  string
		args  []any
		fails func([]any) bool
	}
	cases := []tc{{"planted-12-args", []any{"the settings: mode=fast; key Q=7(x), size=12", byte('z'), true, -4312, int8(17), uint16(999), 2.5, "other", []byte{1, 2}, int64(7), 'é', uint(3)},
		func(args []any) bool { return regexp.MustCompile(`[A-Za-z]=[0-9]\(`).MatchString(args[0].(string)) }}}
	for _, s := range shapes.All() {
		cases = append(cases, tc{s.Name, []any{s.Input}, func(args []any) bool { return s.Check(args[0]) == s.Sig }})
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var search, explain time.Duration
			var sruns, eruns, free, positions int
			for b.Loop() {
				start := time.Now()
				r, err := Shrink(context.Background(), c.args, Predicate(c.fails))
				if err != nil {
					b.Fatal(err)
				}
				search += time.Since(start)
				start = time.Now()
				ex, err := Explain(context.Background(), r.Args, Predicate(c.fails), r.Stats.Runs, 1)
				if err != nil {
					b.Fatal(err)
				}
				explain += time.Since(start)
				sruns, eruns, free, positions = r.Stats.Runs, ex.Runs, 0, 0
				for _, a := range ex.Args {
					if a.Free {
						free++
					}
					for _, p := range a.Positions {
						if p.Class != Unexplained {
							positions++
						}
					}
				}
			}
			b.ReportMetric(float64(sruns), "search-runs")
			b.ReportMetric(float64(eruns), "explain-runs")
			b.ReportMetric(search.Seconds()/float64(b.N), "search-s")
			b.ReportMetric(explain.Seconds()/float64(b.N), "explain-s")
			b.ReportMetric(float64(free), "free-args")
			b.ReportMetric(float64(positions), "positions-explained")
		})
	}
}

// TestExplain_Fields: a struct argument is explained field by field, its
// unexported fields left out.
func TestExplain_Fields(t *testing.T) {
	t.Parallel()
	type server struct {
		Name  string
		Port  int
		Debug bool
		id    int
	}
	fails := func(args []any) bool { return args[0].(server).Port > 1000 }
	ex, err := Explain(context.Background(), []any{server{Port: 1001}}, Predicate(fails), 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range ex.Args[0].Fields {
		got = append(got, fmt.Sprintf("%s free=%v", f.Name, f.Free))
		if f.Tried == 0 {
			t.Errorf("field %s: nothing tried", f.Name)
		}
	}
	if g, want := strings.Join(got, "; "), "Name free=true; Port free=false; Debug free=true"; g != want {
		t.Errorf("fields = %s, want %s", g, want)
	}
	if s, want := ex.Summary(), fmt.Sprintf("explained in %d runs: the value: Port matters, Name, Debug do not", ex.Runs); s != want {
		t.Errorf("Summary = %q, want %q", s, want)
	}
}

// TestLegend: fixed characters are shown as Go would quote them inside a
// string, quotes and backslashes too.
func TestLegend(t *testing.T) {
	a := Arg{Positions: []Position{{Text: "=", Class: Fixed}, {Text: `"`, Class: Fixed}, {Text: `\`, Class: Fixed}, {Text: "x", Class: Letter}, {Text: "\x00", Class: Free}, {Text: "?", Class: Unexplained}}}
	if got, want := a.Legend(), `=\"\\[letter]_?`; got != want {
		t.Errorf("Legend = %s, want %s", got, want)
	}
}

// TestExplain_Sealed: in the arc shape's minimum, an archive entry whose
// data a CRC-32 guards, the sum's bytes are sealed, not tried, and every
// alternative of the data's bytes is tried with the sum computed again.
func TestExplain_Sealed(t *testing.T) {
	var s *shapes.Shape
	for _, sh := range shapes.All() {
		if sh.Name == "arc" {
			s = sh
		}
	}
	min := []byte("AR\x08\x00\x00\x00\x09\x00" + "\x08\x1dS\x06\x00\x00$\x00$" + "\x96\x88L}")
	if s.Check(min) != s.Sig {
		t.Fatalf("%q does not fail as the arc shape does", min)
	}
	fails := Predicate(func(args []any) bool {
		c := args[0].([]byte)
		if len(c) == len(min) && crc32.ChecksumIEEE(c[8:17]) != binary.LittleEndian.Uint32(c[17:]) {
			t.Errorf("alternative %q: its CRC-32 was not computed again", c)
		}
		return s.Check(c) == s.Sig
	})
	ex, err := Explain(context.Background(), []any{min}, fails, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	ps := ex.Args[0].Positions
	if len(ps) != len(min) {
		t.Fatalf("%d positions for %d bytes", len(ps), len(min))
	}
	for _, p := range ps[len(min)-4:] {
		if p.Class != Sealed {
			t.Errorf("the CRC-32's byte at %d is %v, want sealed", p.At, p.Class)
		}
	}
	for _, p := range ps[:len(min)-4] {
		if p.Class == Sealed {
			t.Errorf("byte %d, of the entry, is sealed", p.At)
		}
	}
	if l := ex.Args[0].Legend(); !strings.HasSuffix(l, "$[sealed][sealed][sealed][sealed]") {
		t.Errorf("Legend = %q, want the sum's bytes as [sealed]", l)
	}
	t.Logf("%s", ex.Summary())
}
