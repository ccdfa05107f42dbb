package formats

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

func gzipped(t testing.TB, content []byte) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(content)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zlibbed(t testing.TB, content []byte) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write(content)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipped(t testing.TB, files ...string) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i, content := range files {
		f, err := w.Create(string(rune('a' + i)))
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(content))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecompress checks each format's detector and what Decompress reads:
// the content, the files of a zip archive one after the other, as much of
// a stream cut short as reads, at most max bytes, and nothing of what is
// not a stream.
func TestDecompress(t *testing.T) {
	content := []byte("the content of the stream, the content of the stream")
	gz, zl := gzipped(t, content), zlibbed(t, content)
	for _, tt := range []struct {
		name   string
		in     []byte
		max    int
		want   string
		wantOK bool
	}{
		{"gzip", gz, 1 << 20, string(content), true},
		{"zlib", zl, 1 << 20, string(content), true},
		{"xz", xz.Encode(content, xz.CheckCRC32, false), 1 << 20, string(content), true},
		{"zip", zipped(t, "one ", "two"), 1 << 20, "one two", true},
		{"gzip at most max", gz, 7, string(content[:7]), true},
		{"gzip cut short", gz[:len(gz)-8], 1 << 20, string(content), true},
		{"zlib, a wrong checksum", append(zl[:len(zl)-4:len(zl)-4], 0, 0, 0, 0), 1 << 20, string(content), true},
		{"text", []byte("not compressed"), 1 << 20, "", false},
		{"a gzip header alone", gz[:3], 1 << 20, "", false},
		{"zlib with a preset dictionary", []byte{0x78, 0xbb, 0, 0}, 1 << 20, "", false},
		{"empty", nil, 1 << 20, "", false},
	} {
		got, ok := Decompress(tt.in, tt.max)
		if string(got) != tt.want || ok != tt.wantOK {
			t.Errorf("%s: Decompress = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
}

// TestDetectors checks the headers each detector takes and refuses.
func TestDetectors(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   []byte
		is   func([]byte) bool
		want bool
	}{
		{"gzip", []byte{0x1f, 0x8b, 8}, IsGzip, true},
		{"gzip, another method", []byte{0x1f, 0x8b, 7}, IsGzip, false},
		{"zlib, default", []byte{0x78, 0x9c}, IsZlib, true},
		{"zlib, best", []byte{0x78, 0xda}, IsZlib, true},
		{"zlib, a window past 32 KiB", []byte{0x88, 0x1f}, IsZlib, false},
		{"zlib, a bad check", []byte{0x78, 0x9d}, IsZlib, false},
		{"zlib, a dictionary", []byte{0x78, 0xbb}, IsZlib, false},
		{"xz", xz.Magic, IsXz, true},
		{"xz, cut", xz.Magic[:5], IsXz, false},
		{"zip", []byte("PK\x03\x04"), IsZip, true},
		{"zip's end record", []byte("PK\x05\x06"), IsZip, false},
	} {
		if got := tt.is(tt.in); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzDecompress checks that Decompress never reads past max, and that a
// gzip member of any content decompresses to it.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte("content"), []byte{0x1f, 0x8b, 8, 0})
	f.Add([]byte(""), []byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, content, raw []byte) {
		if got, _ := Decompress(raw, 64); len(got) > 64 {
			t.Fatalf("read %d bytes, more than max 64", len(got))
		}
		got, ok := Decompress(gzipped(t, content), len(content)+1)
		if !bytes.Equal(got, content) || ok != (len(content) > 0) {
			t.Fatalf("the gzip member of %q decompresses to %q, %v", content, got, ok)
		}
	})
}
