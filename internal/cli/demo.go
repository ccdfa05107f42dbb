package cli

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"golang.org/x/tools/txtar"
)

//go:embed demo.txtar
var demoArchive []byte

// runDemo copies the embedded example module to a temporary directory,
// minimizes its crasher there, and shows the corpus before and after.
func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fuzzmin demo", flag.ContinueOnError)
	if code, ok := parseFlags(fs, "demo", args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return subUsage(stderr, "demo", errors.New("takes no arguments"))
	}
	sc, err := pipeline.NewScratch(os.TempDir(), "demo")
	if err != nil {
		fmt.Fprintf(stderr, "fuzzmin demo: %v\n", err)
		return pipeline.ExitFailure
	}
	defer sc.Remove()
	dir := sc.Path
	ar := txtar.Parse(demoArchive)
	for _, f := range ar.Files {
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		err := os.MkdirAll(filepath.Dir(name), 0o777)
		if err == nil {
			err = os.WriteFile(name, f.Data, 0o666)
		}
		if err != nil {
			fmt.Fprintf(stderr, "fuzzmin demo: %v\n", err)
			return pipeline.ExitFailure
		}
	}
	corpusDir := filepath.Join(dir, "testdata", "fuzz", "FuzzParse")
	fmt.Fprintf(stdout, "An example package, example.com/kv, parses key=value configuration strings.\n")
	fmt.Fprintf(stdout, "go test -fuzz found a crasher for it; this is the file it saved:\n\n")
	showCorpus(stdout, corpusDir)
	fmt.Fprintf(stdout, "\n$ fuzzmin ./...   (in a temporary copy: %s)\n", dir)

	ctx, finish, stop := pipeline.Interruptible()
	defer stop()
	start := time.Now()
	o := newMinimizeCmd().(*minimizeCmd)
	o.Dir, o.m = dir, &pipeline.Matcher{}
	c := pipeline.NewRun(o.Common, stdout, stderr, finish)
	c.Env = append(c.Env, "GOFLAGS=-mod=mod", "GOWORK=off")
	c.Rep.NoRerun = true // the copy is removed at the end
	code := o.run(ctx, c, []string{"./..."})
	if code != pipeline.ExitOK {
		return code
	}
	fmt.Fprintf(stdout, "\nAfter (%v, build and verification included), the corpus holds:\n\n", time.Since(start).Round(time.Millisecond))
	showCorpus(stdout, corpusDir)
	fmt.Fprintf(stdout, "\nThe bug: a quoted value that ends in a backslash makes Parse read past the end (kv.go:34).\n")
	return pipeline.ExitOK
}

func showCorpus(w io.Writer, dir string) {
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		data, _ := os.ReadFile(filepath.Join(dir, de.Name()))
		fmt.Fprintf(w, "  testdata/fuzz/FuzzParse/%s:\n", de.Name())
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", line)
		}
	}
}
