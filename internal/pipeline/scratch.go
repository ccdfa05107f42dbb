package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A scratch directory holds what fuzzmin writes outside the user's testdata:
// test binaries, the mirror of the module, private corpora, sessions, and
// (through GOTMPDIR and TMPDIR) the temporary files of the go command and of
// the tests it runs. Each is named fuzzmin-<what>-<random> and holds a lock
// file, lockName, that the process keeps locked while it runs. A run removes
// its own at the end; a run killed before it could is swept by the next one,
// which removes the fuzzmin-* directories that hold a lock file nobody
// holds. A directory without the lock file is not ours and is left alone,
// and one whose lock is held belongs to a live run (in this system, or in
// another container sharing the directory: locks are the kernel's).
type scratch struct {
	Path string
	lock *os.File
}

const lockName = ".fuzzmin-lock"

// scratchPlaces are where scratch directories are made and swept: the
// temporary directory, and /dev/shm, which holds the corpora written for
// every batch where it is a tmpfs.
var scratchPlaces = []string{os.TempDir(), "/dev/shm"}

// NewScratch makes a scratch directory in parent. The directory is made and
// locked under a name the sweep ignores, then renamed: a sweep never sees
// one of ours before it is locked.
func NewScratch(parent, what string) (*scratch, error) {
	staging, err := os.MkdirTemp(parent, ".fuzzmin-new-")
	if err != nil {
		return nil, err
	}
	lock, err := os.Create(filepath.Join(staging, lockName))
	if err == nil {
		err = lockFile(lock, true)
	}
	if err != nil {
		if lock != nil {
			lock.Close()
		}
		os.RemoveAll(staging)
		return nil, err
	}
	path := filepath.Join(parent, "fuzzmin-"+what+"-"+strings.TrimPrefix(filepath.Base(staging), ".fuzzmin-new-"))
	if err := os.Rename(staging, path); err != nil {
		lock.Close()
		os.RemoveAll(staging)
		return nil, err
	}
	return &scratch{Path: path, lock: lock}, nil
}

// Remove removes the directory, then lets its lock go.
func (s *scratch) Remove() {
	removeScratch(s.Path)
	s.lock.Close()
}

// sweepScratch removes the scratch directories of runs that ended without
// removing them.
func sweepScratch() {
	for _, place := range scratchPlaces {
		des, err := os.ReadDir(place)
		if err != nil {
			continue
		}
		for _, de := range des {
			if de.IsDir() && strings.HasPrefix(de.Name(), "fuzzmin-") {
				sweep(filepath.Join(place, de.Name()))
			}
		}
	}
}

// sweep removes dir if it holds a lock file that nobody holds.
func sweep(dir string) {
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
	if err != nil {
		return // not ours, or gone
	}
	defer lock.Close()
	if err := lockFile(lock, false); err != nil {
		return // a live run holds it, or locks are not supported here
	}
	removeScratch(dir)
}

// removeScratch removes a scratch directory, its lock file last: a process
// the killed run started may still write into it, and a removal that fails
// must leave the directory marked as ours, for the next sweep.
func removeScratch(dir string) {
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if de.Name() != lockName {
			os.RemoveAll(filepath.Join(dir, de.Name()))
		}
	}
	lock := filepath.Join(dir, lockName)
	if os.Remove(lock) == nil && os.Remove(dir) != nil {
		// Something wrote into it meanwhile: mark it ours again.
		if f, err := os.Create(lock); err == nil {
			f.Close()
		}
	}
}

// errNoLocks is what lockFile returns where files cannot be locked.
var errNoLocks = errors.New("file locks are not supported on this system")

// makeScratch sweeps what killed runs left and makes this run's scratch
// directories: one on disk, in gotmpdir if the user set GOTMPDIR, and one
// in memory if /dev/shm is a tmpfs. The go command and the test binaries
// keep their temporary files in the disk one (GOTMPDIR, TMPDIR), so that
// what they leave when killed goes with it.
func (c *Run) makeScratch(gotmpdir string) error {
	sweepScratch()
	parent := gotmpdir
	if parent == "" {
		parent = os.TempDir()
	}
	var err error
	if c.Disk, err = NewScratch(parent, "run"); err != nil {
		return fmt.Errorf("making a temporary directory: %w", err)
	}
	tmp := filepath.Join(c.Disk.Path, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		c.Disk.Remove()
		return fmt.Errorf("making a temporary directory: %w", err)
	}
	c.Env = append(c.Env, "GOTMPDIR="+tmp, "TMPDIR="+tmp)
	c.RAM = c.Disk
	if ram, err := NewScratch("/dev/shm", "ram"); err == nil {
		c.RAM = ram
	}
	return nil
}

func (c *Run) removeScratch() {
	for _, release := range c.slots {
		release()
	}
	if c.RAM != c.Disk {
		c.RAM.Remove()
	}
	c.Disk.Remove()
}
