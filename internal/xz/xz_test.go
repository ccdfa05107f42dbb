package xz

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRead reads streams the xz command wrote, of LZMA chunks and
// uncompressed ones, with every check, several blocks, sizes in block
// headers and other literal and position bits.
func TestRead(t *testing.T) {
	t.Parallel()
	text := readFile(t, "text.txt")
	random := readFile(t, "random.bin")
	mixed := bytes.Join([][]byte{text, random, text}, nil)
	for _, tt := range []struct {
		file    string // written by xz
		content []byte
		check   byte
		lzma    bool
	}{
		{"text.xz", text, CheckCRC64, true},              // xz text.txt
		{"text-blocks-crc32.xz", text, CheckCRC32, true}, // xz -T2 -C crc32 --block-size=3000
		{"text-sha256.xz", text, CheckSHA256, true},      // xz -C sha256 -9e
		{"text-props.xz", text, CheckNone, true},         // xz -C none --lzma2=preset=6,lc=0,lp=2,pb=0
		{"random.xz", random, CheckCRC64, false},         // xz random.bin: uncompressed chunks
		{"mixed.xz", mixed, CheckCRC64, true},            // xz --block-size=9000 of text, random, text
	} {
		b := readFile(t, tt.file)
		s, ok := Read(append(bytes.Clone(b), "after"...), 1<<20)
		if !ok {
			t.Errorf("%s: not read", tt.file)
			continue
		}
		if !bytes.Equal(s.Content, tt.content) || s.Check != tt.check || s.LZMA != tt.lzma || s.Len != len(b) {
			t.Errorf("%s: %d bytes of content, check %#x, LZMA %v, length %d; want %d, %#x, %v, %d", tt.file, len(s.Content), s.Check, s.LZMA, s.Len, len(tt.content), tt.check, tt.lzma, len(b))
		}
		if _, ok := Read(b, len(tt.content)-1); ok {
			t.Errorf("%s: read with a limit below its content", tt.file)
		}
		// Any byte changed, the stream is not read, or reads as
		// another content (a literal's bits), never as the same.
		for i := 0; i < len(b); i += 1 + len(b)/97 {
			c := bytes.Clone(b)
			c[i] ^= 0x10
			if s, ok := Read(c, 1<<20); ok && bytes.Equal(s.Content, tt.content) {
				t.Errorf("%s: read the same with byte %d changed", tt.file, i)
			}
		}
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEncode checks the smallest stream of a short content byte for
// byte, as xz -t accepts it (56 bytes: see internal/shapes/xz).
func TestEncode(t *testing.T) {
	t.Parallel()
	want := []byte("\xfd7zXZ\x00\x00\x00\xff\x12\xd9\x41" +
		"\x02\x00\x21\x01\x00\x00\x00\x00\x37\x27\x97\xd6" + "\x01\x00\x06level=8\x00" + "\x00" +
		"\x00\x01\x17\x07\x1e\xa4\x61\xbb" + "\x06\x72\x9e\x7a\x01\x00\x00\x00\x00\x00YZ")
	if got := Encode([]byte("level=8"), CheckNone, false); !bytes.Equal(got, want) {
		t.Errorf("Encode = %q, want %q", got, want)
	}
	// Text in LZMA, near the xz command's size; random bytes in
	// uncompressed chunks, two past the 64 KiB of one.
	text := readFile(t, "text.txt")
	random := make([]byte, 1<<16+100)
	rand.NewChaCha8([32]byte{}).Read(random)
	for _, tt := range []struct {
		name    string
		content []byte
		most    int
	}{
		{"text.txt", text, len(readFile(t, "text.xz")) * 110 / 100},
		{"random", random, len(random) + 64},
	} {
		enc := Encode(tt.content, CheckCRC64, true)
		if s, ok := Read(enc, len(tt.content)); !ok || !bytes.Equal(s.Content, tt.content) {
			t.Errorf("%s: Encode does not read back", tt.name)
		}
		if len(enc) > tt.most {
			t.Errorf("%s: Encode writes %d bytes, want at most %d", tt.name, len(enc), tt.most)
		}
		t.Logf("%s: %d bytes, %d encoded", tt.name, len(tt.content), len(enc))
		// The xz command reads it too.
		if xzCmd, err := exec.LookPath("xz"); err == nil {
			cmd := exec.Command(xzCmd, "-dc")
			cmd.Stdin = bytes.NewReader(enc)
			if out, err := cmd.Output(); err != nil || !bytes.Equal(out, tt.content) {
				t.Errorf("%s: xz -dc: %v, %d bytes of %d", tt.name, err, len(out), len(tt.content))
			}
		}
	}
}

// FuzzRead checks that Read takes any bytes without panicking, and that
// what Encode writes reads back, with every check, in both forms.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"text.xz", "random.xz", "text-props.xz"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, byte(0))
	}
	f.Add([]byte(""), byte(CheckCRC32))
	f.Fuzz(func(t *testing.T, b []byte, check byte) {
		Read(b, 1<<20)
		lzma := check&4 != 0
		check = []byte{CheckNone, CheckCRC32, CheckCRC64, CheckSHA256}[check%4]
		enc := Encode(b, check, lzma)
		s, ok := Read(enc, len(b))
		if !ok || !bytes.Equal(s.Content, b) || s.Check != check || s.Len != len(enc) {
			t.Fatalf("Encode(%d bytes, %#x) reads back as %v: %d bytes, %#x, length %d of %d", len(b), check, ok, len(s.Content), s.Check, s.Len, len(enc))
		}
	})
}

// BenchmarkEncode measures writing a candidate: 12 KB of Go source and
// 1 KB of it, in LZMA, and read back.
func BenchmarkEncode(b *testing.B) {
	text, err := os.ReadFile(filepath.Join("testdata", "text.txt"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1 << 10, len(text)} {
		b.Run(fmt.Sprintf("%dB", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				Encode(text[:n], CheckCRC64, true)
			}
		})
		b.Run(fmt.Sprintf("%dB/read", n), func(b *testing.B) {
			enc := Encode(text[:n], CheckCRC64, true)
			b.SetBytes(int64(n))
			for b.Loop() {
				Read(enc, n)
			}
		})
	}
}
