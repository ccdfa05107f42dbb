//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCrashRecord: of the crashers of one message the smallest is kept,
// with the variants running when its worker ended, every one is counted,
// and each leaves the seed corpus directory.
func TestCrashRecord(t *testing.T) {
	dir, corpus := t.TempDir(), t.TempDir()
	c := newCrashes(dir)
	write := func(name, data string) string {
		path := filepath.Join(corpus, name)
		if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	variant := func(pid, data string) {
		n := string([]byte{byte(len(data)), 0, 0, 0, 0, 0, 0, 0})
		if err := os.WriteFile(filepath.Join(dir, VariantPrefix+pid), []byte(n+data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	const exit3, exit86 = "fuzzing process hung or terminated unexpectedly: exit status 3", "fuzzing process hung or terminated unexpectedly: exit status 86"
	variant("7", "go test fuzz v1\nint(1)\n")
	variant("8", "") // ended with no variant running
	for _, r := range []struct{ name, data, msg string }{
		{"a", "go test fuzz v1\nstring(\"long\")\n", exit3},
		{"b", "go test fuzz v1\nstring(\"x\")\n", exit3},
		{"c", "go test fuzz v1\nstring(\"xyz\")\n", exit3},
		{"d", "go test fuzz v1\nstring(\"h\")\n", exit86},
	} {
		if err := c.record(write(r.name, r.data), r.msg); err != nil {
			t.Fatal(err)
		}
		if r.name == "a" {
			variant("9", "go test fuzz v1\nint(2)\n") // running when b's worker ended
		}
	}
	if des, _ := os.ReadDir(corpus); len(des) != 0 {
		t.Errorf("left in the seed corpus: %v", des)
	}
	// The records are named by their kinds: read labels them 0, 1, 2.
	const seedFailed = "fuzzing process hung or terminated unexpectedly: exit status 3"
	labels := map[string]string{}
	for i, kind := range []string{exit3, exit86, "variant " + seedFailed} {
		sum := sha256.Sum256([]byte(kind))
		labels[fmt.Sprintf("%s%x", CrashPrefix, sum[:8])] = fmt.Sprint(i)
	}
	read := func(label, pattern string) []string {
		files, _ := filepath.Glob(filepath.Join(dir, CrashPrefix+"*"+pattern))
		var out []string
		for _, f := range files {
			name, _, _ := strings.Cut(filepath.Base(f), "-")
			if l := labels[name]; l != "" && (label == "" || l == label) {
				data, _ := os.ReadFile(f)
				out = append(out, l+" "+string(data))
			}
		}
		slices.Sort(out)
		return out
	}
	if got, want := read("", ".input"), []string{"0 go test fuzz v1\nstring(\"x\")\n", "1 go test fuzz v1\nstring(\"h\")\n"}; !slices.Equal(got, want) {
		t.Errorf("inputs kept: %q, want %q", got, want)
	}
	if got, want := read("", ".count"), []string{"0 3", "1 1"}; !slices.Equal(got, want) {
		t.Errorf("counts: %q, want %q", got, want)
	}
	if got, want := read("", ".variant*"), []string{"0 go test fuzz v1\nint(2)\n"}; !slices.Equal(got, want) {
		t.Errorf("variants: %q, want %q (b's, not a's, which it replaced)", got, want)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, VariantPrefix+"*")); len(files) != 0 {
		t.Errorf("variant files left: %v", files)
	}

	// A seed entry's worker ended: the coordinator names no file. With a
	// variant running, it is recorded, with no input of its own.
	if c.recordVariants(seedFailed) {
		t.Errorf("recordVariants with no variant running reports one")
	}
	variant("10", "go test fuzz v1\nstring(\"e\")\n")
	if !c.recordVariants(seedFailed) {
		t.Errorf("recordVariants did not record the variant running")
	}
	if got, want := read("2", ".variant*"), []string{"2 go test fuzz v1\nstring(\"e\")\n"}; !slices.Equal(got, want) {
		t.Errorf("the seed's variants: %q, want %q", got, want)
	}
	if got := read("2", ".input"); len(got) != 0 {
		t.Errorf("the seed's crash has an input: %q", got)
	}
}

// TestCrashKind: crashes of one message are told apart by the report the
// ended worker's runtime wrote, its values masked, up to maxReports kinds,
// and every report file is removed.
func TestCrashKind(t *testing.T) {
	dir := t.TempDir()
	c := newCrashes(dir)
	const exit2 = "fuzzing process hung or terminated unexpectedly: exit status 2"
	report := func(text string) {
		for pid, data := range map[string]string{"1": "", "2": text} { // 1 did not crash
			if err := os.WriteFile(filepath.Join(dir, fatalPrefix+pid), []byte(data), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	reports := func() []string {
		files, _ := filepath.Glob(filepath.Join(dir, fatalPrefix+"*"))
		return files
	}
	goroutine := func(msg, file string) string {
		return msg + "\n\ngoroutine 7 [running]:\nexample.com/x.parse.func1()\n\t/src/x/" + file + " +0x25\ncreated by example.com/x.parse in goroutine 6\n\t/src/x/x.go:9 +0x1d\nexit status 2\n"
	}
	var kinds []string
	for _, text := range []string{
		goroutine("panic: bad length 12", "x.go:12"),
		goroutine("panic: bad length 7", "x.go:12"),  // the same: a value apart
		goroutine("panic: bad length 12", "y.go:40"), // another place
		"runtime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n\nruntime stack:\nruntime.throw({0x5, 0x1})\n\t/go/src/runtime/panic.go:1101 +0x48\n\ngoroutine 6 [running]:\nexample.com/x.nest()\n\t/src/x/x.go:30 +0x1\n",
		"", // an exit: no report
	} {
		report(text)
		kinds = append(kinds, c.kind(exit2, reports()))
		c.count(kinds[len(kinds)-1])
		if files, _ := filepath.Glob(filepath.Join(dir, fatalPrefix+"*")); len(files) != 0 {
			t.Fatalf("report files left: %v", files)
		}
	}
	if kinds[0] != kinds[1] {
		t.Errorf("two reports a value apart are two kinds: %q, %q", kinds[0], kinds[1])
	}
	if got := len(slices.Compact(slices.Sorted(slices.Values(kinds)))); got != 4 {
		t.Errorf("%d kinds of %q, want 4", got, kinds)
	}
	if kinds[4] != exit2 {
		t.Errorf("with no report, the kind is %q, want the message alone", kinds[4])
	}
	for i := range maxReports {
		report(goroutine("panic: other", fmt.Sprintf("z.go:%d", i+1)))
		c.count(c.kind(exit2, reports()))
	}
	if n := len(c.seen); n != 2+maxReports {
		t.Errorf("%d kinds recorded, want %d: those of %d reports and the message alone, then one for the rest", n, 2+maxReports, maxReports)
	}
}
