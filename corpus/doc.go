// Package corpus reads and writes the fuzz corpora of Go packages, as the
// toolchain keeps them: the seed corpus that go test replays from
// testdata/fuzz/<Target>/ in the package directory ([SeedCorpus]), and the
// generated corpus that go test -fuzz caches under
// $GOCACHE/fuzz/<import path>/<Target>/ ([CacheCorpus], [GoCache]). Each
// file holds one input in the "go test fuzz v1" format, which package
// corpus reads and writes byte for byte as the toolchain does.
//
// What it promises:
//
//   - Reading never stops at a bad entry: a malformed, unreadable or
//     oversized file, or a directory where a file should be, comes back as
//     an [Entry] with Err set, naming the path and, for a syntax error, the
//     line ("testdata/fuzz/FuzzX/a:2: …"), beside the good entries, sorted
//     by name. A missing directory is an empty corpus.
//   - Writing names a file as the toolchain does (the first 16 hex digits
//     of the SHA-256 of its contents, [Name]) and never loses data: the
//     file is written to a temporary file in the same directory, synced,
//     and linked into place, so that a reader sees no file or the whole
//     file, and an existing file of that name is never replaced.
//   - Nothing here runs a test: whether an entry fails is for go test, or
//     the fuzzmin command, to say.
package corpus
