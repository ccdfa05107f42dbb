// Package zip reads settings from zip archives (APPNOTE.TXT 6.3), as a
// reader that checks everything the format repeats. An archive is:
//
//   - for each file, from the archive's first byte on with nothing
//     between them: a local header (the signature PK 03 04, the version
//     needed, flags, the method, a time and a date, the CRC-32 of the
//     content, the compressed and uncompressed sizes, the lengths of the
//     name and of the extra field), the name, the extra field, and the
//     data, stored (method 0) or deflated (method 8);
//   - the central directory, right after the last file's data: for each
//     file, an entry (the signature PK 01 02, the version made by, then
//     the local header's fields, the length of a comment, a disk number,
//     attributes, and the offset of the local header), the name, an extra
//     field and the comment;
//   - the end record, which ends the archive: the signature PK 05 06, disk
//     numbers, the number of entries twice, the size and the offset of the
//     central directory, and the length of a comment after it.
//
// All integers are little-endian. A local header must hold the method,
// CRC-32, sizes and name of its entry; the flags must be 0 (no data
// descriptor, no encryption). Each file's content is lines of key=value
// settings.
package zip

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/fuzzmin/fuzzmin/internal/shapes/settings"
)

// Read reads an archive and applies the settings of its files in order.
func Read(b []byte) (settings.Settings, error) {
	files, err := Files(b)
	if err != nil {
		return nil, err
	}
	s := settings.Settings{}
	for _, f := range files {
		if err := s.Apply(string(f.Content)); err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
	}
	return s, nil
}

// A File is a file of an archive.
type File struct {
	Name    string
	Content []byte
}

// Files returns the files of an archive.
func Files(b []byte) ([]File, error) {
	const (
		localLen = 30
		entryLen = 46
		endLen   = 22
	)
	end := bytes.LastIndex(b, []byte("PK\x05\x06"))
	if end < 0 || end+endLen > len(b) {
		return nil, errors.New("no end record")
	}
	u16 := func(i int) int { return int(binary.LittleEndian.Uint16(b[i:])) }
	u32 := func(i int) int { return int(binary.LittleEndian.Uint32(b[i:])) }
	if u16(end+4) != 0 || u16(end+6) != 0 || u16(end+8) != u16(end+10) {
		return nil, errors.New("multiple disks not supported")
	}
	n, dirLen, dirOff := u16(end+10), u32(end+12), u32(end+16)
	if end+endLen+u16(end+20) != len(b) {
		return nil, errors.New("bytes after the end record")
	}
	if dirOff+dirLen != end {
		return nil, errors.New("the central directory does not end at the end record")
	}
	var files []File
	local, e := 0, dirOff
	for range n {
		if e+entryLen > end || string(b[e:e+4]) != "PK\x01\x02" {
			return nil, errors.New("bad central directory entry")
		}
		nameLen, extraLen, commentLen := u16(e+28), u16(e+30), u16(e+32)
		next := e + entryLen + nameLen + extraLen + commentLen
		if next > end {
			return nil, errors.New("truncated central directory entry")
		}
		name := b[e+entryLen : e+entryLen+nameLen]
		if u32(e+42) != local {
			return nil, fmt.Errorf("%s: local header at %d, not %d", name, u32(e+42), local)
		}
		if local+localLen > dirOff || string(b[local:local+4]) != "PK\x03\x04" {
			return nil, fmt.Errorf("%s: bad local header", name)
		}
		// From the flags to the name's length, and the name, the local
		// header repeats the entry.
		if !bytes.Equal(b[local+6:local+28], b[e+8:e+30]) || !bytes.Equal(b[local+localLen:local+localLen+nameLen], name) {
			return nil, fmt.Errorf("%s: the local header does not match the central directory", name)
		}
		flags, method, sum, size, usize := u16(e+8), u16(e+10), uint32(u32(e+16)), u32(e+20), u32(e+24)
		if flags != 0 {
			return nil, fmt.Errorf("%s: flags %#x not supported", name, flags)
		}
		data := local + localLen + nameLen + u16(local+28)
		if data+size > dirOff {
			return nil, fmt.Errorf("%s: truncated data", name)
		}
		content := b[data : data+size]
		switch method {
		case 0:
		case 8:
			var err error
			if content, err = io.ReadAll(flate.NewReader(bytes.NewReader(content))); err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
		default:
			return nil, fmt.Errorf("%s: method %d not supported", name, method)
		}
		if len(content) != usize {
			return nil, fmt.Errorf("%s: %d bytes, the header says %d", name, len(content), usize)
		}
		if crc32.ChecksumIEEE(content) != sum {
			return nil, fmt.Errorf("%s: CRC-32 mismatch", name)
		}
		files = append(files, File{string(name), content})
		local, e = data+size, next
	}
	if local != dirOff || e != end {
		return nil, errors.New("bytes between the files, or after the central directory's entries")
	}
	return files, nil
}
