// Package zlib reads zlib-compressed records. An input is one zlib stream
// (RFC 1950): a 2-byte header (the method, 8 for deflate, with the log of
// the window size less 8 above it; then flags whose check bits make the
// two bytes, big-endian, a multiple of 31), the deflated content, and the
// Adler-32 of the content, big-endian. The content is records, one a
// line, of fields separated by tabs: a name, a count, then as many
// values.
package zlib

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Record is a name and its values.
type Record struct {
	Name   string
	Values []string
}

// Read decompresses and parses an input.
func Read(b []byte) ([]Record, error) {
	r, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	content, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var recs []Record
	for i, line := range strings.Split(string(content), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 {
			return nil, fmt.Errorf("line %d: want a name and a count", i+1)
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("line %d: bad count %q", i+1, fields[1])
		}
		// The bug: the count is not checked against the fields.
		recs = append(recs, Record{fields[0], fields[2 : 2+n]}) // line 50
	}
	if len(recs) == 0 {
		return nil, errors.New("no records")
	}
	return recs, nil
}
