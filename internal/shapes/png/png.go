// Package png reads the chunks of PNG images. An image is the 8-byte
// signature, then chunks: a big-endian uint32 length, a 4-letter type, as
// many bytes of data as the length says, and the CRC-32 of the type and
// the data, big-endian. The first chunk is the header (IHDR, 13 bytes: the
// width and the height as uint32s, the bit depth, the colour type, the
// compression, filter and interlace methods); a palette (PLTE) holds
// 3-byte colours; the image ends with IEND. Other chunks are read for
// their checksum and skipped, as a decoder skips ancillary chunks it does
// not know.
package png

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Signature opens every PNG image.
const Signature = "\x89PNG\r\n\x1a\n"

// An Image is the chunks of an image that the decoder reads.
type Image struct {
	Width, Height uint32
	Depth, Color  byte
	Palette       []RGB
	Text          map[string]string
}

// An RGB is a colour of the palette.
type RGB struct{ R, G, B byte }

// Decode reads an image's chunks.
func Decode(b []byte) (*Image, error) {
	if !bytes.HasPrefix(b, []byte(Signature)) {
		return nil, errors.New("not a PNG image")
	}
	var img *Image
	for off := len(Signature); ; {
		if len(b)-off < 12 {
			return nil, errors.New("short chunk")
		}
		n := binary.BigEndian.Uint32(b[off:])
		if uint64(n) > uint64(len(b)-off-12) {
			return nil, fmt.Errorf("chunk of %d bytes", n)
		}
		typ, data := string(b[off+4:off+8]), b[off+8:off+8+int(n)]
		if crc32.ChecksumIEEE(b[off+4:off+8+int(n)]) != binary.BigEndian.Uint32(b[off+8+int(n):]) {
			return nil, fmt.Errorf("%q chunk: checksum mismatch", typ)
		}
		off += 12 + int(n)
		if img == nil && typ != "IHDR" {
			return nil, fmt.Errorf("%q chunk before the header", typ)
		}
		switch typ {
		case "IHDR":
			if img != nil || n != 13 {
				return nil, errors.New("bad header")
			}
			img = &Image{Width: binary.BigEndian.Uint32(data), Height: binary.BigEndian.Uint32(data[4:]),
				Depth: data[8], Color: data[9], Text: map[string]string{}}
		case "PLTE":
			img.Palette = palette(data)
		case "tEXt":
			k, v, ok := bytes.Cut(data, []byte{0})
			if !ok || len(k) == 0 || len(k) > 79 {
				return nil, errors.New("bad text chunk")
			}
			img.Text[string(k)] = string(v)
		case "IEND":
			return img, nil
		}
	}
}

// palette reads the colours of a palette. The bug: a length that is not a
// multiple of 3 reads past the end of the data.
func palette(data []byte) []RGB {
	p := make([]RGB, (len(data)+2)/3)
	for i := range p {
		p[i] = RGB{data[3*i], data[3*i+1], data[3*i+2]} // line 82
	}
	return p
}
