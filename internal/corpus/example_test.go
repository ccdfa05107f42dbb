package corpus_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
)

func Example() {
	pkg, _ := os.MkdirTemp("", "corpus-example")
	defer os.RemoveAll(pkg)

	// Save a failing input the way go test -fuzz does, then list the corpus.
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
