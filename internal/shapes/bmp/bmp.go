// Package bmp decodes BMP-like 8-bit palette images, little endian: a
// 14-byte file header ("BM", the uint32 size of the file, 4 reserved bytes,
// the uint32 offset of the pixels), a 40-byte info header (its uint32 size,
// 40; int32 width and height; uint16 planes, 1; uint16 bits per pixel, 8;
// uint32 compression, 0; uint32 image size; two int32 resolutions; the
// uint32 number of palette colours; the uint32 number of important ones),
// the palette (4 bytes a colour), then the pixel rows, bottom up, each
// padded to a multiple of 4 bytes. The file's size and the pixels' offset
// must be exact, and so must the image size if it is not 0.
package bmp

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// An Image is a decoded image: each pixel's colour as 0xRRGGBB.
type Image struct {
	Width, Height int
	Pix           []uint32
}

var le = binary.LittleEndian

const headers = 14 + 40

// Decode decodes an image.
func Decode(b []byte) (*Image, error) {
	if len(b) < headers || string(b[:2]) != "BM" {
		return nil, errors.New("not a BMP")
	}
	if int(le.Uint32(b[2:])) != len(b) {
		return nil, fmt.Errorf("file size %d, have %d bytes", le.Uint32(b[2:]), len(b))
	}
	info := b[14:]
	w, h := int(int32(le.Uint32(info[4:]))), int(int32(le.Uint32(info[8:])))
	switch {
	case le.Uint32(info) != 40:
		return nil, errors.New("info header size")
	case le.Uint16(info[12:]) != 1 || le.Uint16(info[14:]) != 8 || le.Uint32(info[16:]) != 0:
		return nil, errors.New("not an uncompressed 8-bit image")
	case w <= 0 || h <= 0 || w > 4096 || h > 4096:
		return nil, fmt.Errorf("size %dx%d", w, h)
	}
	colours := int(le.Uint32(info[32:]))
	if colours == 0 || colours > 256 {
		return nil, fmt.Errorf("%d colours", colours)
	}
	pixOff := int(le.Uint32(b[10:]))
	if pixOff != headers+4*colours {
		return nil, fmt.Errorf("pixels at %d, palette ends at %d", pixOff, headers+4*colours)
	}
	stride := (w + 3) &^ 3
	if size := int(le.Uint32(info[20:])); size != 0 && size != stride*h {
		return nil, fmt.Errorf("image size %d, want %d", size, stride*h)
	}
	if pixOff+stride*h != len(b) {
		return nil, fmt.Errorf("%d bytes of pixels, want %d", len(b)-pixOff, stride*h)
	}
	palette := make([]uint32, colours)
	for i := range palette {
		p := b[headers+4*i:]
		palette[i] = uint32(p[2])<<16 | uint32(p[1])<<8 | uint32(p[0])
	}
	img := &Image{Width: w, Height: h, Pix: make([]uint32, w*h)}
	for y := range h {
		row := b[pixOff+(h-1-y)*stride:]
		for x := range w {
			img.Pix[y*w+x] = palette[row[x]] // the bug: the index is not checked
		}
	}
	return img, nil
}
