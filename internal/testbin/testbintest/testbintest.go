// Package testbintest builds the test binaries of small fuzz targets for
// the tests of the packages that run them, once per test process.
package testbintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

var (
	mu    sync.Mutex
	built = map[string]result{} // by module path
	dirs  []string
)

type result struct {
	dir, bin string
	err      error
}

// Build writes a module of path modPath with files (name → content) and
// builds its test binary, once per test process and module path. It
// returns the module's directory and the binary. It skips the test under
// -short.
func Build(t testing.TB, modPath string, files map[string]string) (dir, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	mu.Lock()
	defer mu.Unlock()
	r, ok := built[modPath]
	if !ok {
		r = build(modPath, files)
		built[modPath] = r
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.dir, r.bin
}

func build(modPath string, files map[string]string) result {
	dir, err := os.MkdirTemp("", "fuzzmin-testbin")
	if err != nil {
		return result{err: err}
	}
	dirs = append(dirs, dir)
	files["go.mod"] = "module " + modPath + "\n\ngo 1.26\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			return result{err: err}
		}
	}
	bin := filepath.Join(dir, "x.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return result{err: fmt.Errorf("%v\n%s", err, out)}
	}
	return result{dir: dir, bin: bin}
}

// Cleanup removes what Build wrote; TestMain calls it after the tests.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	dirs, built = nil, map[string]result{}
}

// GoEnv returns the GOROOT and GOVERSION of the go command on PATH, which
// Build builds with.
func GoEnv(t testing.TB) (goroot, goversion string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot, goversion, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
	return goroot, goversion
}

// Runner returns a runner of target in the test binary bin of the package
// in dir, the root of its module, built by the go command on PATH; the
// test ends its fuzz worker.
func Runner(t testing.TB, bin, dir, target string, timeout time.Duration) *testbin.Runner {
	t.Helper()
	goroot, goversion := GoEnv(t)
	b := &testbin.Binary{Path: bin, ModDir: dir, PkgDir: dir, Toolchain: testbin.Identify(bin, goroot, goversion, filepath.Join(goroot, "src")),
		Timeout: timeout, Env: os.Environ(), RAM: t.TempDir()}
	r, err := b.Runner(target, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}
