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
// [AppendValue] spells one value as a corpus line does; package gosyntax
// builds on it to print values as Go source for reports.
package encoding
