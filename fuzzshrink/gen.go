package fuzzshrink

import (
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// A Gen generates values of type V: a description of a value space whose
// invariants hold by construction. Generators are immutable and safe for
// concurrent use; combine them with the functions of this package
// ([SliceOf], [Map], [FlatMap], [OneOf], [Compose], …) and the methods of
// Gen ([Gen.Filter]).
//
// A generator draws its values from typed choices (integers in a range,
// floats, bools, lengths, branches), which come from a choice sequence: the
// []byte input of a fuzz target ([Fuzz]), a case that [Check] generates, or
// a shrink candidate. Every byte string replays to a valid value, and the
// shrinker works on the choices and on the spans of the draws that made
// them, so that shrinking keeps the invariants too.
type Gen[V any] struct {
	info  *shrink.Drawer
	draw  func(t *T) V
	force func(t *T, v V) error // writes the choices that draw v; nil if the generator cannot
}

func newGen[V any](name string, draw func(*T) V, force func(*T, V) error) *Gen[V] {
	return &Gen[V]{info: &shrink.Drawer{Name: name}, draw: draw, force: force}
}

// String describes the generator, such as "SliceOf(IntRange(0, 9))".
func (g *Gen[V]) String() string { return g.info.Name }

// Draw draws a value from the generator within the property run by t. The
// label names the value in reports: a failure is reported as one
// "label = value" line per draw made by the property itself (draws inside
// [Compose] and the other combinators are part of their value).
func (g *Gen[V]) Draw(t *T, label string) V {
	if t.forced != nil && label != "" {
		if x, ok := t.forced.take(label); ok {
			return forceDraw(t, g, label, x)
		}
	}
	if st := t.step; st != nil && st.depth == 0 {
		// An argument of a command of Repeat (statemachine.go).
		st.depth++
		v := g.drawn(t, label)
		st.depth--
		if st.seq.keep {
			c := &st.seq.cmds[len(st.seq.cmds)-1]
			c.args = append(c.args, v)
		}
		return v
	}
	return g.drawn(t, label)
}

// drawn is Draw once the value is not forced.
func (g *Gen[V]) drawn(t *T, label string) V {
	if !t.recording {
		return g.draw(t)
	}
	i := t.begin(g.info, label)
	v := g.draw(t)
	t.end(i)
	if t.keepDraws && t.rec.Spans[i].Parent < 0 {
		t.rec.Draws = append(t.rec.Draws, shrink.Drawn{Label: label, Value: v})
	}
	return v
}

// value draws a value for a combinator: a draw without a label.
func (g *Gen[V]) value(t *T) V { return g.Draw(t, "") }

// T is what a property gets: the *testing.T of the test, which it embeds,
// and the source of the values its generators draw. Its methods that report
// (Error, Fatal, Skip, Log, Cleanup, …) belong to the run of the property:
// under [Fuzz] they are those of the fuzz test's *testing.T; under [Check],
// and when fuzzmin shrinks a failure of a [Fuzz] target, the property runs
// many times, and they are recorded: only the failure reported at the end
// is shown. Call them on t, not on t.T.
type T struct {
	*testing.T

	tb      testing.TB // Check's test, for Name when T is nil
	capture bool       // record failures and logs (Check, AddDraws) instead of reporting them to T

	data      []byte     // replay: the sequence read; generation: the tokens written
	pos       int        // the next token
	gen       *generator // nil in replay
	pastEnd   int        // choices drawn past the end of the data
	recording bool       // record the choices and spans
	keepDraws bool       // record the values of top-level draws
	rec       shrink.Record
	cur       int32            // the innermost open span, -1 at the top
	nest      []*shrink.Drawer // the OneOf draws open, innermost last
	probes    []*shrink.Drawer // the OneOfs whose base case t looks for (oneof.go)
	recursed  *shrink.Drawer   // the probed OneOf that t drew again
	forced    *forcing
	step      *cmdStep      // the step of Repeat running
	short     *shortFailure // a Repeat failed before it ran its minimum of steps
	filters   *filterStats  // Check: the filters' acceptance over the test

	// The outcome of a run, in capture mode (and the error position in all).
	failed, skipped, returned bool
	invalid                   string // why the run is not a valid case: a Filter, a skip
	genErr                    string // why generation cannot go on: the test fails
	errSig                    failure.Signature
	sig                       failure.Signature // how the run failed, for runChoices
	panicValue                any
	panicStack                []string // the user's frames, from failure.PanicStack
	logs                      []string
	cleanups                  []func()
	scores                    []score
}

// newT returns a T that replays data, or generates if gen is not nil.
func newT(tt *testing.T, data []byte, gen *generator) *T {
	return &T{T: tt, data: data, gen: gen, cur: -1}
}

// begin opens a span of g's draw and returns its index.
func (t *T) begin(g *shrink.Drawer, label string) int32 {
	i := int32(len(t.rec.Spans))
	t.rec.Spans = append(t.rec.Spans, shrink.Span{Drawer: g, Label: label, First: int32(len(t.rec.Choices)), Last: -1, Parent: t.cur})
	t.cur = i
	return i
}

// end closes span i.
func (t *T) end(i int32) {
	s := &t.rec.Spans[i]
	s.Last = int32(len(t.rec.Choices))
	t.cur = s.Parent
}

// closeSpans closes the spans a failure left open.
func (t *T) closeSpans() {
	for ; t.cur >= 0; t.cur = t.rec.Spans[t.cur].Parent {
		t.rec.Spans[t.cur].Last = int32(len(t.rec.Choices))
	}
}

// leave closes the innermost OneOf draw.
func (t *T) leave() { t.nest = t.nest[:len(t.nest)-1] }

// invalidate ends a run that is not a valid case (a Filter that rejects
// every value it tries, a distinct collection that cannot grow to its
// minimum): it counts as passing. Under go test the input is skipped.
func (t *T) invalidate(format string, args ...any) {
	t.invalid = fmt.Sprintf(format, args...)
	if !t.capture {
		t.T.Helper()
		t.T.Skip("fuzzshrink: " + t.invalid)
	}
	runtime.Goexit()
}

// generating reports whether t generates a case for Check (rather than
// replaying a sequence or forcing values).
func (t *T) generating() bool { return t.gen != nil && !t.gen.zero }

// cannotGenerate ends generation for good: the generators cannot produce
// a valid case (a Filter that rejects almost everything), which Check
// reports as the test's failure. In replay, the case is only invalid.
func (t *T) cannotGenerate(format string, args ...any) {
	if !t.generating() || !t.capture {
		t.invalidate(format, args...)
	}
	t.genErr = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// Helper is there for code written for a *testing.T, but it cannot mark
// its caller as a test helper: testing marks the function that calls
// testing.T's Helper, which is this method, and has no way to skip one
// more. A helper that takes a *T and should not be the position of its
// failures calls t.T.Helper() where t.T is not nil (it is nil under
// [Find], and under [Check] given a testing.TB that is not a *testing.T).
func (t *T) Helper() {
	if t.T != nil {
		t.T.Helper()
	}
}

// Name returns the name of the test.
func (t *T) Name() string {
	switch {
	case t.T != nil:
		return t.T.Name()
	case t.tb != nil:
		return t.tb.Name()
	}
	return ""
}

// Log records its arguments as fmt.Sprintln does, as testing.T.Log.
func (t *T) Log(args ...any) {
	if !t.capture {
		t.T.Helper()
		t.T.Log(args...)
		return
	}
	t.log(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
}

// Logf records its arguments as fmt.Sprintf does, as testing.T.Logf.
func (t *T) Logf(format string, args ...any) {
	if !t.capture {
		t.T.Helper()
		t.T.Logf(format, args...)
		return
	}
	t.log(fmt.Sprintf(format, args...))
}

// log records a message of the current run with its caller's position,
// as the testing package prints it.
func (t *T) log(msg string) {
	pos := "???:1"
	pcs := make([]uintptr, 16)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		fr, more := frames.Next()
		if !strings.HasPrefix(fr.Function, "github.com/fuzzmin/fuzzmin/fuzzshrink.") || strings.HasSuffix(fr.File, "_test.go") {
			pos = fmt.Sprintf("%s:%d", fr.File[strings.LastIndexAny(fr.File, `/\`)+1:], fr.Line)
			break
		}
		if !more {
			break
		}
	}
	t.logs = append(t.logs, pos+": "+msg)
}

// Fail marks the run as failed and goes on, as testing.T.Fail.
func (t *T) Fail() {
	if !t.errSig.Failed() {
		t.errSig = failure.Errored()
	}
	if !t.capture {
		t.T.Helper()
		t.stepFailing()
		t.T.Fail()
		return
	}
	t.failed = true
}

// Failed reports whether the run has failed.
func (t *T) Failed() bool {
	if !t.capture {
		return t.T.Failed()
	}
	return t.failed
}

// FailNow marks the run as failed and stops it, as testing.T.FailNow.
func (t *T) FailNow() {
	if !t.capture {
		t.T.Helper()
		t.stepFailing()
		t.T.FailNow()
		return
	}
	t.failed = true
	runtime.Goexit()
}

// Error is Log followed by Fail.
func (t *T) Error(args ...any) {
	if !t.capture {
		t.errored()
		t.T.Helper()
		t.stepFailing()
		t.T.Error(args...)
		return
	}
	t.log(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
	t.errored()
	t.failed = true
}

// Errorf is Logf followed by Fail.
func (t *T) Errorf(format string, args ...any) {
	if !t.capture {
		t.errored()
		t.T.Helper()
		t.stepFailing()
		t.T.Errorf(format, args...)
		return
	}
	t.log(fmt.Sprintf(format, args...))
	t.errored()
	t.failed = true
}

// errored records where the run first failed without ending.
func (t *T) errored() {
	if !t.errSig.Failed() {
		t.errSig = failure.Errored()
	}
}

// Fatal is Log followed by FailNow.
func (t *T) Fatal(args ...any) {
	if !t.capture {
		t.T.Helper()
		t.stepFailing()
		t.T.Fatal(args...)
		return
	}
	t.log(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
	t.FailNow()
}

// Fatalf is Logf followed by FailNow.
func (t *T) Fatalf(format string, args ...any) {
	if !t.capture {
		t.T.Helper()
		t.stepFailing()
		t.T.Fatalf(format, args...)
		return
	}
	t.log(fmt.Sprintf(format, args...))
	t.FailNow()
}

// Skip is Log followed by SkipNow.
func (t *T) Skip(args ...any) {
	if !t.capture {
		t.T.Helper()
		t.T.Skip(args...)
		return
	}
	t.log(strings.TrimSuffix(fmt.Sprintln(args...), "\n"))
	t.SkipNow()
}

// Skipf is Logf followed by SkipNow.
func (t *T) Skipf(format string, args ...any) {
	if !t.capture {
		t.T.Helper()
		t.T.Skipf(format, args...)
		return
	}
	t.log(fmt.Sprintf(format, args...))
	t.SkipNow()
}

// SkipNow ends the run as skipped: under Check, a case that is neither a
// failure nor a pass, like one a Filter rejects.
func (t *T) SkipNow() {
	if !t.capture {
		t.T.Helper()
		t.T.SkipNow()
		return
	}
	t.skipped = true
	t.invalid = "skipped"
	runtime.Goexit()
}

// Skipped reports whether the run was skipped.
func (t *T) Skipped() bool {
	if !t.capture {
		return t.T.Skipped()
	}
	return t.skipped
}

// Cleanup registers f to run when the run of the property ends (each case
// of Check, each input of a fuzz target).
func (t *T) Cleanup(f func()) {
	if !t.capture {
		t.T.Cleanup(f)
		return
	}
	t.cleanups = append(t.cleanups, f)
}

// runCaptured runs prop with t in capture mode, on a goroutine of its own
// so that FailNow and SkipNow can end it, and records how it ended in t:
// the failure signature (by the rules of internal/failure, as the
// in-process session has them), or that it is not a valid case.
func runCaptured(t *T, prop func(*T)) failure.Signature {
	t.capture = true
	var sig failure.Signature
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer t.runCleanups()
		defer func() {
			r := recover()
			switch {
			case r != nil:
				var msg string
				sig, msg = failure.Recovered(r)
				if msg != "" {
					sig.Text = shapeMessage(sig, msg)
				}
				t.panicValue, t.panicStack = r, failure.PanicStack()
			case t.returned || t.invalid != "" || t.genErr != "":
			case t.failed:
				sig = t.logged()
			default: // runtime.Goexit called by the property itself
				sig = failure.Goexited()
			}
		}()
		prop(t)
		t.returned = true
	}()
	<-done
	if !sig.Failed() && t.failed && t.invalid == "" {
		sig = t.logged()
	}
	t.closeSpans()
	return sig
}

// logged is the signature of a run that t.Error or t.Fatal failed, as the
// command reads it from the test's output: the position and the shape of
// the message of the last line logged.
func (t *T) logged() failure.Signature {
	if len(t.logs) == 0 {
		return failure.Signature{Kind: failure.Fail}
	}
	pos, msg, _ := strings.Cut(t.logs[len(t.logs)-1], ": ")
	sig := failure.Signature{Kind: failure.Fail, Pos: pos}
	sig.Text = shapeMessage(sig, msg)
	return sig
}

// packageTemplates are the message templates of the Go files of the test
// binary's working directory, the package under test: Check judges
// failures by them as the command does by those of every package the
// binary links, and masks what they do not explain.
var packageTemplates = sync.OnceValue(func() *failure.Templates {
	files, _ := filepath.Glob("*.go")
	return failure.NewTemplates(failure.SourceTemplates(files))
})

// shapeMessage returns the identity text of msg, the message of a failure
// of sig's kind at sig's position. The choice sequence never stands in a
// message as such: no input to mask.
func shapeMessage(sig failure.Signature, msg string) string {
	mask := func(text string) string { return failure.Shape(text, nil) }
	if text, ok := packageTemplates().Match(sig.Pos, msg, mask); ok {
		return text
	}
	return mask(msg)
}

// runCleanups runs the functions Cleanup registered, last first.
func (t *T) runCleanups() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
	t.cleanups = nil
}

// describe returns the type of V for messages.
func describe[V any]() string { return reflect.TypeFor[V]().String() }
