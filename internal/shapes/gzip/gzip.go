// Package gzip reads gzip-compressed configuration files. A file is one
// gzip member (RFC 1952): the magic bytes 1f 8b, the method 8 (deflate),
// flags, a modification time, extra flags and an operating system, the
// deflated content, then the CRC-32 of the content and its length,
// little-endian. The content is lines of an INI file: [section] headers,
// key=value pairs, and comments after ; or #.
package gzip

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
)

// Config is the settings of a file, by section and key.
type Config map[string]map[string]string

// Read decompresses and parses a file.
func Read(b []byte) (Config, error) {
	if len(b) < 18 || b[0] != 0x1f || b[1] != 0x8b || b[2] != 8 {
		return nil, errors.New("not a gzip member")
	}
	if b[3] != 0 {
		return nil, fmt.Errorf("flags %#x not supported", b[3])
	}
	r := &byteReader{b: b[10:]}
	content, err := io.ReadAll(flate.NewReader(r))
	if err != nil {
		return nil, err
	}
	trailer := r.b[r.n:]
	if len(trailer) != 8 {
		return nil, fmt.Errorf("%d bytes after the deflate stream, want 8", len(trailer))
	}
	if crc32.ChecksumIEEE(content) != binary.LittleEndian.Uint32(trailer) {
		return nil, errors.New("checksum mismatch")
	}
	if uint32(len(content)) != binary.LittleEndian.Uint32(trailer[4:]) {
		return nil, errors.New("length mismatch")
	}
	return parse(string(content))
}

// byteReader reads b and counts what it read: flate reads a byte at a
// time from an io.ByteReader, so it reads nothing past its stream.
type byteReader struct {
	b []byte
	n int
}

func (r *byteReader) ReadByte() (byte, error) {
	if r.n == len(r.b) {
		return 0, io.EOF
	}
	r.n++
	return r.b[r.n-1], nil
}

func (r *byteReader) Read(p []byte) (int, error) {
	if r.n == len(r.b) {
		return 0, io.EOF
	}
	k := copy(p, r.b[r.n:])
	r.n += k
	return k, nil
}

func parse(s string) (Config, error) {
	c := Config{"": {}}
	section := ""
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == ';' || line[0] == '#':
		case line[0] == '[':
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return nil, fmt.Errorf("line %d: unclosed section", i+1)
			}
			section = line[1:end]
			// The bug: an empty name is taken for a dotted one.
			if section[0] == '.' || strings.Contains(section, "..") { // line 87
				return nil, fmt.Errorf("line %d: bad section name", i+1)
			}
			if c[section] == nil {
				c[section] = map[string]string{}
			}
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok || strings.TrimSpace(k) == "" {
				return nil, fmt.Errorf("line %d: want key=value", i+1)
			}
			c[section][strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if bytes.Contains([]byte(s), []byte{0}) {
		return nil, errors.New("a NUL byte in the text")
	}
	return c, nil
}
