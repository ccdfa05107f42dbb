package testbin

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// Room in memory. The files written for every candidate (a private corpus,
// a fuzz worker's shared memory, a session's files) go to Binary.RAM, a
// tmpfs at /dev/shm where there is one. A tmpfs can be small (Docker gives
// a container 64 MiB): a write past its end fails with ENOSPC, and a page
// of a mapped file that has no room ends the process that touches it with
// SIGBUS. So the shared memory is allocated before it is mapped, and what
// does not fit goes to Binary.Disk instead, which the user is told once
// under -v (Binary.Note).

// allocateFile gives f size bytes of storage, all of it, so that a mapping
// of it never faults for want of room: the error says there is none.
func allocateFile(f *os.File, size int64) error {
	if err := fallocate(f, size); err == nil || !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	// Write zeros where the system cannot reserve storage outright.
	if err := f.Truncate(0); err != nil {
		return err
	}
	zeros := make([]byte, min(size, 1<<20))
	for left := size; left > 0; left -= int64(len(zeros)) {
		if _, err := f.Write(zeros[:min(left, int64(len(zeros)))]); err != nil {
			return err
		}
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// noRoom reports whether err says that a file system is full.
func noRoom(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// note tells the user, through b.Note, that what was meant for memory
// went to disk.
func (b *Binary) note(format string, args ...any) {
	if b.Note != nil {
		b.Note(fmt.Sprintf(format, args...))
	}
}

// scratchDirs are where the files of candidates may go, in order: RAM, then
// Disk.
func (b *Binary) scratchDirs() []string {
	if b.Disk == "" || b.Disk == b.RAM {
		return []string{b.RAM}
	}
	return []string{b.RAM, b.Disk}
}

// sharedFile creates a file of size bytes, allocated, for memory shared
// with a fuzz worker: in RAM, or in Disk if RAM has no room.
func (b *Binary) sharedFile(size int64) (*os.File, error) {
	var errs []error
	for _, dir := range b.scratchDirs() {
		f, err := os.CreateTemp(dir, "worker-*")
		if err == nil {
			if err = allocateFile(f, size); err == nil {
				if dir != b.RAM {
					b.note("fuzzmin: %s has no room for the fuzz worker's memory (%d bytes); it is a file in %s", b.RAM, size, dir)
				}
				return f, nil
			}
			f.Close()
			os.Remove(f.Name())
		}
		errs = append(errs, fmt.Errorf("%s: %w", dir, err))
		if !noRoom(err) {
			break
		}
	}
	return nil, fmt.Errorf("no room for the fuzz worker's memory (%d bytes): %w", size, errors.Join(errs...))
}

// toDisk moves the runner's private corpus from RAM, which is full, to
// Disk, and reports whether it did.
func (r *Runner) toDisk() bool {
	if r.Disk == "" || r.Disk == r.RAM || filepath.Dir(r.private) != r.RAM {
		return false
	}
	dir, err := os.MkdirTemp(r.Disk, "corpus-")
	if err != nil {
		return false
	}
	if os.Remove(r.corpus) != nil || os.Symlink(dir, r.corpus) != nil {
		os.RemoveAll(dir)
		return false
	}
	os.RemoveAll(r.private)
	r.note("fuzzmin: %s has no room for the candidates of %s; they are files in %s", r.RAM, r.Target, r.Disk)
	r.private, r.written, r.inputs = dir, 0, nil
	return true
}

// ScratchFor returns the directory for files of a search that writes
// about size bytes at a time (a session's current and best candidates):
// RAM if it has room for a few times that, Disk if it does not.
func (b *Binary) ScratchFor(size int64) string {
	dirs := b.scratchDirs()
	if free, ok := freeSpace(b.RAM); ok && free < 4*size+1<<20 && len(dirs) > 1 {
		b.note("fuzzmin: %s has no room for a session's files (%d bytes free); they are files in %s", b.RAM, free, b.Disk)
		return b.Disk
	}
	return b.RAM
}
