package testscript_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeLibrarySteps runs the README's steps for using the library
// from a clone as a newcomer runs them: in the order written, in a module
// of their own beside the clone (../fuzzmin), with no network. Each go
// command must succeed, and the last, go test, must pass the test the
// steps say to write.
func TestReadmeLibrarySteps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Using the library\n")
	if !ok {
		t.Fatal("README.md has no section Using the library")
	}
	_, block, ok := strings.Cut(section, "\n```\n")
	block, _, ok2 := strings.Cut(block, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("README.md's Using the library has no block of commands")
	}

	dir := t.TempDir()
	if err := os.Symlink(root, filepath.Join(dir, "fuzzmin")); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "mine")
	if err := os.MkdirAll(mod, 0o777); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/mine\n\ngo 1.26\n")
	env := append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local")
	wrote, ran := false, 0
	for _, line := range strings.Split(block, "\n") {
		cmdline, comment, _ := strings.Cut(line, "#")
		if strings.Contains(comment, "write a test") {
			write("sorted_test.go", sortedTest)
			wrote = true
		}
		args := strings.Fields(cmdline)
		if len(args) == 0 {
			continue
		}
		if args[0] != "go" {
			t.Fatalf("README.md: the library's steps run %s; this test runs only go commands", args[0])
		}
		cmd := exec.Command("go", args[1:]...)
		cmd.Dir, cmd.Env = mod, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("README.md's step %q, run in order: %v\n%s", strings.TrimSpace(cmdline), err, out)
		}
		ran++
	}
	if !wrote || ran < 3 {
		t.Fatalf("README.md's library steps: ran %d go commands and wrote the test %v; want the replace, the test, tidy and go test", ran, wrote)
	}
}

const sortedTest = `package mine

import (
	"slices"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

func TestSorted(t *testing.T) {
	fuzzshrink.Check(t, func(t *fuzzshrink.T) {
		xs := fuzzshrink.SliceOf(fuzzshrink.IntRange(0, 9)).Draw(t, "xs")
		slices.Sort(xs)
		if !slices.IsSorted(xs) {
			t.Fatalf("not sorted: %v", xs)
		}
	})
}
`
