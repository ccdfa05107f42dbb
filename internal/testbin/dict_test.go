package testbin

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestLiterals(t *testing.T) {
	src := "package p\n\nimport \"strings\"\n\nimport (\n\tx \"bytes\"\n\t\"fmt\"\n)\n\n" +
		"const magic = 0x7a69 // 31337\n\nfunc f(s string, n uint16) {\n" +
		"\tif n == 31337 || n > 1_023 || s == \"FUZZME\" || s[0] == 'é' || x.Equal(nil, nil) {\n" +
		"\t\tfmt.Println(strings.Repeat(`raw`, 0), 1, 2.5e3, \"\", 18446744073709551615)\n\t}\n}\n"
	got := literals([]byte(src))
	want := []string{"int 31337", "int 31337", "int 1023", `string "FUZZME"`, "int 233", `string "é"`, `string "raw"`, "float 2500", "int 18446744073709551615"}
	if !slices.Equal(got, want) {
		t.Errorf("literals =\n%q\nwant\n%q", got, want)
	}
}

func TestWriteDict(t *testing.T) {
	pkg, dep := t.TempDir(), t.TempDir()
	for path, src := range map[string]string{
		filepath.Join(pkg, "a.go"):      "package p\nconst a, b = 31337, \"FUZZME\"\n",
		filepath.Join(pkg, "a_test.go"): "package p\nvar c = []string{\"FUZZME\", \"seed\"}\n",
		filepath.Join(pkg, "b.txt"):     "package p\nconst d = 999\n",
		filepath.Join(dep, "d.go"):      "package d\nfunc f(s string) bool { return s == \"@valid\" || s == \"seed\" }\n",
		filepath.Join(dep, "d_test.go"): "package d\nvar crasher = \"0.#[[{}]]\"\n",
	} {
		if err := os.WriteFile(path, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "dict")
	if err := WriteDict([]string{pkg, dep}, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The package's tests count, an imported package's do not.
	if got, want := string(data), strings.Join([]string{"int 31337", `string "FUZZME"`, `string "seed"`, `string "@valid"`, ""}, "\n"); got != want {
		t.Errorf("dict =\n%s\nwant\n%s", got, want)
	}
}

// TestWriteDictBounds checks that an imported package gives
// maxDepLiterals literals at most, and the whole maxLiterals.
func TestWriteDictBounds(t *testing.T) {
	var dirs []string
	for i := range 6 {
		dir := t.TempDir()
		var src strings.Builder
		src.WriteString("package d\nvar x = []int{")
		for k := range 2 * maxDepLiterals {
			fmt.Fprintf(&src, "%d, ", 1000*(i+1)*maxLiterals+k)
		}
		src.WriteString("}\n")
		if err := os.WriteFile(filepath.Join(dir, "d.go"), []byte(src.String()), 0o666); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	path := filepath.Join(t.TempDir(), "dict")
	if err := WriteDict(dirs, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	perDir := map[int]int{}
	for _, l := range lines {
		n, err := strconv.Atoi(strings.TrimPrefix(l, "int "))
		if err != nil {
			t.Fatalf("line %q", l)
		}
		perDir[n/(1000*maxLiterals)-1]++
	}
	want := map[int]int{0: 2 * maxDepLiterals, 1: maxDepLiterals, 2: maxLiterals - 3*maxDepLiterals}
	if len(lines) != maxLiterals || !maps.Equal(perDir, want) {
		t.Errorf("%d literals, by directory %v; want %d, %v", len(lines), perDir, maxLiterals, want)
	}
}

// FuzzLiterals checks that any text, Go or not, gives lines the hook
// reads back.
func FuzzLiterals(f *testing.F) {
	f.Add([]byte("package p\nconst s = \"a\\x00\" + 'b'\nvar x = 0b1_0 + 0x1p-2 + 1e400\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, l := range literals(src) {
			kind, lit, ok := strings.Cut(l, " ")
			if !ok || strings.Contains(l, "\n") {
				t.Fatalf("line %q", l)
			}
			var err error
			switch kind {
			case "int":
				_, err = strconv.ParseUint(lit, 10, 64)
			case "float":
				_, err = strconv.ParseFloat(lit, 64)
			case "string":
				_, err = strconv.Unquote(lit)
			default:
				t.Fatalf("line %q of kind %q", l, kind)
			}
			if err != nil {
				t.Fatalf("line %q: %v", l, err)
			}
		}
	})
}
