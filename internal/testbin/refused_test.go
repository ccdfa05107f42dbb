package testbin_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// TestFuzz_AnotherTesting forces the mismatch the hook checks for before
// it fuzzes past failures: the test binary is built with a testing package
// whose F names its fuzz state otherwise (an overlay of the toolchain's
// testing/fuzz.go, the field fstate renamed). The turn must not run as if
// the hook had its way: it fails with ErrFuzzOnRefused and the hook's
// reason, which the campaign says once before it falls back to turns that
// stop at each failure (TestCampaign_FuzzOnRefused).
func TestFuzz_AnotherTesting(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the testing package and a test binary")
	}
	env, err := exec.Command("go", "env", "GOROOT", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot, modcache, _ := strings.Cut(strings.TrimSpace(string(env)), "\n")
	if strings.HasPrefix(goroot, modcache+string(filepath.Separator)) {
		// A toolchain GOTOOLCHAIN fetched: the go command replaces no file there.
		t.Skipf("the toolchain is in the module cache (%s): an overlay cannot replace its testing package", goroot)
	}
	fuzzGo := filepath.Join(goroot, "src", "testing", "fuzz.go")
	src, err := os.ReadFile(fuzzGo)
	if err != nil {
		t.Fatal(err)
	}
	field := regexp.MustCompile(`\bfstate\b`)
	if !field.Match(src) {
		t.Skipf("%s has no fstate: the hook refuses this toolchain's testing package as it is", fuzzGo)
	}
	dir, hooks := t.TempDir(), t.TempDir()
	testbintest.WriteModule(t, dir, "example.com/other", map[string]string{"x_test.go": `package other

import "testing"

func FuzzX(f *testing.F) {
	f.Add(0)
	f.Fuzz(func(t *testing.T, n int) {})
}
`})
	flag, err := testbin.WriteHooks(hooks, dir, "example.com/other", dir, []testbin.HookTarget{{Name: "FuzzX", Package: "other"}})
	if err != nil {
		t.Fatal(err)
	}
	// The hook's overlay, and in it the other testing package.
	overlayFile := strings.TrimPrefix(flag, "-overlay=")
	var overlay struct{ Replace map[string]string }
	b, err := os.ReadFile(overlayFile)
	if err == nil {
		err = json.Unmarshal(b, &overlay)
	}
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(hooks, "other-fuzz.go")
	if err := os.WriteFile(other, field.ReplaceAll(src, []byte("fuzzState_")), 0o666); err != nil {
		t.Fatal(err)
	}
	overlay.Replace[fuzzGo] = other
	if b, err = json.Marshal(overlay); err == nil {
		err = os.WriteFile(overlayFile, b, 0o666)
	}
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "x.test")
	goCmd := func(args ...string) *exec.Cmd {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		return cmd
	}
	if err := testbin.BuildFuzz(goCmd, path, []string{flag, "."}); err != nil {
		t.Fatal(err)
	}
	bin := &testbin.Binary{Path: path, ModDir: dir, PkgDir: dir, Hooked: true}
	work, err := bin.FuzzDir("FuzzX", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := testbin.FuzzSlice{Target: "FuzzX", Dir: work, CacheDir: t.TempDir(), Time: 5 * time.Second, Workers: 1, FuzzOn: t.TempDir(), Hang: 10 * time.Second}
	_, err = bin.Fuzz(context.Background(), s)
	if !errors.Is(err, testbin.ErrFuzzOnRefused) {
		t.Fatalf("the turn with the other testing package: %v, want %v", err, testbin.ErrFuzzOnRefused)
	}
	if want := "testing.F has no fuzz state (fstate)"; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("the reason: %q, want it to end %q", err, want)
	}
	// Without FuzzOn, the same binary fuzzes as go test -fuzz does.
	s.FuzzOn, s.Time = "", time.Second
	out, err := bin.Fuzz(context.Background(), s)
	if err != nil || out.Crasher != nil {
		t.Errorf("the turn that does not fuzz past failures: %v, stopped on %q", err, out.Crasher)
	}
	if out.Execs == 0 || out.Coverage == 0 {
		t.Errorf("the turn that does not fuzz past failures: %d execs, coverage %d bits", out.Execs, out.Coverage)
	}
}
