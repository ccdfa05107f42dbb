package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"golang.org/x/tools/txtar"
)

// BenchmarkVersusStateMachine compares fuzzmin with the toolchain's
// minimizer on failing entries of fuzz targets that run state machines
// (fuzzshrink.Repeat), from testdata/versus_statemachine.txtar: FuzzLedger's
// entry as go test -fuzz found it, one of 31 steps, and one of FuzzKV of
// 200 steps. The toolchain minimizes the []byte of the choice sequence as
// bytes, blind to the steps; fuzzmin shrinks the steps. Each side reports
// the steps of its result (result-steps), its size in bytes, and its time;
// fuzzmin its runs. Run it with
//
//	go test -run '^$' -bench VersusStateMachine -benchtime 1x ./internal/cli
func BenchmarkVersusStateMachine(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	ar, err := txtar.ParseFile(filepath.Join("testdata", "versus_statemachine.txtar"))
	if err != nil {
		b.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	for _, bc := range []struct{ entry, target string }{
		{"ledger-raw", "FuzzLedger"},
		{"ledger-31", "FuzzLedger"},
		{"kv-200", "FuzzKV"},
	} {
		b.Run(bc.entry, func(b *testing.B) { versusSM(b, files["x_test.go"], bc.target, files[bc.entry]) })
	}
}

// versusSM runs fuzzmin and go test -fuzz on a failing entry of target, a
// fuzz target of the test file src, each in a module of its own made
// afresh for every run that uses this repository through a go.work.
func versusSM(b *testing.B, src []byte, target string, entry []byte) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	write := func(b *testing.B, modPath string) string {
		dir := b.TempDir()
		for name, content := range map[string]string{
			"go.mod":    "module " + modPath + "\n\ngo 1.26\n",
			"go.work":   "go 1.26.0\n\nuse (\n\t.\n\t" + root + "\n)\n",
			"x_test.go": string(src),
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
				b.Fatal(err)
			}
		}
		b.Setenv("GOWORK", filepath.Join(dir, "go.work"))
		b.Setenv("GOFLAGS", "")
		cmd := exec.Command("go", "test", "-count=1", "-run=^$", ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go test: %v\n%s", err, out)
		}
		return dir
	}
	b.Run("fuzzmin", func(b *testing.B) {
		var size, runs, steps int
		var searching time.Duration
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			dir := write(b, fmt.Sprintf("example.com/versussm%d", i))
			if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, target), entry); err != nil {
				b.Fatal(err)
			}
			var out bytes.Buffer
			b.StartTimer()
			if code := Main([]string{"-C", dir, "-json", "."}, &out, &out); code != 0 {
				b.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
			}
			b.StopTimer()
			e := onlyEntry(b, corpus.SeedCorpus(dir, target))
			size = valueSize(b, e)
			steps = failingStep(b, dir, target, e.Name)
			var res struct {
				Runs    int
				Elapsed float64
			}
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.Contains(line, `"Action":"result"`) {
					json.Unmarshal([]byte(line), &res)
				}
			}
			runs = res.Runs
			searching += time.Duration(res.Elapsed * float64(time.Second))
			b.StartTimer()
		}
		b.ReportMetric(float64(steps), "result-steps")
		b.ReportMetric(float64(size), "result-bytes")
		b.ReportMetric(float64(runs), "runs")
		b.ReportMetric(searching.Seconds()/float64(b.N), "search-s/op")
	})
	b.Run("go-test-fuzz", func(b *testing.B) {
		gocache, err := corpus.GoCache(".")
		if err != nil {
			b.Skip(err)
		}
		var size, steps int
		var minimizing time.Duration
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			modPath := fmt.Sprintf("example.com/versussm%d-%d", time.Now().UnixNano(), i)
			dir := write(b, modPath)
			minimizing += toolchainMinimizes(b, gocache, dir, modPath, target, entry, func(e corpus.Entry) {
				size = valueSize(b, e)
				steps = failingStep(b, dir, target, e.Name)
			})
			b.StartTimer()
		}
		b.ReportMetric(float64(steps), "result-steps")
		b.ReportMetric(float64(size), "result-bytes")
		b.ReportMetric(minimizing.Seconds()/float64(b.N), "minimize-s/op")
	})
}

var (
	failedAtStep = regexp.MustCompile(`failed at step (\d+), (.*):`)
	commandsLine = regexp.MustCompile(`Commands: (.*)`)
)

// failingStep replays an entry with go test and returns the step of the
// sequence that fails: the steps it runs.
func failingStep(b *testing.B, dir, target, name string) int {
	cmd := exec.Command("go", "test", "-run=^"+target+"$/^"+name+"$", ".")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	m := failedAtStep.FindSubmatch(out)
	if m == nil {
		b.Fatalf("the entry %s does not fail at a step:\n%s", name, out)
	}
	n, _ := strconv.Atoi(string(m[1]))
	steps := ""
	if c := commandsLine.FindSubmatch(out); c != nil {
		steps = string(c[1])
	}
	b.Logf("%s: %d steps, %s", name, n, steps)
	return n
}
