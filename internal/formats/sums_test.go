package formats

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"hash/crc64"
	"math/rand/v2"
	"slices"
	"testing"
)

// guarded returns head, then body, then the checksum k of body in the
// byte order given, then tail.
func guarded(head, body string, k SumKind, little bool, tail string) []byte {
	b := []byte(head + body)
	var v [8]byte
	width := 4
	switch k {
	case CRC32:
		binary.BigEndian.PutUint32(v[:], crc32.ChecksumIEEE([]byte(body)))
	case Adler32:
		binary.BigEndian.PutUint32(v[:], adler32.Checksum([]byte(body)))
	case CRC64:
		binary.BigEndian.PutUint64(v[:], crc64.Checksum([]byte(body), crc64.MakeTable(crc64.ECMA)))
		width = 8
	}
	field := v[:width]
	if little {
		slices.Reverse(field)
	}
	return append(append(b, field...), tail...)
}

// gapped returns b with gap inserted before its last width bytes.
func gapped(b []byte, width int, gap string) []byte {
	return slices.Concat(b[:len(b)-width], []byte(gap), b[len(b)-width:])
}

// ipv4 returns an IPv4 header with options, its checksum right, then
// payload.
func ipv4(opts, payload string) []byte {
	h := []byte("\x45\x00\x00\x00\x12\x34\x40\x00\x40\x11\x00\x00\x0a\x00\x00\x01\x0a\x00\x00\x02" + opts)
	h[0] = 0x40 | byte(len(h)/4)
	binary.BigEndian.PutUint16(h[2:], uint16(len(h)+len(payload)))
	binary.BigEndian.PutUint16(h[10:], uint16(Internet.Of(h, Field{10, 2, false}, 0, len(h))))
	return append(h, payload...)
}

func TestFindSums(t *testing.T) {
	t.Parallel()
	random := string(randomBytes(3, 200))
	for _, tc := range []struct {
		name  string
		input []byte
		want  []Sum
	}{
		{"crc32 big endian", guarded("\x00\x00\x00\x05", "IHDRhello", CRC32, false, "more"),
			[]Sum{{Field{13, 4, false}, CRC32, 4, 13}}},
		{"crc32 little endian", guarded("hd", "some data to guard", CRC32, true, ""),
			[]Sum{{Field{20, 4, true}, CRC32, 2, 20}}},
		{"adler32", guarded("\x78\x01", "zlib's data", Adler32, false, ""),
			[]Sum{{Field{13, 4, false}, Adler32, 2, 13}}},
		{"crc64", guarded("\xfd7zXZ\x00", random[:40], CRC64, true, "\x00\x01"),
			[]Sum{{Field{46, 8, true}, CRC64, 6, 46}}},
		{"ipv4", ipv4("\x01\x01\x01\x00", "payload"),
			[]Sum{{Field{10, 2, false}, Internet, 0, 24}}},
		{"nested", guarded("", string(guarded("ab", "inner", CRC32, false, "")), CRC32, false, ""),
			[]Sum{{Field{7, 4, false}, CRC32, 2, 7}, {Field{11, 4, false}, CRC32, 0, 11}}},
		{"a long region", guarded("head", string(randomBytes(4, 20000)), CRC32, true, ""),
			[]Sum{{Field{20004, 4, true}, CRC32, 4, 20004}}},
		{"adler32 of a long region", guarded("\x78\x01", string(randomBytes(5, 9000)), Adler32, false, ""),
			[]Sum{{Field{9002, 4, false}, Adler32, 2, 9002}}},
		// An xz block of one uncompressed LZMA2 chunk: its data, the end
		// of the chunks and padding to 4 bytes, then the data's check.
		{"crc64 after zero bytes", gapped(guarded("\x01\x00\x0a", "eleven byte", CRC64, true, ""), 8, "\x00\x00\x00"),
			[]Sum{{Field{17, 8, true}, CRC64, 3, 14}}},
		{"crc32 after zero bytes", gapped(guarded("hd", "some data to guard", CRC32, true, ""), 4, "\x00\x00\x00\x00"),
			[]Sum{{Field{24, 4, true}, CRC32, 2, 20}}},
		{"crc32 after too many zero bytes", gapped(guarded("hd", "some data to guard", CRC32, true, ""), 4, "\x00\x00\x00\x00\x00"), nil},
		{"crc32 after other bytes", gapped(guarded("hd", "some data to guard", CRC32, true, ""), 4, "\x00\x01"), nil},
		{"random", []byte(random), nil},
		{"zeros", make([]byte, 1000), nil},
		{"text", []byte("no sums in text, however long it is"), nil},
	} {
		if got := FindSums(tc.input); !slices.Equal(got, tc.want) {
			t.Errorf("%s: findSums = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// sumsHold reports whether every sum of sums holds in c.
func sumsHold(c []byte, sums []Sum) bool {
	for _, z := range sums {
		if z.End > len(c) || z.At+z.Width > len(c) || z.Field.Get(c) != z.Kind.Of(c, z.Field, z.Start, z.End) {
			return false
		}
	}
	return true
}

func TestResealOne(t *testing.T) {
	t.Parallel()
	chunk := func(data string) []byte {
		return guarded(string(binary.BigEndian.AppendUint32(nil, uint32(len(data))))+"", "TYPE"+data, CRC32, false, "")
	}
	s := append(append([]byte("head"), chunk("first chunk")...), chunk("second")...)
	sums := FindSums(s)
	if len(sums) != 2 {
		t.Fatalf("findSums = %+v, want 2", sums)
	}
	for _, tc := range []struct {
		name string
		c    []byte
		want []byte
	}{
		{"bytes cut in the first chunk's data", cut(s, 12, 18), append(append([]byte("head"), chunk("chunk")...), chunk("second")...)},
		{"a byte lowered in the second", replace(s, 35, 36, "a"), append(append([]byte("head"), chunk("first chunk")...), chunk("aecond")...)},
		{"the head cut", s[2:], append([]byte("ad"), append(chunk("first chunk"), chunk("second")...)...)},
		{"a chunk removed whole", cut(s, 4, 27), append([]byte("head"), chunk("second")...)},
		{"unchanged", s, s},
	} {
		got := Reseal(s, tc.c, sums)
		if tc.name == "bytes cut in the first chunk's data" {
			// Its length field is the fields pass's: here it stays.
			tc.want = slices.Clone(tc.want)
			binary.BigEndian.PutUint32(tc.want[4:], 11)
		}
		if !bytes.Equal(got, tc.want) {
			t.Errorf("%s: resealOne = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A change to a checksum's own bytes is left as it is.
	c := replace(s, 26, 27, "\x00")
	if got := Reseal(s, c, sums); !bytes.Equal(got, c) {
		t.Errorf("a checksum's byte lowered: resealOne = %q, want it as it was", got)
	}
	// A check after padding, as xz's block check is.
	xz := gapped(guarded("\x01\x00\x0a", "eleven byte", CRC64, true, ""), 8, "\x00\x00\x00")
	want := gapped(guarded("\x01\x00\x0a", "eleven 0yte", CRC64, true, ""), 8, "\x00\x00\x00")
	if got := Reseal(xz, replace(xz, 10, 11, "0"), FindSums(xz)); !bytes.Equal(got, want) {
		t.Errorf("a byte lowered before padding: resealOne = %q, want %q", got, want)
	}
}

// FuzzSeal checks that a candidate that removes bytes from a guarded
// region, or changes them, comes out of resealOne with every checksum of
// the input right again.
func FuzzSeal(f *testing.F) {
	f.Add([]byte("some data"), []byte("other data"), uint8(0), uint16(2), uint16(3), uint8(1))
	f.Add([]byte("\x00\x01\x02\x03\x04\x05"), []byte("xyz"), uint8(2), uint16(0), uint16(5), uint8(0))
	f.Fuzz(func(t *testing.T, body1, body2 []byte, kind uint8, a, b uint16, little uint8) {
		k := SumKind(kind % 3)
		s := guarded("hd", string(body1), k, little%2 == 1, "")
		s = guarded(string(s), string(body2), k, little%2 == 1, "tail")
		sums := FindSums(s)
		if len(sums) == 0 {
			return // the bodies can be too short or too regular to be found
		}
		lo, hi := int(a)%len(s), int(b)%(len(s)+1)
		if lo > hi {
			lo, hi = hi, lo
		}
		c := Reseal(s, cut(s, lo, hi), sums)
		// The sums whose fields and regions' ends are outside the cut hold.
		for _, z := range sums {
			outside := func(p int) bool { return p <= lo || p >= hi }
			if !outside(z.Start) || !outside(z.End) || !(z.Field.End() <= lo || z.At >= hi) {
				continue
			}
			move := func(p int) int {
				if p >= hi {
					return p - (hi - lo)
				}
				return p
			}
			m := Sum{Field{move(z.At), z.Width, z.Little}, z.Kind, move(z.Start), move(z.End)}
			if m.Start == m.End {
				continue // the region is gone: nothing to guard
			}
			if !sumsHold(c, []Sum{m}) {
				t.Fatalf("input %q, cut [%d, %d): %q, the sum %+v does not hold", s, lo, hi, c, m)
			}
		}
	})
}

// BenchmarkFindSums measures reading the sums of binary inputs of three
// sizes, each random bytes and a chunk that fills half of it, guarded.
func BenchmarkFindSums(b *testing.B) {
	for _, n := range []int{100, 2000, 16000} {
		s := guarded(string(randomBytes(1, n/2)), string(randomBytes(2, n/2)), CRC32, false, "tail")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if len(FindSums(s)) != 1 {
					b.Fatal("the chunk's sum not found")
				}
			}
		})
	}
}

// cut returns s without s[a:b].
func cut(s []byte, a, b int) []byte { return append(slices.Clone(s[:a]), s[b:]...) }

// replace returns s with s[a:b] replaced by with.
func replace(s []byte, a, b int, with string) []byte {
	return append(append(slices.Clone(s[:a]), with...), s[b:]...)
}
