package formats

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"
	"time"
)

// zipOf writes files (name, content) with archive/zip: deflated through
// Create (with data descriptors), or through CreateRaw with sizes known
// and the method given, a comment after the end record.
func zipOf(t testing.TB, raw bool, method uint16, files ...string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i < len(files); i += 2 {
		name, content := files[i], []byte(files[i+1])
		if !raw {
			f, err := w.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(content)
			continue
		}
		data := content
		if method == zip.Deflate {
			var d bytes.Buffer
			fw, _ := flate.NewWriter(&d, flate.BestCompression)
			fw.Write(content)
			fw.Close()
			data = d.Bytes()
		}
		f, err := w.CreateRaw(&zip.FileHeader{Name: name, Method: method, Modified: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC),
			CRC32: crc32.ChecksumIEEE(content), CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(len(content))})
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	w.SetComment("a comment")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// unzipAll reads every file of an archive with archive/zip.
func unzipAll(b []byte) (names, contents []string, err error) {
	r, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			return nil, nil, err
		}
		c, err := io.ReadAll(rc)
		if err != nil {
			return nil, nil, err
		}
		names, contents = append(names, f.Name), append(contents, string(c))
	}
	return names, contents, nil
}

func TestReadZip(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("key=value, and more of it\n", 20)
	files := []string{"a.txt", text, "dir/b.conf", "level=9\n", "empty", ""}
	for _, tt := range []struct {
		name   string
		in     []byte
		ok     bool
		prefix int
	}{
		{"data descriptors", zipOf(t, false, 0, files...), true, 0},
		{"deflated", zipOf(t, true, zip.Deflate, files...), true, 0},
		{"stored", zipOf(t, true, zip.Store, files...), true, 0},
		{"after a prefix", append([]byte("#!/bin/sh\nexit 0\n"), zipOf(t, true, zip.Deflate, files...)...), true, 17},
		{"no files", zipOf(t, false, 0), false, 0},
	} {
		z, ok := readZip(tt.in)
		if ok != tt.ok {
			t.Errorf("%s: read %v, want %v", tt.name, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if z.start != tt.prefix || z.end != len(tt.in) || len(z.files) != 3 {
			t.Errorf("%s: [%d, %d) of %d, %d files; want [%d, %d), 3", tt.name, z.start, z.end, len(tt.in), len(z.files), tt.prefix, len(tt.in))
			continue
		}
		// Written again, archive/zip reads the same files, and the
		// archive is no larger.
		enc := z.encode()
		names, contents, err := unzipAll(enc)
		if err != nil || strings.Join(names, ",") != "a.txt,dir/b.conf,empty" || strings.Join(contents, "") != text+"level=9\n" {
			t.Errorf("%s: written again, archive/zip reads %q, %q, %v", tt.name, names, contents, err)
		}
		if len(enc) > z.end-z.start {
			t.Errorf("%s: written again in %d bytes, from %d", tt.name, len(enc), z.end-z.start)
		}
	}
	// A file whose deflated data changed, or whose CRC-32 does not hold,
	// or whose local header is gone, is left out; with no file left, it
	// is no archive of ours. A CRC-32 of 0 is none.
	in := zipOf(t, true, zip.Deflate, files...)
	dir := bytes.Index(in, []byte("PK\x01\x02"))
	var locals []int
	for i := 0; i < dir; i++ {
		if bytes.HasPrefix(in[i:], []byte("PK\x03\x04")) {
			locals = append(locals, i)
		}
	}
	for _, tt := range []struct {
		name  string
		at    []int
		files string
	}{
		{"a's data", []int{30 + len("a.txt") + 5}, "dir/b.conf,empty"},
		{"a's crc", []int{dir + 16}, "dir/b.conf,empty"},
		{"a's local header", []int{0}, "dir/b.conf,empty"},
		{"every local header", locals, ""},
	} {
		c := bytes.Clone(in)
		for _, at := range tt.at {
			c[at] ^= 0x55
		}
		z, ok := readZip(c)
		var names []string
		for _, f := range z.files {
			names = append(names, string(f.name))
		}
		if ok != (tt.files != "") || strings.Join(names, ",") != tt.files {
			t.Errorf("%s changed: read %v, files %q, want %q", tt.name, ok, names, tt.files)
		}
	}
	// Bytes removed before the directory, its offsets not fixed up, count
	// from before the input's start, as archive/zip reckons them.
	cut := append(bytes.Clone(in[:2]), in[2+4:]...)
	if z, ok := readZip(cut); !ok || len(z.files) != 2 || z.start != 0 {
		t.Errorf("4 bytes cut from the first local header: read %v, %d files from %d; want 2 from 0", ok, len(z.files), z.start)
	}
	noCRC := zipArchive{files: []zipFile{{name: []byte("x"), method: zipDeflated, noCRC: true, content: []byte(text)}}}
	if z, ok := readZip(noCRC.encode()); !ok || !z.files[0].noCRC || string(z.files[0].content) != text {
		t.Errorf("an archive with no CRC-32: read %v, %+v", ok, z.files)
	}
}

// FuzzReadZip checks that readZip takes any bytes without panicking, and
// that an archive it reads, written again, reads back to the same files.
func FuzzReadZip(f *testing.F) {
	f.Add(zipOf(f, false, 0, "a.txt", "some text, some text", "b", ""))
	f.Add(zipOf(f, true, zip.Store, "level.conf", "level=9"))
	f.Fuzz(func(t *testing.T, b []byte) {
		z, ok := readZip(b)
		if !ok {
			return
		}
		back, ok := readZip(z.encode())
		if !ok || len(back.files) != len(z.files) {
			t.Fatalf("written again, %d files read (%v), want %d", len(back.files), ok, len(z.files))
		}
		for i, f := range back.files {
			g := z.files[i]
			if !bytes.Equal(f.name, g.name) || !bytes.Equal(f.content, g.content) || f.method != g.method || f.noCRC != g.noCRC {
				t.Fatalf("file %d written again: %+v, want %+v", i, f, g)
			}
		}
	})
}

// BenchmarkZipRewrites measures an archive's first candidates: 50 files
// of 1.3 KB, 204 archives written, each file's deflation shared by those
// that keep its content.
func BenchmarkZipRewrites(b *testing.B) {
	var files []string
	for i := range 50 {
		files = append(files, fmt.Sprintf("dir/file%02d.conf", i), strings.Repeat(fmt.Sprintf("key%d=value %d\n", i, i*7), 60))
	}
	z, ok := readZip(zipOf(b, false, 0, files...))
	if !ok {
		b.Fatal("the archive does not read")
	}
	for b.Loop() {
		z.rewrites()
	}
}
