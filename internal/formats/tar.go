package formats

import (
	"archive/tar"
	"bytes"
	"io"
	"slices"
	"strconv"
)

// Tar archives. Each file is a 512-byte header (its name, its size in
// octal digits, a checksum of the header's bytes, also in octal) and its
// data, padded to 512 bytes; two blocks of zeros end the archive. Removing
// a byte of a file changes its size, its header's checksum and the padding
// at once, so the inflate pass reads an archive whose input it is (from
// its first byte, through archive/tar) and writes each candidate as a
// whole archive in the form the input had (encode), each file's content
// shrunk as a stream's is.

// A tarArchive is the archive an input holds.
type tarArchive struct {
	files []tarFile
	ustar bool // its first header is ustar's: candidates are as archive/tar writes them
	ended bool // it ends with the two blocks of zeros, its last file padded
}

type tarFile struct {
	name    []byte
	dir     bool
	content []byte
}

const tarBlock = 512

// readTar reads the archive s holds: the regular files and directories
// archive/tar reads, names of at most 100 bytes, at most maxInflated bytes
// in all. Other entries (links, devices) are left out, and so is what
// follows a header that does not read.
func readTar(s []byte) (tarArchive, bool) {
	if len(s) < tarBlock {
		return tarArchive{}, false
	}
	t := tarArchive{
		ustar: string(s[257:262]) == "ustar",
		ended: len(s) >= 3*tarBlock && len(s)%tarBlock == 0 && !slices.ContainsFunc(s[len(s)-2*tarBlock:], func(c byte) bool { return c != 0 }),
	}
	r := tar.NewReader(bytes.NewReader(s))
	total := 0
	for {
		h, err := r.Next()
		if err != nil || len(h.Name) > 100 {
			break
		}
		if h.Typeflag != tar.TypeReg && h.Typeflag != tar.TypeDir {
			continue
		}
		content, err := io.ReadAll(io.LimitReader(r, int64(maxInflated-total+1)))
		if err != nil || total+len(content) > maxInflated {
			break
		}
		total += len(content)
		t.files = append(t.files, tarFile{name: []byte(h.Name), dir: h.Typeflag == tar.TypeDir, content: content})
	}
	return t, len(t.files) > 0
}

// encodeWith returns the archive with file i's content replaced.
func (t tarArchive) encodeWith(i int, content []byte) []byte {
	t.files = slices.Clone(t.files)
	t.files[i].content = content
	return t.encode()
}

// rewrites returns the candidates of the archive as a whole, smallest
// first: the archive in each form, without each file, and with each
// file's name empty or cut to its extension or base name.
func (t tarArchive) rewrites() [][]byte {
	var out distinct
	add := func(t tarArchive) { out.add(t.encode()) }
	for _, ustar := range []bool{false, t.ustar} {
		for _, ended := range []bool{false, t.ended} {
			y := t
			y.ustar, y.ended = ustar, ended
			add(y)
		}
	}
	for i := range t.files {
		if len(t.files) > 1 {
			y := t
			y.files = slices.Delete(slices.Clone(t.files), i, i+1)
			add(y)
		}
		for _, short := range shorterNames(t.files[i].name) {
			y := t
			y.files = slices.Clone(t.files)
			y.files[i].name = short
			add(y)
		}
	}
	return out.sorted()
}

// encode returns the archive in its form: as archive/tar writes ustar
// headers (if it writes them: not a file name that ends in a slash), or
// else headers of zeros but for the name, the size and the checksum, their
// digits at the ends of their fields (archive/tar reads numbers with NULs
// around them); ended, or else without the padding of its last file and
// the blocks that end an archive.
func (t tarArchive) encode() []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for _, f := range t.files {
		if !t.ustar {
			b.Write(make([]byte, (tarBlock-b.Len()%tarBlock)%tarBlock)) // the padding of the file before
			b.Write(tarHeader(f))
			b.Write(f.content)
			continue
		}
		h := &tar.Header{Name: string(f.name), Typeflag: tar.TypeReg, Size: int64(len(f.content)), Format: tar.FormatUSTAR}
		if f.dir {
			h.Typeflag = tar.TypeDir
		}
		if w.WriteHeader(h) != nil { // a name archive/tar does not write
			t.ustar = false
			return t.encode()
		}
		w.Write(f.content)
	}
	out := b.Bytes()
	if t.ended {
		out = append(out, make([]byte, (tarBlock-len(out)%tarBlock)%tarBlock+2*tarBlock)...)
	}
	return out
}

// tarHeader returns the smallest header of f that archive/tar reads. The
// data before it must be padded: the padding of each file is written with
// the next header.
func tarHeader(f tarFile) []byte {
	h := make([]byte, tarBlock)
	copy(h, f.name)
	if size := len(f.content); size > 0 {
		digits := strconv.FormatInt(int64(size), 8)
		copy(h[136-len(digits):136], digits)
	}
	switch {
	case f.dir:
		h[156] = tar.TypeDir
	case bytes.HasSuffix(f.name, []byte("/")):
		h[156] = tar.TypeReg // with a 0 there, archive/tar takes such a name for a directory's
	}
	sum := 8 * int(' ') // the checksum's own field counts as spaces
	for _, c := range h {
		sum += int(c)
	}
	digits := strconv.FormatInt(int64(sum), 8)
	copy(h[156-len(digits):156], digits)
	return h
}
