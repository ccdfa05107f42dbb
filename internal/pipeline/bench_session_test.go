package pipeline

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/structured"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// BenchmarkInProcess measures the in-process evaluation rate of a session
// on trivial targets wrapped by fuzzshrink: one taking a composite value and
// one a native []byte, whose entries have 4,000 elements of which any 2,000
// fail, so that most candidates are accepted; and one for which only the
// original (300 bytes) fails, so that every candidate passes.
func BenchmarkInProcess(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a test binary")
	}
	dir := testbintest.WrappedModule(b, "example.com/inproc", `package inproc

import (
	"hash/crc32"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

func FuzzSlice(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, xs []uint16) {
		if len(xs) >= 2000 {
			panic("long")
		}
	})
}

func FuzzBytes(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, b []byte) {
		if len(b) >= 2000 {
			panic("long")
		}
	})
}

// FuzzOnly fails on one input alone: every candidate passes, so the
// search runs a whole round of every pass once.
func FuzzOnly(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, b []byte) {
		if crc32.ChecksumIEEE(b) == 0x6880c0e0 {
			panic("the one")
		}
	})
}
`)
	bin := filepath.Join(dir, "inproc.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	slice := make([]uint16, 4000)
	blob := make([]byte, 4000)
	for i := range slice {
		slice[i] = uint16(i * 7919)
		blob[i] = byte(i*31 + 1)
	}
	enc, err := encodingOf(slice)
	if err != nil {
		b.Fatal(err)
	}
	for _, tt := range []struct {
		target string
		entry  []byte
	}{{"FuzzSlice", enc}, {"FuzzBytes", mustMarshal(b, blob)}, {"FuzzOnly", mustMarshal(b, blob[:300])}} {
		b.Run(tt.target, func(b *testing.B) {
			r := testbintest.Runner(b, bin, dir, tt.target, 10*time.Second)
			sdir := b.TempDir()
			runs, searching := 0, time.Duration(0)
			for b.Loop() {
				end, err := sessionDir(sdir).run(context.Background(), r, r.Limit(0), session.Config{Target: tt.target}, tt.entry, func(session.Event) {})
				res := end.res
				if err != nil || res == nil || res.Error != "" {
					b.Fatalf("session: %v, %v, %+v", err, end.crash, res)
				}
				searching += res.Elapsed
				runs += res.Runs
			}
			// The rate of the search itself, without starting the process.
			b.ReportMetric(float64(runs)/searching.Seconds(), "candidates/s")
			b.ReportMetric(float64(runs)/float64(b.N), "runs/op")
		})
	}
}

func mustMarshal(tb testing.TB, vals ...any) []byte {
	b, err := encoding.Marshal(vals...)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// encodingOf is the corpus file that carries v for a wrapped target.
func encodingOf(v any) ([]byte, error) {
	b, err := structured.Encode(reflect.ValueOf(v))
	if err != nil {
		return nil, err
	}
	return encoding.Marshal(b)
}
