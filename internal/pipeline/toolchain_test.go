package pipeline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// TestToolchain_Drift checks that when the toolchain's fuzz worker
// protocol differs from the one fuzzmin speaks (here a copy of the
// toolchain's source with the worker's Fuzz call renamed), fuzzmin runs
// candidates in processes, says so in one line, and writes the same
// minimized entry as with the worker.
func TestToolchain_Drift(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	goroot, _ := testbintest.GoEnv(t)
	drifted := t.TempDir()
	for _, f := range []string{"internal/fuzz/worker.go", "internal/fuzz/mem.go", "internal/fuzz/sys_posix.go", "testing/fuzz.go"} {
		b, err := os.ReadFile(filepath.Join(goroot, "src", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "internal/fuzz/worker.go" {
			b = bytes.Replace(b, []byte("\tFuzz     *fuzzArgs"), []byte("\tFuzzing  *fuzzArgs"), 1)
		}
		os.MkdirAll(filepath.Join(drifted, filepath.Dir(f)), 0o777)
		if err := os.WriteFile(filepath.Join(drifted, f), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	entry := "go test fuzz v1\nstring(\"" + strings.Repeat("abcdefgh", 64) + "\")\n"
	run := func(src func(string) string) (stdout, result string) {
		t.Helper()
		dir := t.TempDir()
		testbintest.WriteModule(t, dir, "example.com/drift", map[string]string{
			"x_test.go": `package x

import (
	"strings"
	"testing"
)

func FuzzX(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		t.Log("a log line")
		if strings.Count(s, "c") >= 3 {
			t.Fatalf("%d c's", strings.Count(s, "c"))
		}
	})
}
`,
			"testdata/fuzz/FuzzX/e1": entry,
		})
		old := toolchainSource
		toolchainSource = src
		defer func() { toolchainSource = old }()
		var out bytes.Buffer
		o := DefaultCommon()
		o.Dir, o.Verbose = dir, true
		c := NewRun(o, &out, &out, nil)
		ctx := context.Background()
		code := c.WithPackages(ctx, []string{"."}, WritesSeeds, nil, func(pkgs []*Package) {
			c.eachPackage(ctx, pkgs, func(ctx context.Context, p *Package, tmp string) string {
				return c.minimizePackage(ctx, p, tmp, &Matcher{}, Minimizing{Search: DefaultSearch()})
			})
		})
		if code != 0 {
			t.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
		}
		des, err := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzX"))
		if err != nil || len(des) != 1 {
			t.Fatalf("the corpus holds %v, %v; want one entry\n%s", des, err, out.String())
		}
		b, err := os.ReadFile(filepath.Join(dir, "testdata", "fuzz", "FuzzX", des[0].Name()))
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), des[0].Name() + "\n" + string(b)
	}
	verified, want := run(toolchainSource)
	if !strings.Contains(verified, "  candidates run in a fuzz worker, many per call\n") || strings.Contains(verified, "protocol") {
		t.Fatalf("with the toolchain's own source, want the worker and no note:\n%s", verified)
	}
	out, got := run(func(string) string { return drifted })
	note := regexp.MustCompile(`(?m)^fuzzmin: the fuzz worker protocol of go1\.\d+\.\d+ differs from the one fuzzmin speaks: worker\.go: call has no field Fuzz; candidates run in processes$`)
	if n := len(note.FindAllString(out, -1)); n != 1 {
		t.Errorf("the note is printed %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "  candidates run in processes: ") {
		t.Errorf("-v does not say that candidates run in processes:\n%s", out)
	}
	if got != want {
		t.Errorf("with the protocol drifted, the result is\n%s\nwith the worker\n%s", got, want)
	}
}
