// Package doccheck holds no code, only tests of what the repository shows
// its readers. The public API of the packages users import (fuzzshrink,
// corpus) is recorded in api/*.txt, one line per exported name, and a
// change to it fails the test until the files are rewritten with
//
//	go test ./internal/doccheck -update
//
// so that it is a decision a commit shows. And every link in the
// documentation resolves, the doc links of Go comments (a name in
// brackets, or a qualified name) and the relative links of the Markdown
// files, so that a renamed or removed name, file or heading cannot leave
// one behind.
package doccheck
