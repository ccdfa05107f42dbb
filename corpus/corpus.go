package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// SeedDir is where a package keeps its seed corpora, relative to the
// package directory; each target has a subdirectory named after it.
const SeedDir = "testdata/fuzz"

// MaxFileSize bounds the corpus files Read loads; a larger file is
// reported, not read. The toolchain has no limit, but no fuzzer writes such
// a file, and minimizing one would not fit in memory.
const MaxFileSize = 256 << 20

// ErrIsDir is the error of an entry that is a directory, which go test
// skips.
var ErrIsDir = errors.New("is a directory, not a corpus file (go test skips it)")

// An Entry is one file of a corpus directory.
type Entry struct {
	Name   string // file name, the toolchain's subtest name
	Path   string
	Data   []byte // file contents; nil if the file could not be read
	Values []any  // decoded values; nil if Err is set
	Err    error  // why the entry is unusable, as "path: reason" or "path:line: reason"
}

// Targets returns the names of the fuzz targets that have a seed corpus
// directory in the package directory pkgDir, sorted.
func Targets(pkgDir string) ([]string, error) {
	des, err := os.ReadDir(filepath.Join(pkgDir, filepath.FromSlash(SeedDir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, de := range des {
		if fi, err := os.Stat(filepath.Join(pkgDir, filepath.FromSlash(SeedDir), de.Name())); err == nil && fi.IsDir() {
			names = append(names, de.Name())
		}
	}
	return names, nil
}

// SeedCorpus returns the seed corpus directory of target in pkgDir.
func SeedCorpus(pkgDir, target string) string {
	return filepath.Join(pkgDir, filepath.FromSlash(SeedDir), target)
}

// CacheCorpus returns the directory where the toolchain caches the
// generated corpus of target in the package with the given import path,
// under the build cache directory gocache (see [GoCache]).
func CacheCorpus(gocache, importPath, target string) string {
	return filepath.Join(gocache, "fuzz", filepath.FromSlash(importPath), target)
}

// GoCache returns the build cache directory as the go command sees it
// (GOCACHE, go.env files and defaults), running "go env GOCACHE" in dir.
func GoCache(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOCACHE")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOCACHE: %w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	gocache := strings.TrimSpace(string(out))
	if gocache == "" || gocache == "off" {
		return "", fmt.Errorf("go env GOCACHE: the build cache is off, so there is no generated corpus")
	}
	return gocache, nil
}

// Read reads every entry of a corpus directory, sorted by name. A missing
// directory is an empty corpus; an error is returned only if the directory
// exists but cannot be listed. Bad entries come back with Err set.
func Read(dir string) ([]Entry, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	entries := make([]Entry, 0, len(des))
	for _, de := range des {
		entries = append(entries, ReadEntry(filepath.Join(dir, de.Name())))
	}
	return entries, nil
}

// ReadEntry reads and decodes one corpus file.
func ReadEntry(path string) Entry {
	e := Entry{Name: filepath.Base(path), Path: path}
	fail := func(format string, args ...any) Entry {
		e.Err = fmt.Errorf("%s: "+format, append([]any{path}, args...)...)
		return e
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fail("%v", unwrapPath(err))
	case fi.IsDir():
		e.Err = fmt.Errorf("%s: %w", path, ErrIsDir)
		return e
	case !fi.Mode().IsRegular():
		return fail("is not a regular file (%v)", fi.Mode().Type())
	case fi.Size() > MaxFileSize:
		return fail("file is %d bytes, larger than the %d MiB limit", fi.Size(), MaxFileSize>>20)
	}
	if e.Data, err = os.ReadFile(path); err != nil {
		return fail("%v", unwrapPath(err))
	}
	vals, err := encoding.Unmarshal(e.Data)
	if se := (*encoding.SyntaxError)(nil); errors.As(err, &se) {
		e.Err = fmt.Errorf("%s:%d: %s", path, se.Line, se.Msg)
		return e
	} else if err != nil {
		return fail("%v", err)
	}
	if len(vals) == 0 {
		// The toolchain reads such a file, then refuses it for every
		// target: "wrong number of values in corpus entry: 0, want 1".
		e.Err = fmt.Errorf("%s:1: wrong number of values in corpus entry: 0: the file holds its header line and no value", path)
		return e
	}
	e.Values = vals
	return e
}

// unwrapPath drops the path from an *fs.PathError, which the caller names.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// Name returns the file name the toolchain gives a corpus file with these
// contents: the first 16 hex digits of their SHA-256.
func Name(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// Write encodes vals and writes them into dir (created if missing) under
// the toolchain's name, atomically, and returns the file's path. If the
// file already exists with the same contents, Write leaves it alone; if it
// exists with other contents, Write fails and changes nothing.
func Write(dir string, vals ...any) (string, error) {
	data, err := encoding.Marshal(vals...)
	if err != nil {
		return "", err
	}
	return WriteFile(dir, data)
}

// WriteFile is [Write] for an encoded file.
func WriteFile(dir string, data []byte) (path string, err error) {
	path = filepath.Join(dir, Name(data))
	if same, err := hasContents(path, data); err != nil || same {
		return path, err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	err = link(filepath.Dir(dir), tempPrefix(dir), path, data)
	if errors.Is(err, syscall.EXDEV) {
		// The directory is a file system of its own: the file is written
		// in it, under a name the next run removes if this one is killed.
		err = link(dir, ".", path, data)
	}
	if err != nil {
		if same, err2 := hasContents(path, data); err2 == nil && same {
			return path, nil
		}
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("%s: exists with other contents; not replaced", path)
		}
		return "", err
	}
	syncDir(dir)
	return path, nil
}

// link writes data to a new file in tmpDir, named prefix, data's name and
// a random suffix, and links it to path.
func link(tmpDir, prefix, path string, data []byte) error {
	tmp, err := createTemp(tmpDir, prefix+Name(data)+".tmp")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()
		os.Remove(tmp.Name()) // linked into place or abandoned: the temporary name goes
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// A hard link, unlike a rename, fails if the name exists: a file that
	// appeared meanwhile is not replaced.
	return os.Link(tmp.Name(), path)
}

// The file being written lives beside the corpus directory until it is
// linked into place, in its parent (testdata/fuzz), where the toolchain
// never reads: a file left inside the directory by a write that was killed
// would be replayed by go test as an entry. Its name says whose it is:
// .fuzzmin-<directory>-<name>.tmp<random>. (Only where the directory is a
// file system of its own, which no link can reach from outside, is the file
// written in it, as .<name>.tmp<random>.)
func tempPrefix(dir string) string { return ".fuzzmin-" + filepath.Base(dir) + "-" }

// tempAge is how old a temporary file must be before RemoveTemporary takes
// it for abandoned: a write takes milliseconds.
const tempAge = time.Minute

// RemoveTemporary removes the temporary files that writes into dir left
// when they were killed before they could remove them: those beside dir
// (see WriteFile) and, from releases that wrote them inside dir,
// .<name>.tmp<random> files there (and where the directory is a file system
// of its own, which WriteFile writes in). A file whose writer is still
// running here, or that is younger than a minute and whose writer cannot
// be told, may belong to a write under way, and is left.
func RemoveTemporary(dir string) error {
	var errs []error
	sweep := func(dir string, ours func(name string) (pid int, ok bool)) {
		des, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			return
		}
		for _, de := range des {
			pid, ok := ours(de.Name())
			if !de.Type().IsRegular() || !ok {
				continue
			}
			if fi, err := de.Info(); err != nil || time.Since(fi.ModTime()) < tempAge && (pid == 0 || processAlive(pid)) {
				continue
			}
			if err := os.Remove(filepath.Join(dir, de.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	prefix := tempPrefix(dir)
	sweep(filepath.Dir(dir), func(name string) (int, bool) {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			return tempName(rest)
		}
		return 0, false
	})
	sweep(dir, func(name string) (int, bool) {
		if rest, ok := strings.CutPrefix(name, "."); ok {
			return tempName(rest)
		}
		return 0, false
	})
	return errors.Join(errs...)
}

// tempName reads name as <name>.tmp<pid>-<random>, as WriteFile names a
// file being written after its prefix (or <name>.tmp<random>, as older
// releases did): ok says it is one, and pid is its writer's, 0 if unknown.
func tempName(name string) (pid int, ok bool) {
	hash, random, ok := strings.Cut(name, ".tmp")
	if !ok || len(hash) != 16 || random == "" {
		return 0, false
	}
	for _, r := range hash {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return 0, false
		}
	}
	id, rest, hasPID := strings.Cut(random, "-")
	if hasPID {
		random = rest
		n, err := strconv.Atoi(id)
		if err != nil || n <= 0 {
			return 0, false
		}
		pid = n
	}
	for _, r := range random {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'z') {
			return 0, false
		}
	}
	return pid, random != ""
}

// createTemp creates a new file in dir named prefix and a random suffix. Unlike
// os.CreateTemp it creates the file with mode 0666 less the umask, as the
// toolchain's corpus files are.
func createTemp(dir, prefix string) (*os.File, error) {
	for range 100 {
		// The suffix starts with the writer's process id, which tells
		// RemoveTemporary that a file is abandoned once the process is gone.
		name := filepath.Join(dir, prefix+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("%s: cannot create a temporary file", dir)
}

// hasContents reports whether path is a file holding data. A missing file is
// not an error; another file there is.
func hasContents(path string, data []byte) (bool, error) {
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !bytes.Equal(old, data) {
		return false, fmt.Errorf("%s: exists with other contents; not replaced", path)
	}
	return true, nil
}

// syncDir makes a new directory entry durable where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Remove removes a corpus file.
func Remove(path string) error {
	if err := os.Remove(path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}
