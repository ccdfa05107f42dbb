package encoding

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The tests in this file check the format against the real toolchain, in a
// temporary module built and run with the go command on PATH:
//   - files written by Marshal are read by `go test` and reach the fuzz
//     target as exactly the values written, bit for bit;
//   - every line of unmarshalTests is accepted or rejected by `go test` as
//     Unmarshal accepts or rejects it;
//   - files the toolchain wrote itself (a crasher found by `go test -fuzz`
//     and the inputs it cached) are read by Unmarshal and written back by
//     Marshal byte for byte.

// typeNames are the argument types the toolchain fuzzes, in the order of
// the compat module's all-types target.
var typeNames = []string{"string", "[]byte", "bool", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

// compatRepr is the generated module's bit-exact spelling of values; the
// test computes the same spelling from its side.
const compatRepr = `
func repr(vals ...any) string {
	var b strings.Builder
	for _, v := range vals {
		switch v := v.(type) {
		case float32:
			fmt.Fprintf(&b, "float32bits(%#x) ", math.Float32bits(v))
		case float64:
			fmt.Fprintf(&b, "float64bits(%#x) ", math.Float64bits(v))
		case []byte: // nil and empty alike, as the toolchain passes them
			fmt.Fprintf(&b, "[]byte(%q) ", v)
		default:
			fmt.Fprintf(&b, "%T(%#v) ", v, v)
		}
	}
	return b.String()
}
`

func repr(vals ...any) string {
	var b strings.Builder
	for _, v := range vals {
		switch v := v.(type) {
		case float32:
			fmt.Fprintf(&b, "float32bits(%#x) ", math.Float32bits(v))
		case float64:
			fmt.Fprintf(&b, "float64bits(%#x) ", math.Float64bits(v))
		case []byte: // nil and empty alike, as the toolchain passes them
			fmt.Fprintf(&b, "[]byte(%q) ", v)
		default:
			fmt.Fprintf(&b, "%T(%#v) ", v, v)
		}
	}
	return b.String()
}

func requireGo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	return gobin
}

// compatModule writes a module with the given test source into a
// temporary directory and returns the directory.
func compatModule(t *testing.T, src string) string {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), "module fuzzmin.test/compat\n\ngo 1.26\n")
	write(t, filepath.Join(dir, "compat_test.go"), src)
	return dir
}

func write(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

func goTest(t *testing.T, gobin, dir string, args ...string) (string, error) {
	cmd := exec.Command(gobin, append([]string{"test"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// edgeTuples are values of every native type at their boundaries.
func edgeTuples() [][]any {
	nan32 := math.Float32frombits(0x7fc00001)
	return [][]any{
		{"", []byte{}, false, 0, int8(0), int16(0), int32(0), int64(0), uint(0), uint8(0), uint16(0), uint32(0), uint64(0), float32(0), 0.0},
		{"\x00\xff☺\"\\\n", []byte("\x00\xff\r\n"), true, math.MinInt, int8(math.MinInt8), int16(math.MinInt16), int32(math.MinInt32), int64(math.MinInt64),
			uint(math.MaxUint), uint8(math.MaxUint8), uint16(math.MaxUint16), uint32(math.MaxUint32), uint64(math.MaxUint64),
			float32(math.Inf(-1)), math.Copysign(0, -1)},
		{"\U0010FFFF", []byte("\xed\xa0\x80"), true, math.MaxInt, int8(math.MaxInt8), int16(math.MaxInt16), int32(0xD800), int64(math.MaxInt64),
			uint(1), uint8('\''), uint16(1), uint32(1), uint64(1), float32(math.NaN()), math.NaN()},
		{"a", []byte("b"), false, -1, int8(-1), int16(-1), int32(-1), int64(-1), uint(2), uint8(0x80), uint16(2), uint32(2), uint64(2),
			nan32, math.Float64frombits(0xfff0000000000001)},
		{"x", []byte(nil), true, 1, int8(1), int16(1), int32(utf8MaxRunePlus1), int64(1), uint(3), uint8(3), uint16(3), uint32(3), uint64(3),
			float32(math.SmallestNonzeroFloat32), math.SmallestNonzeroFloat64},
		{"y", []byte("z"), false, 2, int8(2), int16(2), int32('☺'), int64(2), uint(4), uint8(4), uint16(4), uint32(4), uint64(4),
			float32(math.MaxFloat32), math.Inf(1)},
	}
}

const utf8MaxRunePlus1 = 0x110000

func randomTuple(rng *rand.Rand) []any {
	u := rng.Uint64()
	b := make([]byte, rng.IntN(40))
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return []any{string(b[:len(b)/2]), b[len(b)/2:], u&1 == 0, int(u), int8(u >> 8), int16(u >> 16), int32(rng.Uint32()), int64(rng.Uint64()),
		uint(rng.Uint64()), uint8(u >> 24), uint16(u >> 32), uint32(rng.Uint32()), rng.Uint64(),
		math.Float32frombits(rng.Uint32()), math.Float64frombits(rng.Uint64())}
}

// TestToolchainReadsMarshal writes files with Marshal, one value of every
// type each, and requires `go test` to pass each of them to the fuzz target
// as exactly those values, bit for bit.
func TestToolchainReadsMarshal(t *testing.T) {
	gobin := requireGo(t)
	tuples := edgeTuples()
	rng := rand.New(rand.NewPCG(3, 4))
	for range 60 {
		tuples = append(tuples, randomTuple(rng))
	}

	var src strings.Builder
	fmt.Fprintf(&src, "package compat\n\nimport (\n\t\"fmt\"\n\t\"math\"\n\t\"path\"\n\t\"strings\"\n\t\"testing\"\n)\n%s\nvar want = map[string]string{\n", compatRepr)
	dir := compatModule(t, "")
	for i, tup := range tuples {
		name := fmt.Sprintf("entry%02d", i)
		fmt.Fprintf(&src, "\t%q: %q,\n", name, repr(tup...))
		b, err := Marshal(tup...)
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "testdata", "fuzz", "FuzzAll", name), string(b))
	}
	src.WriteString("}\n\nfunc FuzzAll(f *testing.F) {\n\tf.Fuzz(func(t *testing.T")
	var args []string
	for i, typ := range typeNames {
		fmt.Fprintf(&src, ", a%d %s", i, typ)
		args = append(args, fmt.Sprintf("a%d", i))
	}
	fmt.Fprintf(&src, `) {
		got, ok := repr(%s), want[path.Base(t.Name())]
		if got != ok {
			t.Fatalf("got  %%s\nwant %%s", got, ok)
		}
		fmt.Println("checked", path.Base(t.Name()))
	})
}
`, strings.Join(args, ", "))
	write(t, filepath.Join(dir, "compat_test.go"), src.String())

	out, err := goTest(t, gobin, dir, "-run=FuzzAll", "-v")
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	for i := range tuples {
		if !strings.Contains(out, fmt.Sprintf("checked entry%02d\n", i)) {
			t.Errorf("go test did not run entry%02d:\n%s", i, out)
		}
	}
}

// TestToolchainAcceptsWhatUnmarshalAccepts puts every line of
// unmarshalTests in a corpus file and requires `go test` to read the lines
// Unmarshal accepts, as the same values, and to reject as malformed the
// lines Unmarshal rejects.
func TestToolchainAcceptsWhatUnmarshalAccepts(t *testing.T) {
	gobin := requireGo(t)
	dir := compatModule(t, "")
	var src strings.Builder
	fmt.Fprintf(&src, "package compat\n\nimport (\n\t\"fmt\"\n\t\"math\"\n\t\"path\"\n\t\"strings\"\n\t\"testing\"\n)\n%s\nvar _ = math.Pi\n", compatRepr)
	targets := map[string]bool{}
	rejected := map[string]bool{}
	for i, tt := range unmarshalTests {
		name := fmt.Sprintf("line%03d", i)
		file := Version + "\n" + tt.line + "\n"
		vals, err := Unmarshal([]byte(file))
		target := "FuzzRejected"
		if err == nil {
			target = compatTarget(reflect.TypeOf(vals[0]).String())
			fmt.Fprintf(&src, "var want_%s = %q\n", name, repr(vals...))
			targets[target] = true
		} else {
			rejected[name] = true
		}
		write(t, filepath.Join(dir, "testdata", "fuzz", target, name), file)
	}
	for _, typ := range typeNames {
		target := compatTarget(typ)
		if !targets[target] {
			continue
		}
		fmt.Fprintf(&src, `
func %s(f *testing.F) {
	f.Fuzz(func(t *testing.T, v %s) {
		fmt.Printf("value %%s %%s\n", path.Base(t.Name()), repr(v))
	})
}
`, target, typ)
	}
	src.WriteString("\nfunc FuzzRejected(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }\n")
	write(t, filepath.Join(dir, "compat_test.go"), src.String())

	out, _ := goTest(t, gobin, dir, "-v", "-run=^Fuzz")
	malformed := map[string]string{}
	for _, m := range regexp.MustCompile(`"[^"\n]*[/\\](line\d+)": (.*)`).FindAllStringSubmatch(out, -1) {
		malformed[m[1]] = m[2]
	}
	values := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^value (line\d+) (.*)$`).FindAllStringSubmatch(out, -1) {
		values[m[1]] = m[2]
	}
	for i, tt := range unmarshalTests {
		name := fmt.Sprintf("line%03d", i)
		if rejected[name] {
			if msg, ok := malformed[name]; !ok || !strings.HasPrefix(msg, "unmarshal:") {
				t.Errorf("%q: Unmarshal rejects it, the toolchain does not (%q)", tt.line, msg)
			}
			continue
		}
		if msg, ok := malformed[name]; ok {
			t.Errorf("%q: Unmarshal accepts it, the toolchain says %s", tt.line, msg)
			continue
		}
		vals, _ := Unmarshal([]byte(Version + "\n" + tt.line + "\n"))
		if got, want := strings.TrimSpace(values[name]), strings.TrimSpace(repr(vals...)); got != want {
			t.Errorf("%q: the toolchain reads %q, Unmarshal %q", tt.line, got, want)
		}
	}
	if t.Failed() {
		t.Logf("go test output:\n%s", out)
	}
}

// compatTarget names the single-argument fuzz target for a type.
func compatTarget(typ string) string {
	if typ == "[]byte" || typ == "[]uint8" {
		return "FuzzBytes"
	}
	return "Fuzz_" + typ
}

// TestUnmarshalReadsToolchainFiles runs `go test -fuzz` on a target of
// every native type, once until it finds a failure (the toolchain writes
// the crasher into testdata) and once for a fixed number of runs (the
// toolchain caches every new interesting input). Every file the toolchain
// wrote must decode with Unmarshal and encode back to the same bytes.
func TestUnmarshalReadsToolchainFiles(t *testing.T) {
	gobin := requireGo(t)
	var params, args []string
	for i, typ := range typeNames {
		params = append(params, fmt.Sprintf("a%d %s", i, typ))
		args = append(args, fmt.Sprintf("a%d", i))
	}
	src := fmt.Sprintf(`package compat

import (
	"fmt"
	"math"
	"strings"
	"testing"
)
%s
func FuzzExplore(f *testing.F) {
	f.Add("seed", []byte("seed"), true, 1, int8(2), int16(3), int32(4), int64(5), uint(6), uint8(7), uint16(8), uint32(9), uint64(10), float32(1.5), 2.5)
	f.Fuzz(func(t *testing.T, %s) {
		// Branch on every argument so that coverage guides the fuzzer to
		// varied values of every type.
		n := 0
		for _, v := range []any{%s} {
			s := repr(v)
			if strings.Contains(s, "-") { n++ }
			if strings.Contains(s, "0x7f") || strings.Contains(s, "0xff") { n++ }
			if len(s) > 30 { n++ }
		}
		_ = math.Pi
	})
}

func FuzzCrash(f *testing.F) {
	f.Add("seed", []byte("seed"), true, -1, int8(2), int16(3), int32(-4), int64(5), uint(6), uint8(7), uint16(8), uint32(9), uint64(10), float32(1.5), math.Inf(-1))
	f.Fuzz(func(t *testing.T, %s) {
		if len(a0) > 6 {
			t.Fatalf("crashed on %%s", repr(%s))
		}
	})
}
`, compatRepr, strings.Join(params, ", "), strings.Join(args, ", "), strings.Join(params, ", "), strings.Join(args, ", "))
	dir := compatModule(t, src)
	cache := t.TempDir()
	out, err := goTest(t, gobin, dir, "-run=^$", "-fuzz=FuzzExplore", "-fuzztime=3000x", ".", "-args", "-test.fuzzcachedir="+cache)
	if err != nil {
		t.Fatalf("go test -fuzz=FuzzExplore: %v\n%s", err, out)
	}
	out, err = goTest(t, gobin, dir, "-run=^$", "-fuzz=FuzzCrash", "-fuzztime=60s", ".", "-args", "-test.fuzzcachedir="+cache)
	if err == nil || !strings.Contains(out, "Failing input written") {
		t.Fatalf("go test -fuzz=FuzzCrash: %v, want a failure:\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "FuzzExplore", "*"))
	crashers, _ := filepath.Glob(filepath.Join(dir, "testdata", "fuzz", "FuzzCrash", "*"))
	if len(files) < 5 || len(crashers) != 1 {
		t.Fatalf("the toolchain cached %d inputs and wrote %d crashers, want at least 5 and 1", len(files), len(crashers))
	}
	// The crasher holds the values the target reported.
	data, err := os.ReadFile(crashers[0])
	if err != nil {
		t.Fatal(err)
	}
	if vals, err := Unmarshal(data); err != nil || !strings.Contains(out, "crashed on "+repr(vals...)) {
		t.Errorf("crasher %s decodes to %s (%v), not the values the target reported:\n%s", crashers[0], repr(vals...), err, out)
	}
	for _, name := range append(files, crashers...) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		vals, err := Unmarshal(data)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, data)
			continue
		}
		if again, err := Marshal(vals...); err != nil || !bytes.Equal(again, data) {
			t.Errorf("%s: Marshal(Unmarshal(file)) = %q, %v; want the file:\n%s", name, again, err, data)
		}
	}
}
