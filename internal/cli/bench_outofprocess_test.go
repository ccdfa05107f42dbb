package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// BenchmarkProcs measures what -p and -worker do to the search of entries
// with many passing candidates: the markup and JSON shapes, whose parsers
// reject most candidates, the JSON shape with a target that spends a
// millisecond on each input, and 64 KiB of letters of which a panic needs
// the 4 bytes "FUZZ" (build and verification excluded).
func BenchmarkProcs(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	modules := map[string]func(i int) (dir, target string, entry []byte){
		"needle": func(i int) (string, string, []byte) {
			dir, entry := needleModule(b, fmt.Sprintf("example.com/procs%d", i), 64<<10)
			return dir, "FuzzNeedle", entry
		},
	}
	for _, name := range []string{"markup", "json", "json-1ms"} {
		modules[name] = func(i int) (string, string, []byte) {
			m := shapeModule(b, strings.TrimSuffix(name, "-1ms"))
			if name == "json-1ms" {
				// A target that spends a millisecond on each input.
				m.files["json_test.go"] = strings.Replace(m.files["json_test.go"], "f.Fuzz(func(t *testing.T, data []byte) {",
					"f.Fuzz(func(t *testing.T, data []byte) {\n\t\tfor start := time.Now(); time.Since(start) < time.Millisecond; {\n\t\t}", 1)
				m.files["json_test.go"] = strings.Replace(m.files["json_test.go"], "\"testing\"", "\"testing\"\n\t\"time\"", 1)
			}
			dir := b.TempDir()
			testbintest.WriteModule(b, dir, fmt.Sprintf("example.com/procs%s%d", strings.ReplaceAll(name, "-", ""), i), m.files)
			return dir, m.target, m.entry
		}
	}
	for _, name := range []string{"markup", "json", "json-1ms", "needle"} {
		for _, worker := range []bool{true, false} {
			for _, procs := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/worker=%v/p=%d", name, worker, procs), func(b *testing.B) {
					var searching time.Duration
					var runs int
					for i := 0; b.Loop(); i++ {
						b.StopTimer()
						dir, target, entry := modules[name](i)
						if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, target), entry); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						var out bytes.Buffer
						args := []string{"-C", dir, "-json", fmt.Sprintf("-p=%d", procs), fmt.Sprintf("-worker=%v", worker), "."}
						if code := Main(args, &out, &out); code != 0 {
							b.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
						}
						res := jsonResult(b, out.String())
						searching += time.Duration(res.Elapsed * float64(time.Second))
						runs = res.Runs
					}
					b.ReportMetric(searching.Seconds()/float64(b.N), "search-s/op")
					b.ReportMetric(float64(runs), "runs")
				})
			}
		}
	}
}

// jsonResult returns the last result event of fuzzmin's -json output.
func jsonResult(b *testing.B, out string) (res struct {
	Runs    int
	Elapsed float64
}) {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `"Action":"result"`) {
			if err := json.Unmarshal([]byte(line), &res); err != nil {
				b.Fatal(err)
			}
		}
	}
	return res
}

// needleModule writes a module whose fuzz target panics when a []byte
// argument contains "FUZZ", with one failing 4 KiB entry that has the
// needle in its middle, and returns the module directory and the entry.
func needleModule(tb testing.TB, modPath string, size int) (dir string, entry []byte) {
	dir = tb.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	data := make([]byte, size)
	for i := range data {
		data[i] = byte('a' + rng.IntN(26)) // lower case: no accidental needle
	}
	copy(data[size/2:], "FUZZ")
	entry, _ = encoding.Marshal(data)
	files := map[string]string{
		"go.mod": "module " + modPath + "\n\ngo 1.26\n",
		"needle_test.go": `package needle

import (
	"bytes"
	"testing"
)

func FuzzNeedle(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.Contains(b, []byte("FUZZ")) {
			panic("found the needle")
		}
	})
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	return dir, entry
}

// BenchmarkVersusToolchain minimizes a []byte of 4 KiB and of 64 KiB whose
// failure needs 4 bytes of it, once with fuzzmin (build and verification
// included) and once with go test -fuzz, which minimizes an input that fails
// from the fuzz cache. Each reports its wall time and the size of its result.
func BenchmarkVersusToolchain(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	for _, size := range []int{4 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) { versusToolchain(b, size) })
	}
}

func versusToolchain(b *testing.B, size int) {
	versusGoTestFuzz(b, "FuzzNeedle", func(tb testing.TB, modPath string) (string, []byte) {
		return needleModule(tb, modPath, size)
	}, "")
}

// versusGoTestFuzz runs the two halves of a benchmark that minimizes the
// entry of a module that mod writes, whose target takes a []byte: the
// whole fuzzmin command (build and go test's check included), whose output
// must hold want, and go test -fuzz minimizing the entry from the fuzz
// cache. Each reports the size of its result.
func versusGoTestFuzz(b *testing.B, target string, mod func(tb testing.TB, modPath string) (dir string, entry []byte), want string) {
	b.Run("fuzzmin", func(b *testing.B) {
		var got int
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			dir, entry := mod(b, fmt.Sprintf("example.com/versus%d", i))
			if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, target), entry); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			var out bytes.Buffer
			if code := Main([]string{"-C", dir, "."}, &out, &out); code != 0 {
				b.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
			}
			b.StopTimer()
			if want != "" && !strings.Contains(out.String(), want) {
				b.Fatalf("fuzzmin's output does not hold %q:\n%s", want, out.String())
			}
			got = len(onlyEntry(b, corpus.SeedCorpus(dir, target)).Values[0].([]byte))
			b.StartTimer()
		}
		b.ReportMetric(float64(got), "result-bytes")
	})
	b.Run("go-test-fuzz", func(b *testing.B) {
		gocache, err := corpus.GoCache(".")
		if err != nil {
			b.Skip(err)
		}
		var got int
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			modPath := fmt.Sprintf("example.com/versus%d-%d", time.Now().UnixNano(), i)
			dir, entry := mod(b, modPath)
			got = len(goTestFuzz(b, gocache, dir, modPath, target, "5m", entry).Values[0].([]byte))
			b.StartTimer()
		}
		b.ReportMetric(float64(got), "result-bytes")
	})
}

// goTestFuzz has go test -fuzz, with -fuzztime fuzztime, minimize entry,
// put in the fuzz cache of target of the module at dir (whose path is
// modPath), with the benchmark's timer running, and returns the entry it
// wrote. It leaves no cache behind.
func goTestFuzz(b *testing.B, gocache, dir, modPath, target, fuzztime string, entry []byte) corpus.Entry {
	if _, err := corpus.WriteFile(corpus.CacheCorpus(gocache, modPath, target), entry); err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(filepath.Join(gocache, "fuzz", modPath))
	cmd := goTestFuzzCmd(dir, target, fuzztime)
	b.StartTimer()
	out, err := cmd.CombinedOutput()
	b.StopTimer()
	if err == nil || !strings.Contains(string(out), "Failing input written") {
		b.Fatalf("go test -fuzz did not report the failure: %v\n%s", err, out)
	}
	return onlyEntry(b, corpus.SeedCorpus(dir, target))
}

// BenchmarkHang minimizes an entry of 4 KiB of words that hangs the target
// (it holds "{{" and, later, "}}": a template that never ends), whose
// passing inputs take microseconds: the whole command, build and go test's
// check included, once with fuzzmin and once with go test -fuzz, which
// gives a hanging input back after 10 s, unminimized. Each reports its
// wall time and the size of its result.
func BenchmarkHang(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	versusGoTestFuzz(b, "FuzzHang", func(tb testing.TB, modPath string) (string, []byte) {
		return hangModule(tb, modPath, 4<<10)
	}, ": timeout\n")
}

// goTestFuzzCmd returns the command go test -fuzz of target, one worker,
// with -fuzztime fuzztime and the flags more, in the package at dir.
func goTestFuzzCmd(dir, target, fuzztime string, more ...string) *exec.Cmd {
	args := append([]string{"test", "-run=^$", "-fuzz=^" + target + "$", "-fuzztime=" + fuzztime, "-parallel=1"}, more...)
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	return cmd
}

// hangModule writes a module whose FuzzHang hangs on an input that holds
// "{{" and, after it, "}}", and returns it with an entry of about size
// bytes of words that does.
func hangModule(tb testing.TB, modPath string, size int) (dir string, entry []byte) {
	dir = tb.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("the quick brown fox jumps over a lazy dog and then some more text here")
	var data []byte
	for len(data) < size {
		data = append(append(data, words[rng.IntN(len(words))]...), ' ')
	}
	data = append(data[:size/2], append([]byte("{{ name "), data[size/2:]...)...)
	data = append(data[:3*size/4], append([]byte(" }} "), data[3*size/4:]...)...)
	entry, _ = encoding.Marshal(data)
	files := map[string]string{
		"go.mod": "module " + modPath + "\n\ngo 1.26\n",
		"hang_test.go": `package hang

import (
	"bytes"
	"testing"
	"time"
)

func FuzzHang(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if i := bytes.Index(b, []byte("{{")); i >= 0 && bytes.Contains(b[i:], []byte("}}")) {
			for {
				time.Sleep(time.Millisecond) // a template that never ends
			}
		}
	})
}
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	return dir, entry
}
