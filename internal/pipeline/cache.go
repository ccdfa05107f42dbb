package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// fuzzmin's cache directory holds what one run can reuse from the last:
// the message templates of each package's source (templates.go) and the
// packages' test binaries (binaryPath). It is $FUZZMINCACHE, or fuzzmin in
// the user's cache directory (os.UserCacheDir); FUZZMINCACHE=off turns it
// off. What no run has used for cacheMaxAge is removed, as the go command
// trims GOCACHE, at most once per cacheTrimEvery.

const (
	cacheEnv       = "FUZZMINCACHE"
	cacheMaxAge    = 5 * 24 * time.Hour
	cacheTrimEvery = 24 * time.Hour
	// binarySlots is how many copies of one test binary the cache holds,
	// for as many runs at once; a run that finds them all held builds
	// its own, as go test does.
	binarySlots = 3
)

// cacheDir returns fuzzmin's cache directory, or "" if there is none.
func cacheDir() string {
	if dir := os.Getenv(cacheEnv); dir != "" {
		if dir == "off" {
			return ""
		}
		return dir
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "fuzzmin")
}

// binaryPath returns where the test binary of p that kind names ("test",
// "fuzz", "cover") and flags build goes: a slot of the cache that this run
// holds until it calls release. The go command skips the link when the
// binary there is up to date (go test -o, go test -c -o), so a package
// that has not changed is linked once for every run after. With no cache,
// or every slot of the binary held by other runs, bin is "": the binary is
// the run's own, as go test's is.
func (c *Run) binaryPath(p *Package, kind string, flags []string) (bin string, release func()) {
	root := cacheDir()
	if root == "" {
		return "", func() {}
	}
	c.trimCache.Do(func() { trimCache(root) })
	h := sha256.New()
	for _, s := range append([]string{kind, p.Dir, p.ImportPath}, flags...) {
		if strings.HasPrefix(s, "-overlay=") {
			s = "-overlay" // the hook's: its files are the run's
		}
		h.Write([]byte(s + "\x00"))
	}
	key := hex.EncodeToString(h.Sum(nil))[:32]
	for i := range binarySlots {
		dir := filepath.Join(root, "bin", key+"-"+string(rune('0'+i)))
		if os.MkdirAll(dir, 0o777) != nil {
			return "", func() {}
		}
		f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return "", func() {}
		}
		if lockFile(f, false) != nil {
			f.Close()
			continue
		}
		now := time.Now()
		os.Chtimes(dir, now, now) // used: see trimCache
		return filepath.Join(dir, path.Base(p.ImportPath)+"."+kind), func() { f.Close() }
	}
	return "", func() {}
}

// BinaryStamp is the hash of the binary at path, "" if there is none or
// unless verbose (it is for -v's build line): the same stamp after go test
// -c -o says the go command found it up to date. (Its modification time
// does not say: the go command touches a target it finds up to date.)
func BinaryStamp(path string, verbose bool) string {
	if !verbose {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return string(h.Sum(nil))
}

// UpToDate reports whether the build left the binary at path as it was:
// before is its stamp from before the build.
func UpToDate(path, before string) bool {
	return before != "" && BinaryStamp(path, true) == before
}

// HoldBinary returns binaryPath's path for a binary that the run uses
// until it ends (a campaign's fuzzing and coverage binaries), or def if
// the cache has no slot for it.
func (c *Run) HoldBinary(p *Package, kind string, flags []string, def string) string {
	path, release := c.binaryPath(p, kind, flags)
	if path == "" {
		return def
	}
	c.slots = append(c.slots, release)
	return path
}

// trimCache removes from the cache root what no run has used for
// cacheMaxAge: binary slots no run holds, and template files. It looks at
// most once per cacheTrimEvery.
func trimCache(root string) {
	mark := filepath.Join(root, "trimmed")
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < cacheTrimEvery {
		return
	}
	if os.MkdirAll(root, 0o777) != nil || os.WriteFile(mark, nil, 0o666) != nil {
		return
	}
	old := func(fi os.FileInfo) bool { return time.Since(fi.ModTime()) > cacheMaxAge }
	slots, _ := os.ReadDir(filepath.Join(root, "bin"))
	for _, de := range slots {
		dir := filepath.Join(root, "bin", de.Name())
		fi, err := os.Stat(dir)
		if err != nil || !old(fi) {
			continue
		}
		if f, err := os.Open(filepath.Join(dir, "lock")); err == nil {
			if lockFile(f, false) == nil {
				os.RemoveAll(dir)
			}
			f.Close()
		}
	}
	shards, _ := os.ReadDir(filepath.Join(root, "templates"))
	for _, sd := range shards {
		files, _ := os.ReadDir(filepath.Join(root, "templates", sd.Name()))
		for _, de := range files {
			if fi, err := de.Info(); err == nil && old(fi) {
				os.Remove(filepath.Join(root, "templates", sd.Name(), de.Name()))
			}
		}
	}
}

// touchCacheFile marks the cache file path as used now, if it was not
// marked within the hour (as the go command marks GOCACHE's files).
func touchCacheFile(path string, fi os.FileInfo) {
	if time.Since(fi.ModTime()) > time.Hour {
		now := time.Now()
		os.Chtimes(path, now, now)
	}
}
