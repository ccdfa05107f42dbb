// Package encoding reads and writes the "go test fuzz v1" corpus file format
// exactly as the Go toolchain does (internal/fuzz/encoding.go in the Go
// source tree).
//
// A corpus file is a version line followed by one value per line, each written
// as a Go conversion expression:
//
//	go test fuzz v1
//	[]byte("\x00\xff")
//	int(1001)
//	math.Float64frombits(0x7ff8000000000002)
//
// [Marshal] produces byte-for-byte what the toolchain writes for the same
// values, and [Unmarshal] accepts exactly the files the toolchain accepts. The
// toolchain parses each line with go/parser; Unmarshal is a hand-written
// scanner for the small grammar that go/parser and the toolchain's checks
// admit together (comments, a trailing comma, a spread "...", unary operators
// before Inf, legacy octal, digit separators, a leading byte order mark), so
// that reading a large []byte literal costs a few linear passes and no AST.
//
// [FormatCall] prints values as Go source for reports, such as
// f.Add([]byte("a"), int(1001)); unlike a corpus line, it stays valid Go for
// NaN, infinities and negative zero.
//
// The package also holds the structured codec, which carries a Go value of a
// type that native fuzzing cannot take (a struct, a slice, a map, a pointer,
// ...) as one []byte fuzz argument. [CheckType] tells whether a type can be
// carried, [Decode] turns any byte string into a value of that type (decoding
// is total: every mutation of the fuzzer is a valid input, and lengths are
// capped by the input so that a few bytes never allocate much), and [Encode]
// is its canonical inverse, whose shorter encodings are the simpler values. The
// format is described in structured.go and structured_scalar.go.
package encoding
