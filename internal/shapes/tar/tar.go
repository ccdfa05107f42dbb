// Package tar reads settings from tar archives through archive/tar: each
// regular file's content is lines of key=value settings, applied in order.
// archive/tar checks each header's checksum (the sum of its bytes, the
// checksum's own field counted as spaces, in octal) and reads each file's
// size in octal; a file that ends the input needs no padding, and the
// archive no end blocks.
package tar

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Settings are the key=value lines of an archive's files.
type Settings map[string]int

// Read reads an archive and applies the settings of its regular files.
func Read(b []byte) (Settings, error) {
	r := tar.NewReader(bytes.NewReader(b))
	s := Settings{}
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		content, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", h.Name, err)
		}
		if err := s.apply(string(content)); err != nil {
			return nil, fmt.Errorf("%s: %v", h.Name, err)
		}
	}
}

// The levels of compression a setting may name.
var levels = [8]string{"store", "fastest", "fast", "normal", "normal", "good", "better", "best"}

// apply reads settings: key=value lines with integer values; blank lines
// and lines starting with # are skipped.
func (s Settings) apply(content string) error {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("not a setting: %q", line)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		if k == "level" {
			_ = levels[n] // the bug: a level is not checked against the table
		}
		s[k] = n
	}
	return nil
}
