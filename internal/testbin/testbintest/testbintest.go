// Package testbintest builds the test binaries of small fuzz targets for
// the tests of the packages that run them, once per test process.
package testbintest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
// builds its test binary, with the hook (testbin.WriteHooks), once per
// test process and module path. It returns the module's directory and the
// binary. It skips the test under -short.
func Build(t testing.TB, modPath string, files map[string]string) (dir, bin string) {
	t.Helper()
	return buildOnce(t, modPath, files, true, false)
}

// BuildWithoutHooks is Build without the hook: the binary has no batch
// workers.
func BuildWithoutHooks(t testing.TB, modPath string, files map[string]string) (dir, bin string) {
	t.Helper()
	return buildOnce(t, modPath, files, false, false)
}

// BuildFuzz is Build of a binary instrumented for fuzzing, as
// testbin.BuildFuzz builds it, with the hook.
func BuildFuzz(t testing.TB, modPath string, files map[string]string) (dir, bin string) {
	t.Helper()
	return buildOnce(t, modPath, files, true, true)
}

func buildOnce(t testing.TB, modPath string, files map[string]string, hooks, fuzz bool) (dir, bin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	mu.Lock()
	defer mu.Unlock()
	key := fmt.Sprint(modPath, " ", hooks, " ", fuzz)
	r, ok := built[key]
	if !ok {
		r = build(modPath, files, hooks, fuzz)
		built[key] = r
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.dir, r.bin
}

func build(modPath string, files map[string]string, hooks, fuzz bool) result {
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
	args := []string{"test", "-c", "-vet=off", "-o", filepath.Join(dir, "x.test")}
	if fuzz {
		args = append(args, "-fuzz=.")
	}
	if hooks {
		hookDir, err := os.MkdirTemp("", "fuzzmin-hooks")
		if err != nil {
			return result{err: err}
		}
		defer os.RemoveAll(hookDir)
		overlay, err := testbin.WriteHooks(hookDir, dir, modPath, dir, hookTargets(files))
		if err != nil {
			return result{err: err}
		}
		args = append(args, overlay)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return result{err: fmt.Errorf("%v\n%s", err, out)}
	}
	return result{dir: dir, bin: filepath.Join(dir, "x.test")}
}

// hookTargets finds the fuzz targets of the test files, for the hook.
func hookTargets(files map[string]string) []testbin.HookTarget {
	var targets []testbin.HookTarget
	for name, src := range files {
		if !strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
		if err != nil {
			continue // go test says what is wrong
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") && fn.Type.Params.NumFields() == 1 {
				pkg := f.Name.Name
				targets = append(targets, testbin.HookTarget{Name: fn.Name.Name, Package: pkg, External: strings.HasSuffix(pkg, "_test")})
			}
		}
	}
	return targets
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
// in dir, the root of its module, built by the go command on PATH, as
// Build builds it, with the hook; the test ends its fuzz worker.
func Runner(t testing.TB, bin, dir, target string, timeout time.Duration) *testbin.Runner {
	t.Helper()
	goroot, goversion := GoEnv(t)
	b := &testbin.Binary{Path: bin, ModDir: dir, PkgDir: dir, Toolchain: testbin.Identify(bin, goroot, goversion, filepath.Join(goroot, "src")),
		Timeout: timeout, Env: os.Environ(), RAM: t.TempDir(), Hooked: true}
	r, err := b.Runner(target, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// Main runs the tests of m, and removes what Build built, for the TestMain
// of a package whose tests run fuzzmin's pipeline: go test then runs the
// test binary as its -exec program (testbin.StartBuild), which Main
// serves instead of running the tests.
func Main(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == testbin.ExecArg {
		os.Exit(testbin.RunExecWrapper(os.Args[2:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	Cleanup()
	os.Exit(code)
}
