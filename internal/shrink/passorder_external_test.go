package shrink_test

import (
	"context"
	"flag"
	"fmt"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/shapes"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

var passOrder = flag.Bool("passorder", false, "measure the order of the passes on the binary shapes (slow)")

// bigAlloc is what a candidate of a shape of a few kilobytes allocates only
// when its decoder believed a size the input does not hold: under a memory
// limit, such candidates are the ones that run out of memory.
const bigAlloc = 1 << 20

// TestPassOrder_SizeConsistent measures what the order of the passes does
// on the binary shapes, and on three starts of the capture grown from its
// minimum (whose reader allocates a record's length before it reads it):
// the passes that keep sizes consistent (fields, lengths, inflate) first,
// as they run, or after the removals that break them. The first must never
// end larger, nor take more runs on a shape's own input. (On the grown
// captures it takes more: the fields pass reads a byte of their mangled
// file header as a count, and its candidates remove a block with it that
// holds a record's length.) It logs, for each, the runs, the result, the
// candidates that made the decoder allocate more than bigAlloc (and the
// passes they came from), all that the candidates allocated, and the time
// of the search. It changes the order of the passes, so it runs alone
// (the parallel tests wait for it), when asked:
//
//	go test ./internal/shrink -run PassOrder -passorder -v
func TestPassOrder_SizeConsistent(t *testing.T) {
	if !*passOrder {
		t.Skip("a measurement: run with -passorder")
	}
	type start struct {
		name  string
		s     *shapes.Shape
		input []byte // a grown start; nil for the shape's input
	}
	var starts []start
	for _, s := range shapes.All() {
		if _, ok := s.Input.([]byte); ok {
			starts = append(starts, start{s.Name, s, nil})
		}
		if s.Name == "pcap" {
			for seed := uint64(1); seed <= 3; seed++ {
				starts = append(starts, start{fmt.Sprintf("pcap grown %d", seed), s, grown(s, shapeMinima[s.Name], seed).([]byte)})
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s | %-16s | %6s | %6s | %9s | %9s | %6s | %s\n", "start", "order", "runs", "result", "big alloc", "allocated", "time", "big alloc by pass")
	for _, st := range starts {
		var runs, result [2]int
		for k, order := range []string{"consistent first", "after remove"} {
			restore := func() {}
			if k == 1 {
				restore = shrink.SizePassesAfterRemove()
			}
			o := &allocOracle{s: st.s, byPass: map[string]int{}}
			begin := time.Now()
			in := st.input
			if in == nil {
				in = st.s.Input.([]byte)
			}
			r, err := shrink.Shrink(context.Background(), []any{in}, o, shrink.Observe(func(e shrink.Event) {
				if e.Kind == shrink.PassStart {
					o.pass = e.Pass
				}
			}))
			restore()
			if err != nil {
				t.Fatal(err)
			}
			runs[k], result[k] = r.Stats.Runs, size(r.Args[0])
			fmt.Fprintf(&b, "%-12s | %-16s | %6d | %6d | %9d | %8.1fM | %5.2fs | %v\n", st.name, order, runs[k], result[k],
				o.big, float64(o.total)/(1<<20), time.Since(begin).Seconds(), o.byPass)
		}
		if result[0] > result[1] || st.input == nil && runs[0] > runs[1] {
			t.Errorf("%s: %d runs to %d bytes with the consistent passes first, %d runs to %d bytes after remove",
				st.name, runs[0], result[0], runs[1], result[1])
		}
	}
	t.Log(b.String())
}

// allocOracle runs a shape's candidates and counts what they allocate.
type allocOracle struct {
	s      *shapes.Shape
	pass   string         // the pass whose candidates run
	big    int            // candidates that allocated more than bigAlloc
	byPass map[string]int // of those, by pass
	total  uint64         // bytes all allocated
}

func (o *allocOracle) Run(ctx context.Context, batch [][]any) ([]shrink.Verdict, error) {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	vs := make([]shrink.Verdict, 0, len(batch))
	for _, args := range batch {
		metrics.Read(sample)
		before := sample[0].Value.Uint64()
		v := shrink.Classify(o.s.Check(args[0]), o.s.Sig)
		metrics.Read(sample)
		n := sample[0].Value.Uint64() - before
		o.total += n
		if n > bigAlloc {
			o.big++
			o.byPass[o.pass]++
		}
		vs = append(vs, v)
		if v == shrink.Fail {
			break
		}
	}
	return vs, nil
}
