package formats

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"io"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

// IsGzip reports whether s starts with a gzip member's header: its two
// identification bytes and the deflate method (RFC 1952, 2.3.1).
func IsGzip(s []byte) bool { return len(s) >= 3 && s[0] == 0x1f && s[1] == 0x8b && s[2] == 8 }

// IsZlib reports whether s starts with a zlib stream's header (RFC 1950,
// 2.2): the deflate method, a window of at most 32 KiB, no preset
// dictionary, and the check that makes the two bytes a multiple of 31.
func IsZlib(s []byte) bool {
	return len(s) >= 2 && s[0]&0x0f == 8 && s[0]>>4 <= 7 && s[1]&0x20 == 0 && (uint(s[0])<<8|uint(s[1]))%31 == 0
}

// IsXz reports whether s starts with an xz stream's magic bytes.
func IsXz(s []byte) bool { return bytes.HasPrefix(s, xz.Magic) }

// IsZip reports whether s starts with a zip archive's first local file
// header.
func IsZip(s []byte) bool { return bytes.HasPrefix(s, []byte("PK\x03\x04")) }

// Decompress returns the content of s, if s starts with a gzip member, a
// zlib stream, an xz stream or a zip archive (its files one after the
// other), as far as it reads and at most max bytes; the xz stream must
// decode whole. It is lenient, as a test that decompresses its input is: a
// stream cut short or with a wrong checksum still gives what it read.
func Decompress(s []byte, max int) ([]byte, bool) {
	var r io.Reader
	var err error
	switch {
	case IsXz(s):
		st, ok := xz.Read(s, max)
		return st.Content, ok && len(st.Content) > 0
	case IsZip(s):
		r, err = unzip(s)
	case IsGzip(s):
		r, err = gzip.NewReader(bytes.NewReader(s))
	case IsZlib(s):
		r, err = zlib.NewReader(bytes.NewReader(s))
	default:
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	b, _ := io.ReadAll(io.LimitReader(r, int64(max)))
	return b, len(b) > 0
}

// unzip returns a reader of the files of the zip archive s, one after the
// other, as far as they read.
func unzip(s []byte) (io.Reader, error) {
	z, err := zip.NewReader(bytes.NewReader(s), int64(len(s)))
	if err != nil {
		return nil, err
	}
	var files []io.Reader
	for _, f := range z.File {
		if rc, err := f.Open(); err == nil {
			files = append(files, rc)
		}
	}
	return io.MultiReader(files...), nil
}
