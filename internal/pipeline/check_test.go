package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/corpus"
)

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

func TestDuplicates(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a"), "go test fuzz v1\nint(1)\n")
	write(t, filepath.Join(dir, "b"), "go test fuzz v1\r\n  int(0x1) // same value\n\n")
	write(t, filepath.Join(dir, "c"), "go test fuzz v1\nint(2)\n")
	write(t, filepath.Join(dir, "d"), "go test fuzz v1\nfloat64(-0)\n")
	write(t, filepath.Join(dir, "e"), "go test fuzz v1\nfloat64(0)\n")
	write(t, filepath.Join(dir, "f"), "go test fuzz v1\nbyte('a')\n")
	write(t, filepath.Join(dir, "g"), "go test fuzz v1\nuint8(97)\n")
	write(t, filepath.Join(dir, "h"), "bad")
	write(t, filepath.Join(dir, "i"), "bad")
	entries, err := corpus.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range duplicates(entries) {
		var names []string
		for _, e := range g {
			names = append(names, e.Name)
		}
		got = append(got, strings.Join(names, "="))
	}
	if want := "a=b f=g"; strings.Join(got, " ") != want {
		t.Errorf("duplicates = %v, want %s", got, want)
	}
}
