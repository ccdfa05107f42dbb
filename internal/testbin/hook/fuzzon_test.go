//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"bytes"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// TestMarshal checks that the hook writes the failures it fuzzes past as
// the toolchain writes corpus files, byte for byte (encoding.Marshal is
// that, and tested against the toolchain).
func TestMarshal(t *testing.T) {
	for _, vals := range [][]interface{}{
		{[]byte("XY\x00\xff"), "a \"quoted\"\n string", int(-5), int8(1), int16(2), int32(-1), rune('é'), int64(1 << 40)},
		{uint(7), byte('x'), uint16(9), uint32(10), uint64(math.MaxUint64), true, false},
		{float32(1.5), float64(-0.0), math.Inf(1), math.NaN(), math.Float64frombits(0x7ff8000000000001), float32(math.Float32frombits(0x7fc00001))},
		{rune(-1), rune(0xd800), string([]byte{0xff, 0xfe})},
	} {
		got, err := marshal(vals)
		if err != nil {
			t.Fatalf("marshal(%#v): %v", vals, err)
		}
		want, err := encoding.Marshal(vals...)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("marshal(%#v) =\n%s\nwant\n%s", vals, got, want)
		}
	}
	if _, err := marshal([]interface{}{struct{}{}}); err == nil {
		t.Error("marshal of a struct succeeded")
	}
}

// FuzzMarshal checks marshal against encoding.Marshal on every kind of
// value a fuzz target takes.
func FuzzMarshal(f *testing.F) {
	f.Add([]byte("a"), "b", int64(1), uint64(2), 1.5, int32(3), byte(4), true)
	f.Fuzz(func(t *testing.T, b []byte, s string, i int64, u uint64, x float64, r int32, c byte, ok bool) {
		vals := []interface{}{b, s, i, int(i), u, uint32(u), x, float32(x), r, c, ok}
		got, err := marshal(vals)
		want, werr := encoding.Marshal(vals...)
		if err != nil || werr != nil || !bytes.Equal(got, want) {
			t.Fatalf("marshal = %q, %v; encoding.Marshal = %q, %v", got, err, want, werr)
		}
	})
}

// TestFailureKey checks that failures of one kind share a key, whatever
// their values, and that others do not.
func TestFailureKey(t *testing.T) {
	// A panic while fuzzing, as the testing package reports it: t.Errorf
	// from tRunner, every line of the stack indented.
	// Its files are under GOROOT and the module's directory, or, built
	// with -trimpath, named by import path (trimmed).
	panicIn := func(goroot, mod, msg, line string) string {
		return "--- FAIL: FuzzX (0.00s)\n    testing.go:1927: panic: " + msg + "\n        goroutine 7 [running]:\n" +
			"        runtime/debug.Stack()\n        \t" + goroot + "runtime/debug/stack.go:26 +0x5e\n" +
			"        testing.tRunner.func1()\n        \t" + goroot + "testing/testing.go:1927 +0x2a5\n" +
			"        panic({0x5cd3a0?, 0x623dc0?})\n        \t" + goroot + "runtime/panic.go:860 +0x13a\n" +
			"        example.com/x.parse(...)\n        \t" + mod + "x.go:" + line + " +0x1d\n" +
			"        example.com/x.FuzzX.func1(0xc000)\n        \t" + mod + "x_test.go:9 +0x45\n"
	}
	panicAt := func(msg, line string) string { return panicIn("/usr/local/go/src/", "/work/x/", msg, line) }
	trimmed := func(msg, line string) string { return panicIn("", "example.com/x/", msg, line) }
	same := [][2]string{
		{panicAt("runtime error: index out of range [5] with length 3", "12"), panicAt("runtime error: index out of range [9] with length 4", "12")},
		{trimmed("runtime error: index out of range [5] with length 3", "12"), trimmed("runtime error: index out of range [9] with length 4", "12")},
		{"    x_test.go:12: value 5 too big\n", "    x_test.go:12: value 70 too big\n"},
		{"    x_test.go:18: key \"A\": got \"\", want \"1\"\n", "    x_test.go:18: key \"\\x80\\\"\": got \"\", want \"a b\\x00\"\n"},
	}
	key := func(out string) string {
		pos, text := failureKey(out)
		return pos + "\n" + text
	}
	for _, p := range same {
		if key(p[0]) != key(p[1]) {
			t.Errorf("keys differ:\n%q\n%q", key(p[0]), key(p[1]))
		}
	}
	other := [][2]string{
		{panicAt("runtime error: index out of range [5] with length 3", "12"), panicAt("runtime error: index out of range [5] with length 3", "14")},
		{panicAt("boom", "12"), panicAt("bang", "12")},
		{panicAt("bug3", "33"), panicAt("bug4", "27")},
		{trimmed("runtime error: index out of range [5] with length 3", "12"), trimmed("runtime error: index out of range [5] with length 3", "14")},
		{"    x_test.go:12: too big\n", "    x_test.go:13: too big\n"},
		{"    x_test.go:12: got \"a\", want \"b\"\n", "    x_test.go:12: got \"a\", missing \"b\"\n"},
	}
	for _, p := range other {
		if key(p[0]) == key(p[1]) {
			t.Errorf("one key for\n%s\nand\n%s", p[0], p[1])
		}
	}
}

// TestFuzzOnRefuses: on an F that is not fuzzing, fuzzOn refuses with an
// error, changing nothing.
func TestFuzzOnRefuses(t *testing.T) {
	f := new(testing.F)
	if err := fuzzOn(f, "FuzzX", t.TempDir()); err == nil {
		t.Error("fuzzOn of an F with no fuzz state: no error")
	}
}

// TestRecordTextsAt: the texts of one position that the masking cannot
// tell apart as values take maxTextsAt kinds and one more, not the
// places of failures elsewhere, and each count is written when the
// worker ends.
func TestRecordTextsAt(t *testing.T) {
	dir := t.TempDir()
	r := &recorder{dir: dir, seen: map[string]*record{}, texts: map[string]int{}}
	for i := range 3 * maxKeys {
		word := strings.Repeat(string(rune('a'+i%26)), 1+i/26)
		r.record([]interface{}{word}, "    x_test.go:12: bad token "+word+"\n")
	}
	r.record([]interface{}{"x"}, "    x_test.go:20: deep\n")
	r.record([]interface{}{"y"}, "    x_test.go:20: deep\n")
	r.record([]interface{}{"zz"}, "    x_test.go:20: deep\n")
	r.flush()
	counts := map[int]int{} // count → kinds
	files, err := filepath.Glob(filepath.Join(dir, "*.count"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := strconv.Atoi(string(data))
		if err != nil {
			t.Fatal(err)
		}
		counts[n]++
	}
	want := map[int]int{1: maxTextsAt, 3*maxKeys - maxTextsAt: 1, 3: 1}
	if !maps.Equal(counts, want) {
		t.Errorf("kinds by count = %v, want %v", counts, want)
	}
	if r.more != 0 {
		t.Errorf("%d failures not recorded", r.more)
	}
}
