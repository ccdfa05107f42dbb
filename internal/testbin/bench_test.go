package testbin_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// BenchmarkOutOfProcess measures the out-of-process evaluation rate on a
// target that passes everything: candidates run in a fuzz worker, as seed
// entries many per process, and one process per candidate; and the rate of
// calls to a worker that run nothing, the floor of the first.
func BenchmarkOutOfProcess(b *testing.B) {
	dir, bin := buildProbe(b)
	for _, perProcess := range []int{0, 64, 1} {
		name := fmt.Sprintf("per-process=%d", perProcess)
		if perProcess == 0 {
			name, perProcess = "worker", 64
		}
		b.Run(name, func(b *testing.B) {
			r := testbintest.Runner(b, bin, dir, "FuzzTrivial", 10*time.Second)
			inputs := make([][]byte, perProcess)
			for i := range inputs {
				inputs[i], _ = encoding.Marshal([]byte(fmt.Sprintf("candidate %d", i)))
			}
			shape := func(_ int, _ failure.Signature, msg string) string { return msg }
			b.ResetTimer()
			start := time.Now()
			n := 0
			run := r.Run
			if name == "worker" {
				run = r.RunInWorker
			}
			for b.Loop() {
				res, err := run(context.Background(), inputs, testbin.Judge{Shape: shape})
				if err != nil || len(res.Outcomes) != len(inputs) {
					b.Fatalf("ran %d of %d: %v", len(res.Outcomes), len(inputs), err)
				}
				n += len(inputs)
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "candidates/s")
		})
	}
	// The floor of a call to a worker: one that runs nothing.
	b.Run("worker-ping", func(b *testing.B) {
		r := testbintest.Runner(b, bin, dir, "FuzzTrivial", 10*time.Second)
		in, _ := encoding.Marshal([]byte("x"))
		if _, _, err := testbin.JudgeInWorker(r, context.Background(), in, time.Second); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for b.Loop() {
			if err := testbin.PingWorker(r); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "calls/s")
	})
}
