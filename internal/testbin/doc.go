// Package testbin is the Go toolchain as fuzzmin sees it: building a
// package's test binary, running it on inputs, and reading what it says.
// It is the one place that knows how a Go release behaves; everything above
// it speaks of the outcome of each input, a failure.Signature.
//
// fuzzmin supports the releases in [Releases]. The test binary may be
// built by another release than fuzzmin itself (GOTOOLCHAIN, a toolchain
// line in go.mod), so [Identify] reads the release from the binary and
// decides by it: how to read its output, and whether candidates may run in
// its fuzz worker mode, which only a verified protocol allows.
//
// Each file mirrors part of the toolchain, which its comments name:
//
//   - toolchain.go: which release built a binary (debug/buildinfo);
//   - output.go: the output of -test.v=test2json (testing/testing.go:
//     chattyPrinter, outputWriter.writeLine, escapeMarkers; read as
//     cmd/internal/test2json reads it), with Go 1.27's error marks;
//   - runner.go, process.go: running inputs as the seed corpus of a
//     private corpus directory (testing/fuzz.go runs a seed corpus in file
//     name order, one subtest per file), in processes of their own;
//   - worker.go, protocol.go: the fuzz worker mode (internal/fuzz/worker.go,
//     mem.go, sys_posix.go; testing/fuzz.go), checked against the source of
//     the release that built the binary;
//   - batch.go and package hook: fuzzmin's own fuzz worker, added to the
//     binaries it builds, which runs many candidates per call (testing/fuzz.go:
//     F.Fuzz, fuzzState; testing/testing.go: testDeps), checked as it starts,
//     and fuzzes past failures, its workers shims of the toolchain's
//     (hook/shim.go: internal/fuzz/worker.go's calls and answers, mem.go's
//     header), checked with the worker protocol;
//   - exec.go, check.go: the go test run that builds the binary through
//     go test -exec (cmd/go/internal/test) and runs the final checks;
//   - stale.go, argtypes.go: the testing package's complaints about corpus
//     files that do not fit a target (internal/fuzz/fuzz.go, CheckCorpus);
//   - cover.go: coverage builds and profiles (go test -cover, cmd/cover);
//   - session.go: a process that runs a whole in-process search.
package testbin
