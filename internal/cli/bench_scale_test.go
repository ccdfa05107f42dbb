package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// The benchmarks of this file measure the subcommands at the scale of a
// project's corpora. Run them with
//
//	go test -run '^$' -bench 'Check|Cmin' -benchtime 1x ./internal/cli

// scaleTargets are ten fuzz targets of assorted signatures, none failing,
// and a generator of their arguments.
var scaleTargets = []struct {
	sig  string // the parameters after t *testing.T
	body string
	args func(r *rand.Rand) []any
}{
	{"b []byte", "_ = bytes.Count(b, []byte{0})", func(r *rand.Rand) []any { return []any{randBytes(r, 64)} }},
	{"s string", "_ = strings.Fields(s)", func(r *rand.Rand) []any { return []any{string(randBytes(r, 64))} }},
	{"a, b int", "_ = a ^ b", func(r *rand.Rand) []any { return []any{r.Int(), r.IntN(100)} }},
	{"a int8, b uint16", "_ = int(a) + int(b)", func(r *rand.Rand) []any { return []any{int8(r.Int()), uint16(r.Int())} }},
	{"f float64", "_ = f * 2", func(r *rand.Rand) []any { return []any{r.NormFloat64() * 1e6} }},
	{"ok bool, s string", "_ = ok && s == \"\"", func(r *rand.Rand) []any { return []any{r.IntN(2) == 0, string(randBytes(r, 16))} }},
	{"r rune, u uint64", "_ = uint64(r) + u", func(r *rand.Rand) []any { return []any{rune(r.IntN(0x10000)), r.Uint64()} }},
	{"b byte, s string, n int32", "_ = int(b) + len(s) + int(n)", func(r *rand.Rand) []any {
		return []any{byte(r.Int()), string(randBytes(r, 8)), int32(r.Int())}
	}},
	{"f float32, b []byte", "_ = float32(len(b)) * f", func(r *rand.Rand) []any { return []any{r.Float32(), randBytes(r, 32)} }},
	{"x, y uint, s string", "_ = x + y + uint(len(s))", func(r *rand.Rand) []any { return []any{uint(r.Uint64()), uint(r.IntN(10)), "k"} }},
}

func randBytes(r *rand.Rand, max int) []byte {
	b := make([]byte, r.IntN(max+1))
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	return b
}

// BenchmarkCheck runs fuzzmin check and go test on the same seed corpora:
// 1,000 entries over 10 targets, with a warm build cache.
func BenchmarkCheck(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	dir := b.TempDir()
	var src strings.Builder
	src.WriteString("package scale\n\nimport (\n\t\"bytes\"\n\t\"strings\"\n\t\"testing\"\n)\n\nvar _, _ = bytes.Count, strings.Fields\n")
	r := rand.New(rand.NewPCG(1, 2))
	for i, tg := range scaleTargets {
		name := fmt.Sprintf("Fuzz%d", i)
		fmt.Fprintf(&src, "\nfunc %s(f *testing.F) {\n\tf.Fuzz(func(t *testing.T, %s) { %s })\n}\n", name, tg.sig, tg.body)
		for range 100 {
			data, err := encoding.Marshal(tg.args(r)...)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, name), data); err != nil {
				b.Fatal(err)
			}
		}
	}
	testbintest.WriteModule(b, dir, "example.com/scale", map[string]string{"scale_test.go": src.String()})
	b.Run("fuzzmin-check", func(b *testing.B) {
		for b.Loop() {
			var out bytes.Buffer
			if code := Main([]string{"check", "-C", dir, "."}, &out, &out); code != 0 {
				b.Fatalf("fuzzmin check exited %d:\n%s", code, out.String())
			}
		}
	})
	b.Run("go-test", func(b *testing.B) {
		for b.Loop() {
			testbintest.GoTest(b, dir, "-count=1", "-run=^Fuzz", ".")
		}
	})
}

// BenchmarkCmin runs fuzzmin cmin on a generated corpus of 2,000 TOML
// documents for the parser of the toml shape, and checks, by the coverage
// go test -cover reports replaying the corpus before and after, that the
// entries kept cover every block that all of them did.
func BenchmarkCmin(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "fuzzshrink", "internal", "shapes", "toml", "toml.go"))
	if err != nil {
		b.Fatal(err)
	}
	var before, after int
	for b.Loop() {
		b.StopTimer()
		dir, cache := b.TempDir(), b.TempDir()
		testbintest.WriteModule(b, dir, "example.com/cmin", map[string]string{"toml.go": string(src), "toml_test.go": cminTarget})
		entries := filepath.Join(cache, "example.com", "cmin", "FuzzParse")
		r := rand.New(rand.NewPCG(3, 4))
		for seen := map[string]bool{}; len(seen) < 2000; {
			doc := tomlDoc(r)
			if seen[doc] {
				continue
			}
			seen[doc] = true
			data, _ := encoding.Marshal(doc)
			if _, err := corpus.WriteFile(entries, data); err != nil {
				b.Fatal(err)
			}
		}
		covered := replayCoverage(b, dir, entries)
		var out bytes.Buffer
		b.StartTimer()
		if code := Main([]string{"cmin", "-C", dir, "-fuzzcache", cache, "."}, &out, &out); code != 0 {
			b.Fatalf("fuzzmin cmin exited %d:\n%s", code, out.String())
		}
		b.StopTimer()
		kept, err := corpus.Read(entries)
		if err != nil {
			b.Fatal(err)
		}
		if got := replayCoverage(b, dir, entries); got != covered {
			b.Fatalf("the %d entries kept cover %d blocks, all 2000 covered %d\n%s", len(kept), got, covered, out.String())
		}
		before, after = 2000, len(kept)
		if after >= before/10 {
			b.Errorf("kept %d of %d entries", after, before)
		}
		b.Logf("%s", strings.TrimSpace(out.String()))
		b.StartTimer()
	}
	b.ReportMetric(float64(before), "entries-before")
	b.ReportMetric(float64(after), "entries-after")
}

const cminTarget = `package toml

import "testing"

func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		defer func() { recover() }() // not the bug of LoadServer: its coverage
		doc, err := Parse(s)
		if err != nil {
			return
		}
		LoadServer(doc)
	})
}
`

// tomlDoc returns a random document of TOML-like lines, some malformed.
func tomlDoc(r *rand.Rand) string {
	parts := []string{
		"[server]", "[a.b]", "[", "host = \"example.com\"", "port = 8080", "port = -1",
		"debug = true", "x = [1, \"two\", [3]]", "y = [", "# comment", "k = 99999999999999999999",
		"name = \"unterminated", "timeout = \"5s\"", "timeout = \"forever\"", "= 1", "a b = 2", "",
	}
	var lines []string
	for range r.IntN(8) {
		lines = append(lines, parts[r.IntN(len(parts))])
	}
	return strings.Join(lines, "\n")
}

// replayCoverage copies the entries of dir to the seed corpus of the module
// at mod, replays them with go test -cover, and returns how many blocks of
// the package they covered.
func replayCoverage(b *testing.B, mod, dir string) int {
	seed := corpus.SeedCorpus(mod, "FuzzParse")
	os.RemoveAll(seed)
	entries, err := corpus.Read(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if _, err := corpus.WriteFile(seed, e.Data); err != nil {
			b.Fatal(err)
		}
	}
	defer os.RemoveAll(filepath.Join(mod, "testdata"))
	profile := filepath.Join(b.TempDir(), "cover.out")
	testbintest.GoTest(b, mod, "-count=1", "-run=^FuzzParse$", "-covermode=set", "-coverpkg=.", "-coverprofile="+profile, ".")
	data, err := os.ReadFile(profile)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[2] != "0" {
			n++
		}
	}
	return n
}

// BenchmarkManyEntries runs fuzzmin on one target's 5,000 entries: all
// passing but 10 of one bug ("few"), and all 5,000 of one bug ("one-bug"),
// as go test -fuzz leaves them when it is run again and again on one bug;
// and go test on the first corpus, the time to compare with. Each run
// starts from the same files. Run it with
//
//	go test -run '^$' -bench ManyEntries -benchtime 1x ./internal/cli
func BenchmarkManyEntries(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	const n = 5000
	src := `package many

import "testing"

func FuzzMany(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n > 1_000_000 {
			t.Fatalf("n = %d is too big for %q", n, s)
		}
	})
}
`
	corpusOf := func(failing int) map[string][]byte {
		r := rand.New(rand.NewPCG(5, 6))
		files := map[string][]byte{}
		for i := 0; len(files) < n; i++ {
			k := r.IntN(1_000_000)
			if i < failing {
				k += 1_000_001 + r.IntN(1<<40)
			}
			data, err := encoding.Marshal(string(randBytes(r, 40)), k)
			if err != nil {
				b.Fatal(err)
			}
			files[corpus.Name(data)] = data
		}
		return files
	}
	// The command as users run it: its own binary, which is also go
	// test's exec wrapper (a test binary there would cost more).
	fuzzmin := filepath.Join(b.TempDir(), "fuzzmin")
	if out, err := exec.Command("go", "build", "-o", fuzzmin, "../../cmd/fuzzmin").CombinedOutput(); err != nil {
		b.Fatalf("building fuzzmin: %v\n%s", err, out)
	}
	for _, bc := range []struct {
		name    string
		failing int
	}{{"few", 10}, {"one-bug", n}} {
		files := corpusOf(bc.failing)
		dir := b.TempDir()
		testbintest.WriteModule(b, dir, "example.com/many", map[string]string{"many_test.go": src})
		seed := corpus.SeedCorpus(dir, "FuzzMany")
		b.Run("fuzzmin-"+bc.name, func(b *testing.B) {
			var out bytes.Buffer
			for b.Loop() {
				b.StopTimer()
				os.RemoveAll(seed)
				for name, data := range files {
					if err := os.MkdirAll(seed, 0o777); err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(seed, name), data, 0o666); err != nil {
						b.Fatal(err)
					}
				}
				out.Reset()
				cmd := exec.Command(fuzzmin, ".")
				cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &out
				b.StartTimer()
				if err := cmd.Run(); err != nil {
					b.Fatalf("fuzzmin: %v:\n%s", err, out.String())
				}
			}
			b.StopTimer()
			kept, err := corpus.Read(seed)
			if err != nil {
				b.Fatal(err)
			}
			if want := n - bc.failing + 1; len(kept) != want {
				b.Errorf("kept %d entries, want %d", len(kept), want)
			}
			b.ReportMetric(float64(strings.Count(out.String(), "\n")), "lines")
		})
		if bc.failing < n {
			b.Run("go-test-"+bc.name, func(b *testing.B) {
				os.RemoveAll(seed)
				for name, data := range files {
					os.MkdirAll(seed, 0o777)
					os.WriteFile(filepath.Join(seed, name), data, 0o666)
				}
				for b.Loop() {
					cmd := exec.Command("go", "test", "-count=1", "-run=^FuzzMany$", ".")
					cmd.Dir = dir
					cmd.Run() // it fails: 10 entries do
				}
			})
		}
	}
}
