package testbintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// WriteModule writes a module of path modPath with files (name → content)
// to dir and warms the build cache for it, as a user's is.
func WriteModule(tb testing.TB, dir, modPath string, files map[string]string) {
	tb.Helper()
	gomod := "module " + modPath + "\n\ngo 1.26\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		tb.Fatal(err)
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o777); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	GoTest(tb, dir, "-count=1", "-run=^$", ".")
}

// GoTest runs go test with args in dir, and fails tb if it fails.
func GoTest(tb testing.TB, dir string, args ...string) {
	tb.Helper()
	start := time.Now()
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go test %s: %v (%v)\n%s", strings.Join(args, " "), err, time.Since(start), out)
	}
}

// WrappedModule writes a module of path modPath that uses this
// repository's fuzzshrink, with one test file, and returns its directory.
func WrappedModule(tb testing.TB, modPath, testSrc string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	dir := tb.TempDir()
	files := map[string]string{
		"go.mod":    "module " + modPath + "\n\ngo 1.26\n\nrequire github.com/fuzzmin/fuzzmin v0.0.0\n\nreplace github.com/fuzzmin/fuzzmin => " + root + "\n",
		"x_test.go": testSrc,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o666); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}
