package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

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
			dir := testbintest.WrappedModule(b, "example.com/wr", structSrc)
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
			dir := testbintest.WrappedModule(b, modPath, structSrc)
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
