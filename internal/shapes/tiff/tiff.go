// Package tiff decodes TIFF-like grayscale images, little endian: an
// 8-byte header ("II", 42 as a uint16, the uint32 offset of the image file
// directory), then the directory anywhere in the file: a uint16 count of
// 12-byte entries, sorted by tag, each a uint16 tag, a uint16 type (3
// SHORT, 4 LONG, 2 ASCII, 5 RATIONAL), a uint32 count of values and a
// uint32 that holds the values if they fit in 4 bytes and their offset if
// not. The pixels are in strips, at the offsets and of the byte counts that
// two entries give, rows of width bytes, RowsPerStrip rows to a strip.
package tiff

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Tags.
const (
	TagWidth           = 256
	TagLength          = 257
	TagBitsPerSample   = 258
	TagCompression     = 259
	TagPhotometric     = 262
	TagStripOffsets    = 273
	TagSamplesPerPixel = 277
	TagRowsPerStrip    = 278
	TagStripByteCounts = 279
)

// Types.
const (
	TypeASCII    = 2
	TypeShort    = 3
	TypeLong     = 4
	TypeRational = 5
)

// An Image is a decoded image.
type Image struct {
	Width, Height int
	Pix           []byte
}

var le = binary.LittleEndian

var typeSizes = map[uint16]int{TypeASCII: 1, TypeShort: 2, TypeLong: 4, TypeRational: 8}

// Decode decodes an image.
func Decode(b []byte) (*Image, error) {
	if len(b) < 8 || string(b[:2]) != "II" || le.Uint16(b[2:]) != 42 {
		return nil, errors.New("not a TIFF")
	}
	off := int(le.Uint32(b[4:]))
	if off < 8 || off+2 > len(b) {
		return nil, errors.New("bad directory offset")
	}
	n := int(le.Uint16(b[off:]))
	if off+2+12*n > len(b) {
		return nil, errors.New("short directory")
	}
	tags := map[uint16][]uint32{}
	last := -1
	for i := range n {
		e := b[off+2+12*i:]
		tag, typ, count := le.Uint16(e), le.Uint16(e[2:]), int(le.Uint32(e[4:]))
		if int(tag) <= last {
			return nil, fmt.Errorf("tag %d out of order", tag)
		}
		last = int(tag)
		size, ok := typeSizes[typ]
		if !ok {
			return nil, fmt.Errorf("tag %d: type %d", tag, typ)
		}
		if count > 1<<16 {
			return nil, fmt.Errorf("tag %d: %d values", tag, count)
		}
		data := e[8:12]
		if size*count > 4 {
			p := int(le.Uint32(e[8:]))
			if p+size*count > len(b) {
				return nil, fmt.Errorf("tag %d: values past the end", tag)
			}
			data = b[p : p+size*count]
		}
		if typ != TypeShort && typ != TypeLong {
			continue // ASCII and RATIONAL tags are descriptive
		}
		vals := make([]uint32, count)
		for k := range vals {
			if typ == TypeShort {
				vals[k] = uint32(le.Uint16(data[2*k:]))
			} else {
				vals[k] = le.Uint32(data[4*k:])
			}
		}
		tags[tag] = vals
	}
	one := func(tag uint16, def uint32) (int, error) {
		v, ok := tags[tag]
		switch {
		case !ok:
			return int(def), nil
		case len(v) != 1:
			return 0, fmt.Errorf("tag %d: %d values", tag, len(v))
		}
		return int(v[0]), nil
	}
	img := &Image{}
	var err error
	var bps, spp, comp, rps int
	for _, t := range []struct {
		dst *int
		tag uint16
		def uint32
	}{{&img.Width, TagWidth, 0}, {&img.Height, TagLength, 0}, {&bps, TagBitsPerSample, 8},
		{&spp, TagSamplesPerPixel, 1}, {&comp, TagCompression, 1}, {&rps, TagRowsPerStrip, 1 << 31}} {
		if *t.dst, err = one(t.tag, t.def); err != nil {
			return nil, err
		}
	}
	switch {
	case img.Width <= 0 || img.Height <= 0 || img.Width > 4096 || img.Height > 4096:
		return nil, fmt.Errorf("size %dx%d", img.Width, img.Height)
	case bps != 8 || spp != 1 || comp != 1:
		return nil, errors.New("not 8-bit uncompressed grayscale")
	case rps <= 0:
		return nil, errors.New("no rows per strip")
	}
	offsets, counts := tags[TagStripOffsets], tags[TagStripByteCounts]
	if len(offsets) == 0 || len(offsets) != len(counts) {
		return nil, errors.New("strips")
	}
	img.Pix = make([]byte, 0, img.Width*img.Height)
	for s, o := range offsets {
		if int(o)+int(counts[s]) > len(b) {
			return nil, fmt.Errorf("strip %d past the end", s)
		}
		strip := b[o : o+counts[s] : o+counts[s]]
		rows := min(rps, img.Height-s*rps)
		for i := range rows * img.Width { // the bug: the byte count is not checked
			img.Pix = append(img.Pix, strip[i])
		}
		if len(img.Pix) == img.Width*img.Height {
			break
		}
	}
	if len(img.Pix) != img.Width*img.Height {
		return nil, errors.New("missing strips")
	}
	return img, nil
}
