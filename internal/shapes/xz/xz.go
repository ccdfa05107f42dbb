// Package xz reads settings from xz files (the .xz file format, version
// 1.2.0), with the LZMA2 filter in its uncompressed chunks only, as a
// reader that checks everything the format guards. A file is one stream:
//
//   - a header: the magic bytes fd 37 7a 58 5a 00, the stream flags (0,
//     and the type of the blocks' check: 0 none, 1 CRC-32, 4 CRC-64) and
//     the CRC-32 of the flags;
//   - blocks, each a header (its size in 4-byte units less one, flags,
//     the compressed and uncompressed sizes as multibyte integers if the
//     flags say so, the filter LZMA2 with its one byte of properties, zero
//     padding to a multiple of 4, and the CRC-32 of the header), LZMA2
//     chunks (a control byte 1 or 2, the size less one in 2 big-endian
//     bytes, the data) ended by a 0, zero padding to a multiple of 4, and
//     the check of the block's content;
//   - the index: a 0, the number of records, for each block its unpadded
//     size (header, compressed data and check) and its uncompressed size,
//     all multibyte integers, zero padding to a multiple of 4, and the
//     CRC-32 of the index;
//   - a footer: the CRC-32 of the next 6 bytes, the index's size in 4-byte
//     units less one (4 bytes, little-endian), the stream flags again, and
//     the magic bytes YZ.
//
// Multibyte integers are little-endian base-128, 7 bits a byte, the high
// bit set on every byte but the last. The content is lines of key=value
// settings.
package xz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/crc64"

	"github.com/fuzzmin/fuzzmin/internal/shapes/settings"
)

var (
	headerMagic = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	footerMagic = []byte{'Y', 'Z'}
	crc64Table  = crc64.MakeTable(crc64.ECMA)
)

// The check types.
const (
	checkNone  = 0
	checkCRC32 = 1
	checkCRC64 = 4
)

// Read decodes a file and applies its settings.
func Read(b []byte) (settings.Settings, error) {
	content, err := Decode(b)
	if err != nil {
		return nil, err
	}
	s := settings.Settings{}
	if err := s.Apply(string(content)); err != nil {
		return nil, err
	}
	return s, nil
}

// Decode returns the content of a file.
func Decode(b []byte) ([]byte, error) {
	if len(b) < 24 || !bytes.HasPrefix(b, headerMagic) {
		return nil, errors.New("not an xz stream")
	}
	flags := b[6:8]
	if binary.LittleEndian.Uint32(b[8:12]) != crc32.ChecksumIEEE(flags) {
		return nil, errors.New("stream header checksum mismatch")
	}
	check := flags[1]
	if flags[0] != 0 || check != checkNone && check != checkCRC32 && check != checkCRC64 {
		return nil, fmt.Errorf("stream flags %x not supported", flags)
	}
	checkSize := map[byte]int{checkNone: 0, checkCRC32: 4, checkCRC64: 8}[check]
	type record struct{ unpadded, size uint64 }
	var records []record
	var content []byte
	at := 12
	for at < len(b) && b[at] != 0 {
		start := at
		data, next, err := block(b, at, check, checkSize)
		if err != nil {
			return nil, fmt.Errorf("block at %d: %v", start, err)
		}
		records = append(records, record{uint64(next - start), uint64(len(data))})
		content = append(content, data...)
		at = next
		for at%4 != 0 { // the block padding, counted from the stream's start
			if at >= len(b) || b[at] != 0 {
				return nil, errors.New("bad block padding")
			}
			at++
		}
		if at+checkSize > len(b) {
			return nil, errors.New("truncated check")
		}
		if err := verify(check, b[at:at+checkSize], data); err != nil {
			return nil, err
		}
		at += checkSize
		records[len(records)-1].unpadded += uint64(checkSize)
	}
	// The index.
	if at >= len(b) {
		return nil, errors.New("no index")
	}
	index := at
	at++
	n, at, err := uvarint(b, at)
	if err != nil {
		return nil, err
	}
	if n != uint64(len(records)) {
		return nil, fmt.Errorf("index has %d records for %d blocks", n, len(records))
	}
	for _, r := range records {
		var unpadded, size uint64
		if unpadded, at, err = uvarint(b, at); err != nil {
			return nil, err
		}
		if size, at, err = uvarint(b, at); err != nil {
			return nil, err
		}
		if unpadded != r.unpadded || size != r.size {
			return nil, errors.New("index does not match the blocks")
		}
	}
	for at%4 != 0 {
		if at >= len(b) || b[at] != 0 {
			return nil, errors.New("bad index padding")
		}
		at++
	}
	if at+4 > len(b) || binary.LittleEndian.Uint32(b[at:]) != crc32.ChecksumIEEE(b[index:at]) {
		return nil, errors.New("index checksum mismatch")
	}
	at += 4
	indexSize := at - index
	// The footer.
	if len(b)-at != 12 {
		return nil, fmt.Errorf("%d bytes after the index, want a footer of 12", len(b)-at)
	}
	footer := b[at:]
	if binary.LittleEndian.Uint32(footer) != crc32.ChecksumIEEE(footer[4:10]) {
		return nil, errors.New("stream footer checksum mismatch")
	}
	if backward := binary.LittleEndian.Uint32(footer[4:]); (uint64(backward)+1)*4 != uint64(indexSize) {
		return nil, errors.New("backward size does not match the index")
	}
	if !bytes.Equal(footer[8:10], flags) || !bytes.Equal(footer[10:], footerMagic) {
		return nil, errors.New("bad stream footer")
	}
	return content, nil
}

// block reads the block whose header starts at b[at], and returns its
// content and where its compressed data end.
func block(b []byte, at int, check byte, checkSize int) ([]byte, int, error) {
	size := (int(b[at]) + 1) * 4
	if at+size > len(b) {
		return nil, 0, errors.New("truncated header")
	}
	h := b[at : at+size]
	if binary.LittleEndian.Uint32(h[size-4:]) != crc32.ChecksumIEEE(h[:size-4]) {
		return nil, 0, errors.New("header checksum mismatch")
	}
	flags := h[1]
	if flags&0x3c != 0 || flags&3 != 0 {
		return nil, 0, fmt.Errorf("block flags %#x not supported (one filter only)", flags)
	}
	p := 2
	var compressed, uncompressed uint64
	var err error
	if flags&0x40 != 0 {
		if compressed, p, err = uvarint(h[:size-4], p); err != nil {
			return nil, 0, err
		}
	}
	if flags&0x80 != 0 {
		if uncompressed, p, err = uvarint(h[:size-4], p); err != nil {
			return nil, 0, err
		}
	}
	// The filter: LZMA2, 0x21, with one byte of properties, a dictionary
	// size of at most 40.
	if p+3 > size-4 || h[p] != 0x21 || h[p+1] != 1 || h[p+2] > 40 {
		return nil, 0, errors.New("filter not supported (LZMA2 only)")
	}
	for _, c := range h[p+3 : size-4] {
		if c != 0 {
			return nil, 0, errors.New("bad header padding")
		}
	}
	// LZMA2's uncompressed chunks.
	start := at + size
	at = start
	var data []byte
	for {
		if at >= len(b) {
			return nil, 0, errors.New("truncated LZMA2 data")
		}
		control := b[at]
		if control == 0 {
			at++
			break
		}
		if control != 1 && control != 2 {
			return nil, 0, fmt.Errorf("LZMA2 chunk %#x not supported", control)
		}
		if control == 2 && len(data) == 0 {
			return nil, 0, errors.New("LZMA2 data without a dictionary reset")
		}
		if at+3 > len(b) {
			return nil, 0, errors.New("truncated LZMA2 chunk")
		}
		n := int(binary.BigEndian.Uint16(b[at+1:])) + 1
		if at+3+n > len(b) {
			return nil, 0, errors.New("truncated LZMA2 chunk")
		}
		data = append(data, b[at+3:at+3+n]...)
		at += 3 + n
	}
	if flags&0x40 != 0 && compressed != uint64(at-start) {
		return nil, 0, errors.New("compressed size mismatch")
	}
	if flags&0x80 != 0 && uncompressed != uint64(len(data)) {
		return nil, 0, errors.New("uncompressed size mismatch")
	}
	return data, at, nil
}

// verify checks a block's check against its content.
func verify(check byte, sum, data []byte) error {
	switch check {
	case checkCRC32:
		if binary.LittleEndian.Uint32(sum) != crc32.ChecksumIEEE(data) {
			return errors.New("CRC-32 mismatch")
		}
	case checkCRC64:
		if binary.LittleEndian.Uint64(sum) != crc64.Checksum(data, crc64Table) {
			return errors.New("CRC-64 mismatch")
		}
	}
	return nil
}

// uvarint reads a multibyte integer at b[at] of at most 9 bytes, with no
// needless zero bytes at its end.
func uvarint(b []byte, at int) (uint64, int, error) {
	var v uint64
	for i := 0; i < 9; i++ {
		if at+i >= len(b) {
			return 0, 0, errors.New("truncated integer")
		}
		c := b[at+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			if c == 0 && i > 0 {
				return 0, 0, errors.New("integer not in its shortest form")
			}
			return v, at + i + 1, nil
		}
	}
	return 0, 0, errors.New("integer too long")
}
