package testbin

import (
	"bytes"
	"fmt"
	"regexp"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// ParseCheck reads the outcomes of the entries names of target from the
// output of a run of the test binary, shaping the message of each entry's
// failure with its function in shapes. A *BadCorpusError says that the
// toolchain ran none, refusing a file of the corpus.
func ParseCheck(co CheckOutput, target string, names []string, tc *Toolchain, shapes map[string]func(failure.Signature, string) string) (map[string]failure.Signature, error) {
	index := map[string]int{}
	for i, n := range names {
		index[target+"/"+n] = i
	}
	done, stale := parseRun(co, tc, func(n string) (int, bool) { i, ok := index[n]; return i, ok },
		func(i int, sig failure.Signature, msg string) string { return shapes[names[i]](sig, msg) })
	if len(done) == 0 && stale != "" {
		return nil, &BadCorpusError{Msg: stale}
	}
	got := map[string]failure.Signature{}
	for i, n := range names {
		sig, ok := done[i]
		if !ok {
			return nil, fmt.Errorf("the test binary did not run %s/%s:\n%s", target, n, plain(co.Out))
		}
		got[n] = sig
	}
	return got, nil
}

// A TestOutcome is how one test or subtest of a run ended.
type TestOutcome struct {
	Name string            // "TestX", "FuzzX/seed#2"
	Sig  failure.Signature // the zero Signature if it passed
}

// ParseTests reads how each test and subtest of a run of the test binary
// that want accepts ended, in the order they ran, shaping the message of
// each failure with shape (nil: no Text). A test the run did not finish,
// because an earlier one crashed the process, is not among them.
func ParseTests(co CheckOutput, tc *Toolchain, want func(name string) bool, shape func(sig failure.Signature, msg string) string) []TestOutcome {
	var names []string
	index := map[string]int{}
	var shapeI func(int, failure.Signature, string) string
	if shape != nil {
		shapeI = func(_ int, sig failure.Signature, msg string) string { return shape(sig, msg) }
	}
	done, _ := parseRun(co, tc, func(n string) (int, bool) {
		if !want(n) {
			return 0, false
		}
		i, ok := index[n]
		if !ok {
			i = len(names)
			index[n], names = i, append(names, n)
		}
		return i, true
	}, shapeI)
	var out []TestOutcome
	for i, n := range names {
		if sig, ok := done[i]; ok {
			out = append(out, TestOutcome{Name: n, Sig: sig})
		}
	}
	return out
}

// parseRun reads a run's output with the test or subtest names index
// accepts as inputs, and returns how each input that finished ended, and
// the toolchain's complaint if it refused the corpus.
func parseRun(co CheckOutput, tc *Toolchain, index func(name string) (int, bool), shape func(i int, sig failure.Signature, msg string) string) (done map[int]failure.Signature, stale string) {
	p := newOutputParser(index, tc)
	p.shape = shape
	done = map[int]failure.Signature{}
	for _, l := range bytes.Split(co.Out, []byte("\n")) {
		if i, sig := p.line(bytes.TrimSuffix(l, []byte("\r"))); i >= 0 {
			done[i] = sig
		}
	}
	if i, sig := p.end(co.Exit); i >= 0 {
		if co.Exit == exitMemory && !sig.Crash() {
			sig = failure.Signature{Kind: failure.Memory} // the limit killed it
		}
		done[i] = sig
	}
	return done, p.stale
}

// A BadCorpusError says that go test refused to run a target because an
// entry in its corpus directory is malformed or stale. Msg is the
// toolchain's complaint, as in `"testdata/fuzz/FuzzX/a": mismatched types
// in corpus entry: [int], want [string]`.
type BadCorpusError struct{ Msg string }

func (e *BadCorpusError) Error() string { return e.Msg }

// joinNames joins entry names into an alternation of a -test.run pattern.
func joinNames(names []string) string {
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(regexp.QuoteMeta(n))
	}
	return b.String()
}
