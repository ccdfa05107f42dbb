package formats

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"slices"
)

// Zip archives (APPNOTE.TXT 6.3). Each file of an archive is a local
// header (its method, CRC-32 and sizes, its name), its data, stored or
// deflated, and a central directory entry that repeats the header and
// says where it is; an end record says where the directory is and how
// many entries it has. Removing a byte of a file's content changes its
// deflated bits, its CRC-32 and sizes in two places, and the offsets of
// everything after it. The inflate pass reads an archive's files and
// writes each candidate as a whole archive in its smallest form (encode),
// each file's content shrunk as a stream's is.

// A zipArchive is an archive read, at [start, end) of the input.
type zipArchive struct {
	start, end int
	files      []zipFile
}

type zipFile struct {
	name    []byte
	method  uint16 // zipStored or zipDeflated
	noCRC   bool   // its CRC-32 is 0: readers that take 0 for none check nothing
	content []byte
	// deflated holds the smallest deflation of the content read, once
	// written: the copies of the archive that keep the content share it
	// (nil once the content is replaced).
	deflated *[]byte
}

const (
	zipStored   = 0
	zipDeflated = 8

	zipLocalLen = 30 // a local header without its name
	zipEntryLen = 46 // a central directory entry without its name
	zipEndLen   = 22 // the end record without its comment
)

var (
	zipLocalSig = []byte("PK\x03\x04")
	zipEntrySig = []byte("PK\x01\x02")
	zipEndSig   = []byte("PK\x05\x06")
)

// readZip reads the archive whose end record is the last in s: its
// central directory, and the files that read, stored or deflated, not
// encrypted, not zip64, whose data holds the content their CRC-32 and
// sizes say, at most maxInflated bytes in all. A file that does not read
// (a local header another pass broke, when the code under test never
// opens that file) is left out: the archive is written again without it.
func readZip(s []byte) (zipArchive, bool) {
	at := bytes.LastIndex(s, zipEndSig)
	if at < 0 || at+zipEndLen > len(s) {
		return zipArchive{}, false
	}
	le16 := func(i int) int { return int(binary.LittleEndian.Uint16(s[i:])) }
	le32 := func(i int) int { return int(binary.LittleEndian.Uint32(s[i:])) }
	n, dirLen, dirOff, commentLen := le16(at+10), le32(at+12), le32(at+16), le16(at+20)
	// Offsets count from base, as archive/zip reckons it: where the end
	// record says the archive starts, or 0 if the directory is found at
	// its offset from there (the directory's size is wrong); before the
	// input, when bytes before the directory were removed.
	base := at - dirLen - dirOff
	if base > 0 && dirOff+4 <= len(s) && bytes.HasPrefix(s[dirOff:], zipEntrySig) {
		base = 0
	}
	if n == 0 || n == 0xffff || base+dirOff < 0 || at+zipEndLen+commentLen > len(s) {
		return zipArchive{}, false
	}
	z := zipArchive{start: max(base, 0), end: at + zipEndLen + commentLen}
	total := 0
	for i, e := 0, base+dirOff; i < n; i++ {
		if e+zipEntryLen > at || !bytes.HasPrefix(s[e:], zipEntrySig) {
			return zipArchive{}, false
		}
		nameLen, extraLen, fileCommentLen := le16(e+28), le16(e+30), le16(e+32)
		next := e + zipEntryLen + nameLen + extraLen + fileCommentLen
		if next > at {
			return zipArchive{}, false
		}
		if f, ok := readZipFile(s[:at], e, base); ok && total+len(f.content) <= maxInflated {
			total += len(f.content)
			z.files = append(z.files, f)
		}
		e = next
	}
	return z, len(z.files) > 0
}

// readZipFile reads the file whose central directory entry is at s[e],
// in the archive whose offsets count from base.
func readZipFile(s []byte, e, base int) (zipFile, bool) {
	le16 := func(i int) int { return int(binary.LittleEndian.Uint16(s[i:])) }
	le32 := func(i int) int { return int(binary.LittleEndian.Uint32(s[i:])) }
	flags, method, crc := le16(e+8), le16(e+10), uint32(le32(e+16))
	size, usize, local := le32(e+20), le32(e+24), base+le32(e+42)
	if flags&1 != 0 || method != zipStored && method != zipDeflated || usize > maxInflated ||
		local < 0 || local+zipLocalLen > len(s) || !bytes.HasPrefix(s[local:], zipLocalSig) {
		return zipFile{}, false
	}
	data := local + zipLocalLen + le16(local+26) + le16(local+28)
	if data+size > len(s) {
		return zipFile{}, false
	}
	content := s[data : data+size]
	if method == zipDeflated {
		var err error
		if content, err = io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(content)), int64(usize)+1)); err != nil {
			return zipFile{}, false
		}
	}
	sum := crc32.ChecksumIEEE(content)
	if len(content) != usize || crc != sum && crc != 0 {
		return zipFile{}, false
	}
	name := s[e+zipEntryLen : e+zipEntryLen+le16(e+28)]
	return zipFile{name: name, method: uint16(method), noCRC: crc == 0 && sum != 0, content: content, deflated: new([]byte)}, true
}

// encodeWith returns the archive with file i's content replaced.
func (z zipArchive) encodeWith(i int, content []byte) []byte {
	z.files = slices.Clone(z.files)
	z.files[i].content, z.files[i].deflated = content, nil
	return z.encode()
}

// encode returns the archive in its smallest form: each file's local
// header, with no extra field, then its data (the smallest deflation of
// its content, or the content stored), then the central directory, every
// version, flag, time, attribute and comment 0.
func (z zipArchive) encode() []byte {
	var out, dir []byte
	for _, f := range z.files {
		data := f.content
		switch {
		case f.method != zipDeflated:
		case f.deflated == nil:
			data = smallestDeflation(f.content)
		default:
			if *f.deflated == nil {
				*f.deflated = smallestDeflation(f.content)
			}
			data = *f.deflated
		}
		var crc uint32
		if !f.noCRC {
			crc = crc32.ChecksumIEEE(f.content)
		}
		// The fields from the method on, which both records hold.
		common := binary.LittleEndian.AppendUint16(nil, f.method)
		common = append(common, 0, 0, 0, 0) // the time and date
		common = binary.LittleEndian.AppendUint32(common, crc)
		common = binary.LittleEndian.AppendUint32(common, uint32(len(data)))
		common = binary.LittleEndian.AppendUint32(common, uint32(len(f.content)))
		common = binary.LittleEndian.AppendUint16(common, uint16(len(f.name)))
		common = append(common, 0, 0) // no extra field
		local := len(out)
		out = append(append(out, zipLocalSig...), 0, 0, 0, 0) // the version needed, the flags
		out = append(append(append(out, common...), f.name...), data...)
		dir = append(append(dir, zipEntrySig...), 0, 0, 0, 0, 0, 0) // the versions, the flags
		dir = append(dir, common...)
		dir = append(dir, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // the comment, disk, attributes
		dir = binary.LittleEndian.AppendUint32(dir, uint32(local))
		dir = append(dir, f.name...)
	}
	end := append(slices.Clone(zipEndSig), 0, 0, 0, 0)
	end = binary.LittleEndian.AppendUint16(end, uint16(len(z.files)))
	end = binary.LittleEndian.AppendUint16(end, uint16(len(z.files)))
	end = binary.LittleEndian.AppendUint32(end, uint32(len(dir)))
	end = binary.LittleEndian.AppendUint32(end, uint32(len(out)))
	end = append(end, 0, 0) // no comment
	return append(append(out, dir...), end...)
}

// distinct collects candidates, each once.
type distinct [][]byte

func (d *distinct) add(c []byte) {
	if !slices.ContainsFunc(*d, func(e []byte) bool { return bytes.Equal(c, e) }) {
		*d = append(*d, c)
	}
}

// sorted returns the candidates, smallest first.
func (d distinct) sorted() [][]byte {
	slices.SortFunc(d, compareBytes)
	return d
}

// shorterNames returns what may stand for an archive's file name, shorter:
// none, its extension alone, its base name alone (what code that picks
// files by name may look for).
func shorterNames(name []byte) [][]byte {
	var out [][]byte
	ext := name[max(0, bytes.LastIndexByte(name, '.')):]
	for _, short := range [][]byte{nil, ext, name[bytes.LastIndexByte(name, '/')+1:]} {
		if len(short) < len(name) {
			out = append(out, short)
		}
	}
	return out
}

// each returns the archive with f applied to a copy of each file.
func (z zipArchive) each(f func(*zipFile)) zipArchive {
	z.files = slices.Clone(z.files)
	for i := range z.files {
		f(&z.files[i])
	}
	return z
}

// rewrites returns the candidates of the archive as a whole, smallest
// first: the archive in its smallest form, with no CRC-32s, with every
// file stored, without each file, and with each file's name empty or cut
// to its extension or base name.
func (z zipArchive) rewrites() [][]byte {
	var out distinct
	add := func(z zipArchive) { out.add(z.encode()) }
	stored := func(f *zipFile) { f.method = zipStored }
	add(z)
	noCRC := z.each(func(f *zipFile) { f.noCRC = true })
	add(noCRC)
	add(z.each(stored))
	add(noCRC.each(stored))
	for i := range z.files {
		if len(z.files) > 1 {
			y := z
			y.files = slices.Delete(slices.Clone(z.files), i, i+1)
			add(y)
		}
		for _, short := range shorterNames(z.files[i].name) {
			y := z
			y.files = slices.Clone(z.files)
			y.files[i].name = short
			add(y)
		}
	}
	return out.sorted()
}
