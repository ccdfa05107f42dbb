package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLiteralDirs checks that the literals of a harness package come from
// it, then from what it and its tests import, nearest first, leaving out
// the standard library.
func TestLiteralDirs(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"m/go.mod":           "module m\n\ngo 1.26\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
		"m/h/h.go":           "package h\n\nimport _ \"m/util\"\n",
		"m/h/h_test.go":      "package h\n\nimport (\n\t\"testing\"\n\n\t\"example.com/dep\"\n)\n\nfunc FuzzH(f *testing.F) { f.Fuzz(func(t *testing.T, s string) { dep.Parse(s) }) }\n",
		"m/util/util.go":     "package util\n\nimport \"strings\"\n\nvar _ = strings.Cut\n",
		"dep/go.mod":         "module example.com/dep\n\ngo 1.26\n",
		"dep/dep.go":         "package dep\n\nimport \"example.com/dep/inner\"\n\nfunc Parse(s string) bool { return inner.Is(s) }\n",
		"dep/inner/inner.go": "package inner\n\nfunc Is(s string) bool { return s == \"@valid\" }\n",
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(root, "m")
	c := &Run{Env: os.Environ()}
	c.Dir = dir
	got, err := c.LiteralDirs(context.Background(), &Package{ImportPath: "m/h", Args: []string{"m/h"}, Dir: filepath.Join(dir, "h")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "h"), filepath.Join(root, "dep"), filepath.Join(dir, "util"), filepath.Join(root, "dep", "inner")}
	if !slices.Equal(got, want) {
		t.Errorf("LiteralDirs =\n%q\nwant\n%q", got, want)
	}
}
