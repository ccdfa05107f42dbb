// Package xz reads and writes streams of the .xz file format (1.2.0),
// for the shrink engine: it reads a stream's content, so that the content
// can shrink, and writes each candidate content as a stream again, every
// checksum and size computed anew.
//
// A stream is a header (magic bytes, the type of the blocks' check, a
// CRC-32), blocks (a header with a CRC-32, LZMA2 data, padding to 4 bytes,
// the check of the block's content), an index of the blocks' sizes (with a
// CRC-32) and a footer (a CRC-32, the index's size in 4-byte units less
// one, the flags, YZ). Read takes blocks of one filter, LZMA2, and decodes
// LZMA2's uncompressed and LZMA chunks; Encode writes the smallest stream
// of a content, in uncompressed chunks.
package xz
