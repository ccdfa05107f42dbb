package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestName checks names against files the toolchain named itself.
func TestName(t *testing.T) {
	for _, tt := range []struct{ data, name string }{
		{"go test fuzz v1\nstring(\"a000\")\nint(36)\n", "6290cf6946e40484"},
		{"go test fuzz v1\nstring(\"0000\")\nint(0)\n", "d85271990a5c9399"},
	} {
		if got := Name([]byte(tt.data)); got != tt.name {
			t.Errorf("Name(%q) = %s, want %s", tt.data, got, tt.name)
		}
	}
}

func TestRead(t *testing.T) {
	pkg := t.TempDir()
	dir := SeedCorpus(pkg, "FuzzX")
	good := "go test fuzz v1\nstring(\"a\")\nint(1)\n"
	writeFile(t, filepath.Join(dir, "good"), good)
	writeFile(t, filepath.Join(dir, "crlf"), "go test fuzz v1\r\nstring(\"b\")\r\nint(2)\r\n")
	writeFile(t, filepath.Join(dir, "malformed"), "go test fuzz v1\nstring(\"a\")\nint(x)\n")
	writeFile(t, filepath.Join(dir, "badversion"), "go test fuzz v2\nint(1)\n")
	writeFile(t, filepath.Join(dir, "empty"), "")
	writeFile(t, filepath.Join(dir, "subdir", "file"), good)
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
		t.Fatal(err)
	}
	big := "go test fuzz v1\n[]byte(\"" + strings.Repeat("x", 8<<20) + "\")\n"
	writeFile(t, filepath.Join(dir, "big"), big)
	huge, err := os.Create(filepath.Join(dir, "huge"))
	if err != nil {
		t.Fatal(err)
	}
	huge.Truncate(MaxFileSize + 1) // sparse: no disk used
	huge.Close()

	entries, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Entry{}
	var names []string
	for _, e := range entries {
		byName[e.Name] = e
		names = append(names, e.Name)
		if e.Path != filepath.Join(dir, e.Name) {
			t.Errorf("%s: Path = %s", e.Name, e.Path)
		}
		if e.Err != nil && !strings.HasPrefix(e.Err.Error(), e.Path+":") {
			t.Errorf("%s: error %q does not start with the path", e.Name, e.Err)
		}
	}
	if want := "badversion big crlf empty fifo good huge loop malformed subdir"; strings.Join(names, " ") != want {
		t.Errorf("entries = %s, want %s", strings.Join(names, " "), want)
	}
	for _, tt := range []struct {
		name    string
		values  []any
		errWant string // substring of Err after the path
	}{
		{name: "good", values: []any{"a", 1}},
		{name: "crlf", values: []any{"b", 2}},
		{name: "big", values: []any{[]byte(strings.Repeat("x", 8<<20))}},
		{name: "malformed", errWant: `:3: "int(x)": literal value required`},
		{name: "badversion", errWant: `:1: unknown encoding version "go test fuzz v2"`},
		{name: "empty", errWant: ":1: empty file"},
		{name: "subdir", errWant: ": is a directory"},
		{name: "fifo", errWant: ": is not a regular file"},
		{name: "loop", errWant: ": stat: too many levels of symbolic links"},
		{name: "huge", errWant: ": file is 268435457 bytes, larger than the 256 MiB limit"},
	} {
		e := byName[tt.name]
		if tt.errWant != "" {
			if e.Err == nil || !strings.Contains(e.Err.Error(), e.Path+tt.errWant) {
				t.Errorf("%s: Err = %v, want %q", tt.name, e.Err, e.Path+tt.errWant)
			}
			continue
		}
		if e.Err != nil || !reflect.DeepEqual(e.Values, tt.values) {
			t.Errorf("%s: Values = %.80v, %v; want %.80v", tt.name, e.Values, e.Err, tt.values)
		}
	}
}

func TestRead_MissingDirIsEmpty(t *testing.T) {
	entries, err := Read(filepath.Join(t.TempDir(), "nope"))
	if err != nil || len(entries) != 0 {
		t.Errorf("Read(missing) = %v, %v; want no entries, no error", entries, err)
	}
	if _, err := Read(writeTemp(t, "file")); err == nil {
		t.Errorf("Read(a file) succeeded, want an error")
	}
}

func writeTemp(t *testing.T, data string) string {
	p := filepath.Join(t.TempDir(), "f")
	writeFile(t, p, data)
	return p
}

func TestTargets(t *testing.T) {
	pkg := t.TempDir()
	if got, err := Targets(pkg); err != nil || got != nil {
		t.Errorf("Targets(no testdata) = %v, %v", got, err)
	}
	writeFile(t, filepath.Join(SeedCorpus(pkg, "FuzzB"), "x"), "")
	writeFile(t, filepath.Join(SeedCorpus(pkg, "FuzzA"), "x"), "")
	writeFile(t, filepath.Join(pkg, SeedDir, "README"), "not a target")
	got, err := Targets(pkg)
	if err != nil || !reflect.DeepEqual(got, []string{"FuzzA", "FuzzB"}) {
		t.Errorf("Targets = %v, %v; want [FuzzA FuzzB]", got, err)
	}
}

func TestCacheCorpus(t *testing.T) {
	got := CacheCorpus("/c", "example.com/m/pkg", "FuzzX")
	if want := filepath.FromSlash("/c/fuzz/example.com/m/pkg/FuzzX"); got != want {
		t.Errorf("CacheCorpus = %s, want %s", got, want)
	}
	gocache, err := GoCache(".")
	if err != nil {
		t.Skip(err)
	}
	if !filepath.IsAbs(gocache) {
		t.Errorf("GoCache = %q, want an absolute path", gocache)
	}
}

func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata", "fuzz", "FuzzX")
	vals := []any{"bad", 1001}
	path, err := Write(dir, vals...)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := encoding.Marshal(vals...)
	if path != filepath.Join(dir, Name(data)) {
		t.Errorf("Write path = %s, want the toolchain's name %s", path, Name(data))
	}
	e := ReadEntry(path)
	if e.Err != nil || !reflect.DeepEqual(e.Values, vals) {
		t.Errorf("read back %v, %v; want %v", e.Values, e.Err, vals)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm()&0o044 == 0 {
		t.Errorf("mode %v: want a file readable like os.WriteFile's", fi.Mode())
	}
	// Writing the same values again is a no-op.
	if again, err := Write(dir, vals...); err != nil || again != path {
		t.Errorf("second Write = %s, %v; want %s, nil", again, err, path)
	}
	// A different file under the same name is never replaced.
	if err := os.WriteFile(path, []byte("user data"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(dir, vals...); err == nil || !strings.Contains(err.Error(), "exists with other contents") {
		t.Errorf("Write over another file: %v, want an error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "user data" {
		t.Errorf("the other file was changed to %q", b)
	}
	assertOnly(t, dir, Name(data))
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	assertOnly(t, dir)
	if _, err := Write(dir, complex(1, 1)); err == nil {
		t.Errorf("Write(complex) succeeded")
	}
	assertOnly(t, dir)
}

func TestWrite_ReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if _, err := Write(dir, 1); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("Write into a read-only dir: %v, want a permission error", err)
	}
	assertOnly(t, dir)
}

// assertOnly checks that dir holds exactly the named files: no temporary
// files are left behind.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	des, _ := os.ReadDir(dir)
	var got []string
	for _, de := range des {
		got = append(got, de.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

// TestRemoveTemporary checks that the temporary files of writes that were
// killed are removed, beside the directory and, from older releases,
// inside it, once they are a minute old, and that nothing else is.
func TestRemoveTemporary(t *testing.T) {
	fuzzDir := t.TempDir()
	dir := filepath.Join(fuzzDir, "FuzzS")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Minute)
	files := map[string]bool{ // path: removed
		filepath.Join(fuzzDir, ".fuzzmin-FuzzS-0a219a8e2b54873e.tmp3k2j1"): true,
		filepath.Join(dir, ".0a219a8e2b54873e.tmp8z7y"):                    true,
		filepath.Join(fuzzDir, ".fuzzmin-FuzzT-0a219a8e2b54873e.tmp3k2j1"): false, // another target's
		filepath.Join(dir, "0a219a8e2b54873e"):                             false, // an entry
		filepath.Join(dir, ".0a219a8e2b54873e.tmp"):                        false, // no random suffix: not ours
		filepath.Join(dir, ".notes.tmp12"):                                 false,
		filepath.Join(fuzzDir, "README"):                                   false,
	}
	for path := range files {
		if err := os.WriteFile(path, []byte("x"), 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	// Young files: of a write under way here, of unknown writer, and of a
	// writer that is gone.
	files[filepath.Join(fuzzDir, fmt.Sprintf(".fuzzmin-FuzzS-1a219a8e2b54873e.tmp%d-99", os.Getpid()))] = false
	files[filepath.Join(fuzzDir, ".fuzzmin-FuzzS-2a219a8e2b54873e.tmp99")] = false
	if dead := exitedPID(t); dead > 0 {
		files[filepath.Join(fuzzDir, fmt.Sprintf(".fuzzmin-FuzzS-3a219a8e2b54873e.tmp%d-99", dead))] = true
	}
	for path := range files {
		if _, err := os.Stat(path); err != nil {
			if err := os.WriteFile(path, []byte("x"), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := RemoveTemporary(dir); err != nil {
		t.Fatal(err)
	}
	for path, removed := range files {
		_, err := os.Stat(path)
		if gone := errors.Is(err, fs.ErrNotExist); gone != removed {
			t.Errorf("%s: removed %v, want %v", path, gone, removed)
		}
	}
}

// TestWriteFile_NoTemporaryInside checks that a write leaves the corpus
// directory with the entry alone, and its parent as it was.
func TestWriteFile_NoTemporaryInside(t *testing.T) {
	fuzzDir := t.TempDir()
	dir := filepath.Join(fuzzDir, "FuzzS")
	path, err := Write(dir, 1001)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, fuzzDir} {
		des, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		if len(des) != 1 {
			t.Errorf("%s holds %d files after a write, want 1", d, len(des))
		}
	}
	if filepath.Dir(path) != dir {
		t.Errorf("Write wrote %s, want a file in %s", path, dir)
	}
}

// exitedPID returns the process id of a process that has exited, or 0
// where processes cannot be told apart (not Unix).
func exitedPID(t *testing.T) int {
	if runtime.GOOS == "windows" {
		return 0
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}
