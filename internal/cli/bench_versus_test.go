package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// The benchmarks of this file run the whole command on an entry and the
// toolchain's own minimizer on the same entry (go test -fuzz minimizes an
// input of the fuzz cache that fails), and report each one's wall time and
// the size of its result. Run them with
//
//	go test -run '^$' -bench Versus -benchtime 1x ./internal/cli

// A versusModule is a module with one fuzz target and one failing entry.
type versusModule struct {
	files  map[string]string // relative path → contents
	target string
	entry  []byte // the corpus file
}

// shapeTargets are the fuzz targets of the shapes of fuzzshrink's quality
// tests (internal/shapes), as test files of a module that holds
// the shape's parser.
var shapeTargets = map[string]string{
	"json": `func FuzzShape(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc any
		if stdjson.Unmarshal(data, &doc) != nil {
			return
		}
		Index(doc)
	})
}`,
	"config":   `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Parse(s) }) }`,
	"sexpr":    `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Eval(s) }) }`,
	"gosource": `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, src []byte) { Check("fuzz.go", src) }) }`,
	"packet":   `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Parse(b) }) }`,
	"wire":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Parse(b) }) }`,
	"dns":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Parse(b) }) }`,
	"tiff":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Decode(b) }) }`,
	"bmp":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Decode(b) }) }`,
	"pcap":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"png":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Decode(b) }) }`,
	"calc":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Eval(s) }) }`,
	"jq":       `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Run(s) }) }`,
	"gzip":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"xz":       `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"zip":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"tar":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"arc":      `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"snmp":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Decode(b) }) }`,
	"kv":       `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { Run(s) }) }`,
	"zlib":     `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"pngpix":   `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Decode(b) }) }`,
	"ipudp":    `func FuzzShape(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) { Read(b) }) }`,
	"markup": `func FuzzShape(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		nodes, err := Parse(s)
		if err != nil {
			return
		}
		Layout(nodes, 960)
	})
}`,
	"toml": `func FuzzShape(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := Parse(s)
		if err != nil {
			return
		}
		LoadServer(doc)
	})
}`,
}

// shapeModule returns the module of a shape.
func shapeModule(tb testing.TB, name string) versusModule {
	root := filepath.Join("..", "shapes")
	src, err := os.ReadFile(filepath.Join(root, name, name+".go"))
	if err != nil {
		tb.Fatal(err)
	}
	entry, err := os.ReadFile(filepath.Join(root, "testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	test := "package " + name + "\n\nimport (\n\tstdjson \"encoding/json\"\n\t\"testing\"\n)\n\nvar _ = stdjson.Valid\n\n" + shapeTargets[name] + "\n"
	files := map[string]string{name + ".go": string(src), name + "_test.go": test}
	// The container shapes share what they hold (internal/shapes/settings):
	// it goes into the module too, imported from there.
	const shared = "github.com/fuzzmin/fuzzmin/internal/shapes/settings"
	if strings.Contains(files[name+".go"], `"`+shared+`"`) {
		settings, err := os.ReadFile(filepath.Join(root, "settings", "settings.go"))
		if err != nil {
			tb.Fatal(err)
		}
		files[name+".go"] = strings.Replace(files[name+".go"], `"`+shared+`"`, `"`+moduleDir+`settings"`, 1)
		files["settings/settings.go"] = string(settings)
	}
	return versusModule{files: files, target: "FuzzShape", entry: entry}
}

// moduleDir stands in a versusModule's files for its module's path and
// a slash.
const moduleDir = "MODULE/"

// BenchmarkVersusShapes compares fuzzmin with the toolchain's minimizer on
// the shapes: inputs like the ones parsers read (JSON, a config file, an
// S-expression, markup, Go source, TOML, and the binary formats: an RTCP-like
// packet, an SSH-like certificate, a DNS-like message, a TIFF-like and a
// BMP-like image, a packet capture, a PNG image and its pixels, a gzip
// member, a zlib stream, an IPv4/UDP packet, an xz stream, a zip archive,
// a tar archive, an archive of CRC-guarded entries, a BER-encoded SNMP
// message; and the programs: infix arithmetic with calls, a jq-like
// filter with its JSON input, a key-value store's script).
func BenchmarkVersusShapes(b *testing.B) {
	for _, name := range []string{"json", "config", "sexpr", "markup", "gosource", "toml", "packet", "wire", "dns", "tiff", "bmp", "pcap", "png", "pngpix", "gzip", "zlib", "ipudp", "xz", "zip", "tar", "arc", "snmp", "calc", "jq", "kv"} {
		b.Run(name, func(b *testing.B) { versus(b, shapeModule(b, name)) })
	}
}

// BenchmarkVersusSlow compares fuzzmin with the toolchain's minimizer on a
// slow target: the packet capture's decoder with 7 ms of work added to
// every run, as a decoder of large inputs or a target that sets up a
// server takes. Runs, not the speed of a run, decide the wall time.
func BenchmarkVersusSlow(b *testing.B) {
	m := shapeModule(b, "pcap")
	m.files["pcap_test.go"] = `package pcap

import (
	"testing"
	"time"
)

func FuzzShape(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		for start := time.Now(); time.Since(start) < 7*time.Millisecond; {
		}
		Read(b)
	})
}
`
	versus(b, m)
}

// BenchmarkVersusSmall compares the whole command with the toolchain on a
// small entry, an (int, int) pair, with a warm build cache: the time of
// building, searching and checking, which linking dominates.
func BenchmarkVersusSmall(b *testing.B) {
	entry, _ := encoding.Marshal(987654, 123456789)
	versus(b, versusModule{
		files: map[string]string{"pair_test.go": `package pair

import "testing"

func FuzzPair(f *testing.F) {
	f.Fuzz(func(t *testing.T, a, b int) {
		if a > 1000 && b > 100 {
			t.Fatal("both big")
		}
	})
}
`},
		target: "FuzzPair",
		entry:  entry,
	})
}

// versus runs fuzzmin and go test -fuzz on m, each in a module of its own
// made afresh for every run, and reports their wall times and results.
func versus(b *testing.B, m versusModule) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	write := func(b *testing.B, modPath string) string {
		dir := b.TempDir()
		files := map[string]string{}
		for name, content := range m.files {
			files[name] = strings.ReplaceAll(content, `"`+moduleDir, `"`+modPath+"/")
		}
		testbintest.WriteModule(b, dir, modPath, files)
		return dir
	}
	b.Run("fuzzmin", func(b *testing.B) {
		var size, runs int
		var searching time.Duration // the entry's time, without the build
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			dir := write(b, fmt.Sprintf("example.com/versus%d", i))
			if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, m.target), m.entry); err != nil {
				b.Fatal(err)
			}
			var out bytes.Buffer
			b.StartTimer()
			if code := Main([]string{"-C", dir, "-json", "."}, &out, &out); code != 0 {
				b.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
			}
			b.StopTimer()
			size = valueSize(b, onlyEntry(b, corpus.SeedCorpus(dir, m.target)))
			res := jsonResult(b, out.String())
			runs = res.Runs
			searching += time.Duration(res.Elapsed * float64(time.Second))
			b.StartTimer()
		}
		b.ReportMetric(float64(size), "result-bytes")
		b.ReportMetric(float64(runs), "runs")
		b.ReportMetric(searching.Seconds()/float64(b.N), "search-s/op")
	})
	b.Run("go-test-fuzz", func(b *testing.B) {
		gocache, err := corpus.GoCache(".")
		if err != nil {
			b.Skip(err)
		}
		var size int
		var minimizing time.Duration
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			modPath := fmt.Sprintf("example.com/versus%d-%d", time.Now().UnixNano(), i)
			dir := write(b, modPath)
			minimizing += toolchainMinimizes(b, gocache, dir, modPath, m.target, m.entry, func(e corpus.Entry) {
				size = valueSize(b, e)
			})
			b.StartTimer()
		}
		b.ReportMetric(float64(size), "result-bytes")
		b.ReportMetric(minimizing.Seconds()/float64(b.N), "minimize-s/op")
	})
}

// toolchainMinimizes has go test -fuzz minimize entry, put in the fuzz cache
// of target of the module at dir (whose path is modPath), with the
// benchmark's timer running, and calls inspect with the entry it wrote. It
// returns the time go test -fuzz spent minimizing: its wall time less that
// of a run with nothing to minimize. It leaves neither cache nor testdata.
func toolchainMinimizes(b *testing.B, gocache, dir, modPath, target string, entry []byte, inspect func(corpus.Entry)) time.Duration {
	defer os.RemoveAll(filepath.Join(dir, "testdata"))
	start := time.Now()
	inspect(goTestFuzz(b, gocache, dir, modPath, target, "10m", entry))
	took := time.Since(start)
	os.RemoveAll(filepath.Join(dir, "testdata"))
	// An easy bug may be found by this run's one input: it then fails, but
	// does not minimize.
	cmd := goTestFuzzCmd(dir, target, "1x", "-fuzzminimizetime=0")
	start = time.Now()
	if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "Failing input written") {
		b.Fatalf("go test -fuzz with nothing to minimize: %v\n%s", err, out)
	}
	return max(0, took-time.Since(start))
}

// valueSize is the size of an entry's values: the length of strings and
// []byte, 8 bytes for a number.
func valueSize(b *testing.B, e corpus.Entry) int {
	n := 0
	for _, v := range e.Values {
		switch x := v.(type) {
		case string:
			n += len(x)
		case []byte:
			n += len(x)
		default:
			n += 8
		}
	}
	return n
}
