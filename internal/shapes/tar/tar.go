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

	"github.com/fuzzmin/fuzzmin/internal/shapes/settings"
)

// Read reads an archive and applies the settings of its regular files.
func Read(b []byte) (settings.Settings, error) {
	r := tar.NewReader(bytes.NewReader(b))
	s := settings.Settings{}
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
		if err := s.Apply(string(content)); err != nil {
			return nil, fmt.Errorf("%s: %v", h.Name, err)
		}
	}
}
