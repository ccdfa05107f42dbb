package shrink_test

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/shapes"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The benchmarks report runs/op, the number of candidates the oracle ran:
// the cost that matters when every run is a real test execution.

func BenchmarkQuality(b *testing.B) {
	for _, tc := range qualityCases() {
		// Of the rows generated for every integer width, int64's are enough.
		switch name, _, _ := strings.Cut(tc.name, "/"); name {
		case "int", "int8", "int16", "int32", "uint", "uint8", "uint16", "uint32", "uint64":
			continue
		}
		b.Run(tc.name, func(b *testing.B) {
			var runs int
			for b.Loop() {
				r, _ := shrink.Shrink(context.Background(), tc.args, shrink.Predicate(tc.fails))
				runs = r.Stats.Runs
			}
			b.ReportMetric(float64(runs), "runs/op")
		})
	}
}

// BenchmarkNeedle64K isolates a 4-byte cause in 64 KiB of random bytes.
func BenchmarkNeedle64K(b *testing.B) {
	in := needleInput(3, 64<<10)
	fails := func(a []any) bool { return bytes.Contains(a[0].([]byte), needle) }
	var runs int
	for b.Loop() {
		r, _ := shrink.Shrink(context.Background(), []any{in}, shrink.Predicate(fails))
		if !bytes.Equal(r.Args[0].([]byte), needle) {
			b.Fatalf("result %q", r.Args[0])
		}
		runs = r.Stats.Runs
	}
	b.ReportMetric(float64(runs), "runs/op")
	if runs > 1000 {
		b.Errorf("%d runs, want at most 1000", runs)
	}
}

// BenchmarkOverhead measures the engine's cost per candidate with a
// predicate that does nothing: a tuple of every kind of argument, and a
// predicate that fails for none of the candidates (every pass runs to its
// end), or for all (every candidate is accepted).
func BenchmarkOverhead(b *testing.B) {
	args := []any{strings.Repeat("héllo ", 10), bytes.Repeat([]byte{0xAB}, 64), -123456789, 3.25, true, uint16(999)}
	for _, bc := range []struct {
		name  string
		fails bool
	}{{"pass", false}, {"fail", true}} {
		b.Run(bc.name, func(b *testing.B) {
			p := shrink.Predicate(func([]any) bool { return bc.fails })
			runs := 0
			b.ReportAllocs()
			for b.Loop() {
				r, _ := shrink.Shrink(context.Background(), args, p)
				runs += r.Stats.Runs
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(runs), "ns/candidate")
			b.ReportMetric(float64(runs)/float64(b.N), "runs/op")
		})
	}
}

// BenchmarkShrink1MiB isolates a needle in 1 MiB (and, to show how memory
// scales, in 256 KiB). Each candidate is a fresh copy, so allocation is at
// most runs·n bytes (B/(run·n) ≤ 1), and the text passes find the structure
// of the input (spans, lines, lists: tens of bytes per bracket or line of
// random bytes) again after each accepted candidate; as candidates shrink by
// halves, that is about 15–20·n in all (alloc-B/n, about the same at both
// sizes: linear, not quadratic). The cache holds hashes, not candidates, so
// the peak live heap is a few times n.
func BenchmarkShrink1MiB(b *testing.B) {
	for _, n := range []int{256 << 10, 1 << 20} {
		b.Run(sizeName(n), func(b *testing.B) {
			in := needleInput(5, n)
			sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
			var peak uint64
			fails := func(a []any) bool {
				metrics.Read(sample)
				peak = max(peak, sample[0].Value.Uint64())
				return bytes.Contains(a[0].([]byte), needle)
			}
			var runs int
			var before, after runtime.MemStats
			b.ReportAllocs()
			runtime.ReadMemStats(&before)
			for b.Loop() {
				r, _ := shrink.Shrink(context.Background(), []any{in}, shrink.Predicate(fails))
				runs = r.Stats.Runs
			}
			runtime.ReadMemStats(&after)
			perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
			b.ReportMetric(float64(runs), "runs/op")
			b.ReportMetric(perOp/float64(runs)/float64(n), "B/(run·n)")
			b.ReportMetric(perOp/float64(n), "alloc-B/n")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return fmt.Sprintf("%dKiB", n>>10)
}

// BenchmarkShapes shrinks the inputs shaped like real ones (see
// TestShrink_Shapes) and reports the runs and the size of the result. The
// JSON document must end at most 30 bytes long in at most 2,000 runs.
func BenchmarkShapes(b *testing.B) {
	for _, s := range shapes.All() {
		b.Run(s.Name, func(b *testing.B) {
			var r shrink.Result
			for b.Loop() {
				r, _ = shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s})
			}
			runs, n := r.Stats.Runs, size(r.Args[0])
			b.ReportMetric(float64(runs), "runs/op")
			b.ReportMetric(float64(n), "result-B")
			if s.Name == "json" && (n > 30 || runs > 2000) {
				b.Errorf("%d bytes in %d runs, want at most 30 in at most 2000", n, runs)
			}
		})
	}
}
