// Package pngpix decodes the pixels of PNG images: the chunks (a
// big-endian length, a type, the data, the CRC-32 of type and data), the
// header (IHDR: width and height, 1 to 4096 each, bit depth 8, colour
// type 0 for gray or 2 for RGB, no interlacing), the image data (IDAT,
// a zlib stream over one or more chunks), and the rows it inflates to:
// each a filter byte (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) and the
// row's bytes, which the filter predicts from the pixel to the left and
// the row above. Data past the last row is ignored.
package pngpix

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

const signature = "\x89PNG\r\n\x1a\n"

// An Image is the rows of pixel bytes of an image.
type Image struct {
	Width, Height int
	Channels      int
	Pix           []byte
}

// Decode decodes an image.
func Decode(b []byte) (*Image, error) {
	if !bytes.HasPrefix(b, []byte(signature)) {
		return nil, errors.New("not a PNG image")
	}
	var img *Image
	var idat []byte
	for off := len(signature); ; {
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
			var err error
			if img, err = header(data); err != nil {
				return nil, err
			}
		case "IDAT":
			idat = append(idat, data...)
		case "IEND":
			return img, img.pixels(idat)
		}
	}
}

func header(d []byte) (*Image, error) {
	if len(d) != 13 {
		return nil, errors.New("bad header")
	}
	w, h := binary.BigEndian.Uint32(d), binary.BigEndian.Uint32(d[4:])
	if w < 1 || w > 4096 || h < 1 || h > 4096 {
		return nil, fmt.Errorf("%d×%d pixels", w, h)
	}
	if d[8] != 8 || d[10] != 0 || d[11] != 0 || d[12] != 0 {
		return nil, errors.New("unsupported depth, compression, filter or interlace")
	}
	channels := map[byte]int{0: 1, 2: 3}[d[9]]
	if channels == 0 {
		return nil, fmt.Errorf("colour type %d", d[9])
	}
	return &Image{Width: int(w), Height: int(h), Channels: channels}, nil
}

// pixels inflates the image data and undoes the rows' filters.
func (img *Image) pixels(idat []byte) error {
	r, err := zlib.NewReader(bytes.NewReader(idat))
	if err != nil {
		return err
	}
	stride := img.Width * img.Channels
	raw := make([]byte, img.Height*(1+stride))
	if _, err := io.ReadFull(r, raw); err != nil {
		return err
	}
	// The rest is ignored, but read: the stream's checksum is checked at
	// its end.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	img.Pix = make([]byte, img.Height*stride)
	var prev []byte // the row above; none for the first
	for y := range img.Height {
		f, row := raw[y*(1+stride)], raw[y*(1+stride)+1:(y+1)*(1+stride)]
		cur := img.Pix[y*stride : (y+1)*stride]
		for x := range row {
			var left, up, ul int
			if x >= img.Channels {
				left = int(cur[x-img.Channels])
			}
			if prev != nil {
				up = int(prev[x])
				if x >= img.Channels {
					ul = int(prev[x-img.Channels])
				}
			}
			var p int
			switch f {
			case 0:
			case 1:
				p = left
			case 2:
				p = up
			case 3:
				// The bug: the first row has no row above, and its
				// average reads one.
				p = (left + int(prev[x])) / 2 // line 127
			case 4:
				p = paeth(left, up, ul)
			default:
				return fmt.Errorf("row %d: filter %d", y, f)
			}
			cur[x] = row[x] + byte(p)
		}
		prev = cur
	}
	return nil
}

func paeth(a, b, c int) int {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	switch {
	case pa <= pb && pa <= pc:
		return a
	case pb <= pc:
		return b
	}
	return c
}

func abs(x int) int { return max(x, -x) }
