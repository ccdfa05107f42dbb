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
// target that passes everything: candidates run in a fuzz worker (the
// hook's batch worker, or the toolchain's, one per call), as seed entries
// many per process, and one process per candidate; and the rate of calls
// to each worker that run nothing, the floor of a call.
func BenchmarkOutOfProcess(b *testing.B) {
	dir, bin := buildProbe(b)
	for _, how := range []string{"worker", "worker-toolchain", "per-process=64", "per-process=1"} {
		b.Run(how, func(b *testing.B) {
			r := testbintest.Runner(b, bin, dir, "FuzzTrivial", 10*time.Second)
			run, n := r.RunInWorker, 64
			switch how {
			case "worker-toolchain":
				testbin.NoHook(r)
			case "per-process=64":
				run = r.Run
			case "per-process=1":
				run, n = r.Run, 1
			}
			inputs := make([][]byte, n)
			for i := range inputs {
				inputs[i], _ = encoding.Marshal([]byte(fmt.Sprintf("candidate %d", i)))
			}
			shape := func(_ int, _ failure.Signature, msg string) string { return msg }
			b.ResetTimer()
			start := time.Now()
			n = 0
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
	for _, how := range []string{"worker-ping", "worker-toolchain-ping"} {
		b.Run(how, func(b *testing.B) {
			r := testbintest.Runner(b, bin, dir, "FuzzTrivial", 10*time.Second)
			if how == "worker-toolchain-ping" {
				testbin.NoHook(r)
			}
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
}
