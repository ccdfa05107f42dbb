package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// Example lists the targets of a package that have a seed corpus, and the
// entries of one, a malformed file among them.
func Example() {
	pkg, _ := os.MkdirTemp("", "corpus-example")
	defer os.RemoveAll(pkg)

	// Save a failing input the way go test -fuzz does, and a broken file.
	dir := corpus.SeedCorpus(pkg, "FuzzParse")
	path, _ := corpus.Write(dir, []byte("bad"), 1001)
	os.WriteFile(filepath.Join(dir, "broken"), []byte("go test fuzz v1\nint(x)\n"), 0o666)

	targets, _ := corpus.Targets(pkg)
	fmt.Println(targets)
	entries, _ := corpus.Read(dir)
	for _, e := range entries {
		if e.Err != nil {
			rel, _ := filepath.Rel(pkg, e.Path)
			fmt.Println("skip", rel, e.Err.Error()[len(e.Path):])
			continue
		}
		fmt.Println(e.Name == filepath.Base(path), e.Values)
	}
	// Output:
	// [FuzzParse]
	// true [[98 97 100] 1001]
	// skip testdata/fuzz/FuzzParse/broken :2: "int(x)": literal value required for primitive type
}

// ExampleWrite rewrites an entry: the smaller input is written under the
// toolchain's name, and only then is the original removed.
func ExampleWrite() {
	pkg, _ := os.MkdirTemp("", "corpus-example")
	defer os.RemoveAll(pkg)
	dir := corpus.SeedCorpus(pkg, "FuzzParse")
	orig, _ := corpus.Write(dir, "a crasher that go test -fuzz found", 98765432)

	e := corpus.ReadEntry(orig)
	s, n := e.Values[0].(string), e.Values[1].(int)
	path, err := corpus.Write(dir, s[:9], n/98765432)
	if err != nil {
		fmt.Println(err)
		return
	}
	corpus.Remove(orig)

	entries, _ := corpus.Read(dir)
	for _, e := range entries {
		fmt.Printf("%s %q\n", e.Name, e.Data)
	}
	fmt.Println(filepath.Base(path) == corpus.Name(entries[0].Data))
	// Output:
	// 7b10ca06ee9ed628 "go test fuzz v1\nstring(\"a crasher\")\nint(1)\n"
	// true
}
