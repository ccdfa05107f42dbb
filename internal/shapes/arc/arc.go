// Package arc reads a small archive format whose entries are guarded by
// checksums. An archive is the magic "AR" and its entries, one after the
// other to its last byte. An entry is:
//
//   - its method: 0 for stored data, 8 for deflated;
//   - the length of its name, a byte, and the name;
//   - the length of its content and the size of its data in the archive,
//     each 2 bytes, little-endian;
//   - its data, then the CRC-32 (IEEE) of the data, little-endian.
//
// A stored entry's content is its data, whose size must be the content's
// length; a deflated entry's data is a zlib stream (RFC 1950) of its
// content, which starts with a header line, a comment: "#" and text.
package arc

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// An Entry is a named content of an archive.
type Entry struct {
	Name    string
	Content []byte
}

// Read returns the entries of an archive.
func Read(b []byte) ([]Entry, error) {
	if !bytes.HasPrefix(b, []byte("AR")) {
		return nil, errors.New("not an archive")
	}
	b = b[2:]
	var entries []Entry
	for len(b) > 0 {
		method := b[0]
		if len(b) < 2 || 2+int(b[1])+4 > len(b) {
			return nil, errors.New("truncated entry")
		}
		nameLen := int(b[1])
		name := string(b[2 : 2+nameLen])
		b = b[2+nameLen:]
		length, size := int(binary.LittleEndian.Uint16(b)), int(binary.LittleEndian.Uint16(b[2:]))
		b = b[4:]
		if size+4 > len(b) {
			return nil, fmt.Errorf("%s: truncated data", name)
		}
		data := b[:size]
		if crc32.ChecksumIEEE(data) != binary.LittleEndian.Uint32(b[size:]) {
			return nil, fmt.Errorf("%s: checksum mismatch", name)
		}
		b = b[size+4:]
		var content []byte
		switch method {
		case 0:
			if size != length {
				return nil, fmt.Errorf("%s: stored data of %d bytes for %d", name, size, length)
			}
			content = data
		case 8:
			r, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			inflated, err := io.ReadAll(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", name, err)
			}
			if !bytes.HasPrefix(inflated, []byte("#")) {
				return nil, fmt.Errorf("%s: no header line", name)
			}
			content = make([]byte, length)
			copy(content, inflated)
			// The bug: the inflated length is not checked against the
			// entry's.
			content = content[:len(inflated)] // line 80
		default:
			return nil, fmt.Errorf("%s: method %d not supported", name, method)
		}
		entries = append(entries, Entry{name, content})
	}
	return entries, nil
}
