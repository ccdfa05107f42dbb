package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
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
	dir := wrappedModule(b, "example.com/inproc", `package inproc

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

// wrappedModule writes a module that uses this repository's fuzzshrink,
// with one test file, and returns its directory.
func wrappedModule(tb testing.TB, modPath, testSrc string) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	files := map[string]string{
		"go.mod":    "module " + modPath + "\n\ngo 1.26\n\nrequire github.com/fuzzmin/fuzzmin v0.0.0\n\nreplace github.com/fuzzmin/fuzzmin => " + root + "\n",
		"x_test.go": testSrc,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
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

// structSrc is a fuzz target of a structured value with a bug in one
// item's field, and structCrasher the failing entry go test -fuzz found
// for it (saved with -fuzzminimizetime=0).
const (
	structSrc = `package wr

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

type Item struct {
	Name  string
	Count int
}

type Config struct {
	Name    string
	Verbose bool
	Items   []Item
}

func check(cfg Config, n int) {
	for _, it := range cfg.Items {
		if it.Count > 50 && n > 3 {
			panic("count too large")
		}
	}
}

func FuzzConfig(f *testing.F) {
	fuzzshrink.Add(f, Config{Name: "x"}, 1)
	fuzzshrink.Fuzz(f, func(t *testing.T, cfg Config, n int) {
		check(cfg, n)
	})
}
`
	structCrasher = "go test fuzz v1\n[]byte(\"\\x01\\xfb\\xfb\\xfb\\x01\\xfb\\xfb\\xfb\\x05\\xfb\")\nint(32)\n"
)

// BenchmarkStructVersusToolchain minimizes a crasher of a structured target
// with fuzzmin (structurally, in process) and with the toolchain's
// minimizer (on bytes, from the fuzz cache), and logs both results.
func BenchmarkStructVersusToolchain(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	b.Setenv("GOFLAGS", "-mod=mod") // the module has no go.sum
	b.Run("fuzzmin", func(b *testing.B) {
		var got []byte
		var report string
		for b.Loop() {
			b.StopTimer()
			dir := wrappedModule(b, "example.com/wr", structSrc)
			if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, "FuzzConfig"), []byte(structCrasher)); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			var out bytes.Buffer
			if code := Main([]string{"-C", dir, "-json", "."}, &out, &out); code != 0 {
				b.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
			}
			b.StopTimer()
			got, report = onlyEntry(b, corpus.SeedCorpus(dir, "FuzzConfig")).Data, resultLine(out.String())
			b.StartTimer()
		}
		b.Logf("result %q\n%s", got, report)
		b.ReportMetric(float64(len(got)), "result-file-bytes")
	})
	b.Run("go-test-fuzz", func(b *testing.B) {
		gocache, err := corpus.GoCache(".")
		if err != nil {
			b.Skip(err)
		}
		var got []byte
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			modPath := fmt.Sprintf("example.com/wr%d-%d", time.Now().UnixNano(), i)
			dir := wrappedModule(b, modPath, structSrc)
			cacheDir := corpus.CacheCorpus(gocache, modPath, "FuzzConfig")
			if _, err := corpus.WriteFile(cacheDir, []byte(structCrasher)); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			cmd := exec.Command("go", "test", "-run=^$", "-fuzz=FuzzConfig", "-fuzztime=5m", ".")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
			out, err := cmd.CombinedOutput()
			b.StopTimer()
			os.RemoveAll(filepath.Join(gocache, "fuzz", modPath))
			if err == nil || !strings.Contains(string(out), "Failing input written") {
				b.Fatalf("go test -fuzz did not report the failure: %v\n%s", err, out)
			}
			got = onlyEntry(b, corpus.SeedCorpus(dir, "FuzzConfig")).Data
			b.StartTimer()
		}
		b.Logf("result %q", got)
		b.ReportMetric(float64(len(got)), "result-file-bytes")
	})
}

// onlyEntry returns the one entry in dir, which must be valid.
func onlyEntry(b *testing.B, dir string) corpus.Entry {
	entries, err := corpus.Read(dir)
	if err != nil || len(entries) != 1 || entries[0].Err != nil {
		b.Fatalf("want one valid entry in %s, have %v (%v)", dir, entries, err)
	}
	return entries[0]
}

// resultLine returns the "result" event of fuzzmin -json output.
func resultLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, `"action":"result"`) {
			return l
		}
	}
	return out
}
