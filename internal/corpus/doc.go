// Package corpus reads and writes the fuzz corpora of one Go package: the
// seed corpus the toolchain replays from testdata/fuzz/<Target>/, and the
// generated corpus it caches under $GOCACHE/fuzz/<import path>/<Target>/.
//
// Reading never stops at a bad entry: a malformed, unreadable, empty or
// oversized file, or a directory where a file should be, comes back as an
// [Entry] with Err set (naming the path and, for a syntax error, the line),
// beside the good entries. A missing directory is an empty corpus.
//
// Writing follows the toolchain's naming (the first 16 hex digits of the
// SHA-256 of the file) and never loses data: the file is written to a
// temporary file in the same directory, synced, and linked into place, so a
// reader sees either no file or the whole file, and an existing file of that
// name is never replaced.
package corpus
