package fuzzshrink

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// Check persists the failures it shrinks as go test fuzz v1 files of one
// []byte value, the choice sequence, in testdata/fuzz/<test name>/, named
// as the toolchain names corpus files (the first 16 hex digits of the
// SHA-256 of the content), and replays them before generating anything.

// corpusDir is the directory of a test's persisted failures.
func corpusDir(testName string) string {
	return filepath.Join("testdata", "fuzz", filepath.FromSlash(testName))
}

// A corpusEntry is a persisted choice sequence, or why a file is not one.
type corpusEntry struct {
	name string
	data []byte
	err  error
}

// readCorpus reads the choice sequences of dir in name order. A missing
// directory holds none; a file that is not a go test fuzz v1 file of one
// []byte is an entry with an error.
func readCorpus(dir string) []corpusEntry {
	if dir == "" {
		return nil
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return []corpusEntry{{name: dir, err: err}}
	}
	sort.Slice(des, func(i, j int) bool { return des[i].Name() < des[j].Name() })
	var es []corpusEntry
	for _, de := range des {
		if !de.Type().IsRegular() || de.Name()[0] == '.' {
			continue
		}
		path := filepath.Join(dir, de.Name())
		e := corpusEntry{name: path}
		b, err := os.ReadFile(path)
		if err == nil {
			var vals []any
			if vals, err = encoding.Unmarshal(b); err == nil {
				if data, ok := vals[0].([]byte); ok && len(vals) == 1 {
					e.data = data
				} else {
					err = fmt.Errorf("%d values, want one []byte", len(vals))
				}
			}
		}
		if err != nil {
			e.err = fmt.Errorf("%q: %v", path, err)
		}
		es = append(es, e)
	}
	return es
}

// writeCorpus writes a choice sequence to dir atomically (a temporary file
// in dir, synced, renamed) and returns the file's path. A file of the same
// content is already there under the same name.
func writeCorpus(dir string, data []byte) (string, error) {
	b, err := encoding.Marshal(data)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	path := filepath.Join(dir, hex.EncodeToString(sum[:])[:16])
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, ".fuzzshrink-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(0o644) // not CreateTemp's 0600: a file to commit
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return path, nil
}
