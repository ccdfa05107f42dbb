package testbin

import (
	"debug/buildinfo"
	"fmt"
	"go/version"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Releases are the Go releases whose test binaries fuzzmin has been checked
// against: their output and its framing, and their fuzz worker protocol.
var Releases = []string{"go1.26", "go1.27"}

// A Toolchain is the Go release that built a test binary, and what fuzzmin
// makes of it: how to read the binary's output, and whether its fuzz worker
// mode may run candidates.
//
// fuzzmin itself may be built by another release than the test binary: the
// binary is built by the go command on PATH, which GOTOOLCHAIN or a
// toolchain line in go.mod may switch. So the release is read from the
// binary itself.
type Toolchain struct {
	Version string // the release, "go1.27.3"; "" if it cannot be read
	// Experiments are the GOEXPERIMENT settings the binary was built
	// with, "jsonv2" of "go1.26.8-X:jsonv2" (as the binary records its
	// version); they change neither its output nor its worker protocol.
	Experiments string
	GOROOT      string // of the go command that built the binary

	// framed says that the testing package marks each error line in
	// -test.v=test2json output: ^O before it, ^N after, and ^[ before
	// every marker byte in the test's own text (go1.27's testing.go,
	// markErrBegin). Go 1.26 marks only its own framing lines, with ^V.
	framed bool
	// noWorker says why candidates may not run in the binary's fuzz
	// worker mode: an unknown release, or a worker protocol that differs
	// from the one fuzzmin speaks. "" when the protocol was verified.
	noWorker string
}

// Identify tells which release built the test binary at path, given the
// GOROOT and GOVERSION of the go command that built it, and checks that
// release's fuzz worker protocol against its source, src (GOROOT/src; see
// protocol.go), when the binary was built by that GOROOT's release.
func Identify(path, goroot, goversion, src string) *Toolchain {
	t := &Toolchain{GOROOT: goroot, framed: true}
	bi, err := buildinfo.ReadFile(path)
	if err == nil {
		t.Version, t.Experiments = splitVersion(bi.GoVersion)
	}
	goversion, _ = splitVersion(goversion)
	lang := version.Lang(t.Version)
	switch {
	case t.Version == "":
		t.noWorker = fmt.Sprintf("fuzzmin cannot tell which Go release built %s", filepath.Base(path))
	case !slices.Contains(Releases, lang):
		t.noWorker = fmt.Sprintf("fuzzmin knows %s, not %s, which built the test binary", strings.Join(Releases, " and "), t.Version)
	case goversion != t.Version:
		t.noWorker = fmt.Sprintf("the test binary was built by %s, but the go command is %s, whose sources cannot tell %s's worker protocol", t.Version, goversion, t.Version)
	default:
		if err := verifyProtocol(src); err != nil {
			t.noWorker = fmt.Sprintf("the fuzz worker protocol of %s differs from the one fuzzmin speaks: %v", t.Version, err)
		}
	}
	if lang != "" && version.Compare(lang, "go1.27") < 0 {
		t.framed = false
	}
	return t
}

// splitVersion reads a Go version as a binary records it, "go1.26.8" or
// "go1.26.8-X:jsonv2,greenteagc" when built with GOEXPERIMENT (runtime.Version
// says "go1.26.8 X:jsonv2"), as the release and the experiments.
func splitVersion(v string) (release, experiments string) {
	for _, sep := range []string{"-X:", " X:"} {
		if r, x, ok := strings.Cut(v, sep); ok {
			return r, x
		}
	}
	return v, ""
}

// Worker reports whether candidates may run in the binary's fuzz worker
// mode, and if not, why, in a sentence for the user.
func (t *Toolchain) Worker() (bool, string) {
	if t.noWorker != "" {
		return false, t.noWorker
	}
	if !WorkerSupported {
		return false, "fuzz worker mode is not supported on this system"
	}
	return true, ""
}

// verified caches verifyProtocol by source directory: a run builds many
// binaries with one toolchain.
var verified sync.Map // GOROOT/src → error

func verifyProtocol(src string) error {
	if err, ok := verified.Load(src); ok {
		return errOrNil(err)
	}
	err := checkProtocol(src)
	verified.Store(src, err)
	return err
}

func errOrNil(v any) error {
	if v == nil {
		return nil
	}
	err, _ := v.(error)
	return err
}
