package main

import (
	"flag"
	"os"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/cli"
)

var update = flag.Bool("update", false, "rewrite doc.go from the manual")

// TestDoc checks that doc.go, which go doc shows, is the manual that -help
// prints; go test -update rewrites it.
func TestDoc(t *testing.T) {
	want := "/*\n" + cli.Manual() + "*/\npackage main\n"
	if *update {
		if err := os.WriteFile("doc.go", []byte(want), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("doc.go is not the manual; run go test -update ./cmd/fuzzmin")
	}
}
