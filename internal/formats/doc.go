// Package formats is what fuzzmin knows of the formats of binary inputs:
// the checksums that guard their parts (CRC-32, Adler-32, CRC-64, IPv4
// header sums: [FindSums], sealed again in a changed input by [Seal] and
// [Reseal]), and the formats that wrap an input's content: gzip members
// (RFC 1952), zlib streams (RFC 1950), xz streams (package xz), and zip
// and tar archives. It sits below both the
// engine (internal/shrink), which seals every candidate's sums and whose
// inflate pass shrinks a stream's content
// and has it written again here ([Streams], [Stream.Encode],
// [Stream.Rewrites]), and failure identity (internal/failure), which reads
// the content of a compressed input to find the pieces a test prints
// ([Decompress]): each format has one detector here, which both use.
package formats
