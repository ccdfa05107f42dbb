package testbin

import (
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
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go":      "package p\nconst a, b = 31337, \"FUZZME\"\n",
		"a_test.go": "package p\nvar c = []string{\"FUZZME\", \"seed\"}\n",
		"b.txt":     "package p\nconst d = 999\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "dict")
	if err := WriteDict(dir, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), strings.Join([]string{"int 31337", `string "FUZZME"`, `string "seed"`, ""}, "\n"); got != want {
		t.Errorf("dict =\n%s\nwant\n%s", got, want)
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
