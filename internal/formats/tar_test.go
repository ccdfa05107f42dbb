package formats

import (
	"archive/tar"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// tarOf writes files (name, content) with archive/tar, as ustar headers
// with times, modes and owners, and the blocks that end an archive.
func tarOf(t testing.TB, files ...string) []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for i := 0; i < len(files); i += 2 {
		h := &tar.Header{Name: files[i], Mode: 0o644, Size: int64(len(files[i+1])), ModTime: time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC),
			Uname: "user", Gname: "staff", Format: tar.FormatUSTAR}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[i+1]))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// untar reads every regular file of an archive with archive/tar, as far
// as it reads.
func untar(b []byte) (names, contents []string) {
	r := tar.NewReader(bytes.NewReader(b))
	for {
		h, err := r.Next()
		if err != nil {
			return names, contents
		}
		c, err := io.ReadAll(r)
		if err != nil {
			return names, contents
		}
		names, contents = append(names, h.Name), append(contents, string(c))
	}
}

func TestReadTar(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("key=value, and more of it\n", 40)
	in := tarOf(t, "a.txt", text, "dir/b.conf", "level=9\n", "empty", "")
	tr, ok := readTar(in)
	if !ok || len(tr.files) != 3 || !tr.ustar || !tr.ended {
		t.Fatalf("readTar = %+v, %v; want 3 files, ustar, ended", tr, ok)
	}
	// Each form, written again, reads back through archive/tar; the
	// smallest is no larger than what the input's form writes.
	for _, ustar := range []bool{false, true} {
		for _, ended := range []bool{false, true} {
			y := tr
			y.ustar, y.ended = ustar, ended
			enc := y.encode()
			names, contents := untar(enc)
			if strings.Join(names, ",") != "a.txt,dir/b.conf,empty" || strings.Join(contents, "") != text+"level=9\n" {
				t.Errorf("ustar %v, ended %v: archive/tar reads %q, %d bytes", ustar, ended, names, len(strings.Join(contents, "")))
			}
			if back, ok := readTar(enc); !ok || back.ustar != ustar || back.ended != ended || len(back.files) != 3 {
				t.Errorf("ustar %v, ended %v: read back as %+v", ustar, ended, back)
			}
		}
	}
	// In its own form, without times, modes and owners, it is as long.
	if c := tr.encode(); len(c) != len(in) || bytes.Equal(c, in) {
		t.Errorf("written again in its form: %d bytes, equal %v; want %d, not equal", len(c), bytes.Equal(c, in), len(in))
	}
	// Not a tar archive: a header whose checksum does not hold.
	bad := bytes.Clone(in)
	bad[0] ^= 1
	if _, ok := readTar(bad); ok {
		t.Error("read an archive whose first header's checksum does not hold")
	}
}

// FuzzReadTar checks that an archive readTar reads, written again in each
// form, reads back to the same files.
func FuzzReadTar(f *testing.F) {
	f.Add(tarOf(f, "a.txt", "some text, some text", "dir/", ""))
	f.Add(append(tarHeader(tarFile{content: []byte("level=9")}), "level=9"...))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, ok := readTar(b)
		if !ok {
			return
		}
		for _, ustar := range []bool{false, true} {
			for _, ended := range []bool{false, true} {
				y := tr
				y.ustar, y.ended = ustar, ended
				back, ok := readTar(y.encode())
				if !ok || len(back.files) != len(tr.files) {
					t.Fatalf("ustar %v, ended %v: %d files read back (%v), want %d", ustar, ended, len(back.files), ok, len(tr.files))
				}
				for i, f := range back.files {
					if g := tr.files[i]; !bytes.Equal(f.name, g.name) || !bytes.Equal(f.content, g.content) || f.dir != g.dir {
						t.Fatalf("ustar %v, ended %v: file %d read back as %+v, want %+v", ustar, ended, i, f, g)
					}
				}
			}
		}
	})
}
