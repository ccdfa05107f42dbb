package failure

import (
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
)

// The rule for failures observed inside the test process, where fuzzshrink's
// session runs candidates as subtests and recovers their panics. It must
// agree with the rule for failures read from a test binary's output (the
// command's parser), so that a candidate fails the same way in and out of
// the process.

// Recovered returns the signature of a panic with value r, recovered by a
// function deferred in the test: the message class as [PanicText] has it
// for the message the runtime would print, and the position of the first
// user frame below runtime.gopanic. For a value the user's code made (a
// string, an error, …) the Text is left to the caller, who shapes msg, the
// message the runtime would print. It must be called from the deferred
// function.
func Recovered(r any) (sig Signature, msg string) {
	sig = Signature{Kind: Panic, Pos: callerPos("runtime.gopanic")}
	sig.Text, msg = recoveredText(r)
	return sig, msg
}

// Goexited returns the signature of a test that t.FailNow (t.Fatal, …) ended:
// the position of the first user frame below runtime.Goexit. It must be
// called from a function deferred in the test. A test that failed without
// ending (t.Error) is known by its kind alone: the testing package keeps
// that position to itself.
func Goexited() Signature {
	return Signature{Kind: Fail, Pos: callerPos("runtime.Goexit")}
}

// recoveredText returns the Text of a panic with value r, as the command
// reads it from the message the runtime prints, or the message of a value
// the user's code made.
func recoveredText(r any) (text, msg string) {
	switch r := r.(type) {
	case runtime.Error:
		return PanicText(r.Error()), ""
	case error:
		return "", r.Error()
	case fmt.Stringer:
		return "", r.String()
	case string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, float32, float64, complex64, complex128:
		return "", fmt.Sprint(r)
	}
	// The runtime prints a value of a named basic type as T(v), and any
	// other as (T) and an address.
	switch v := reflect.ValueOf(r); v.Kind() {
	case reflect.String:
		return "", fmt.Sprintf("%s(%q)", v.Type(), v.String())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return "", fmt.Sprintf("%s(%v)", v.Type(), r)
	}
	return fmt.Sprintf("(%T)", r), ""
}

// goroot is the directory of the runtime's source, whatever -trimpath did.
var goroot = func() string {
	_, file, _, _ := runtime.Caller(0)
	if pc := reflect.ValueOf(runtime.Gosched).Pointer(); pc != 0 {
		file, _ = runtime.FuncForPC(pc).FileLine(pc)
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file))) // …/src/runtime/proc.go
}()

// callerPos returns file:line of the first user frame below the frame of
// the function named after (the runtime function that raised the panic or
// ended the test), or "" if after is not on the stack; with after empty,
// of the first user frame on the stack.
func callerPos(after string) string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	seen := after == ""
	for {
		fr, more := frames.Next()
		if seen && UserFrame(goroot, fr.Function, fr.File) {
			return fmt.Sprintf("%s:%d", filepath.Base(fr.File), fr.Line) // as testing names log positions
		}
		seen = seen || fr.Function == after
		if !more {
			return ""
		}
	}
}

// PanicStack returns the frames of the user's code on the stack of a
// panic, from the one that panicked down, each as two lines as the runtime
// prints them: the function, then a tab and file:line. It must be called
// from the function deferred in the test that recovers the panic.
func PanicStack() []string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	var out []string
	seen := false
	for {
		fr, more := frames.Next()
		if seen && UserFrame(goroot, fr.Function, fr.File) {
			out = append(out, fr.Function, fmt.Sprintf("\t%s:%d", fr.File, fr.Line))
		}
		seen = seen || fr.Function == "runtime.gopanic"
		if !more {
			return out
		}
	}
}

// Errored returns the signature of a test that t.Error (or t.Fail) failed
// without ending it, called where Errored is called from: the position of
// the first user frame on the stack. fuzzshrink calls it in its own Error
// methods, which the testing package does not report to the caller.
func Errored() Signature {
	return Signature{Kind: Fail, Pos: callerPos("")}
}

// logPosRE matches a log line of a test as the testing package writes it:
// its indentation, then "file.go:line: ".
var logPosRE = regexp.MustCompile(`^(\s*)([^\s:]+\.go:\d+): `)

// LastLog returns the position and the message, all its lines, of the last
// entry of a test's log as the testing package writes it when the test is
// not verbose: "file.go:line: message", the message's later lines indented
// four spaces more than its first. Without markers (Go 1.26, or a test
// that is not verbose), the last entry is the failure's: a t.Log after the
// t.Error that failed the test cannot be told from it.
func LastLog(out string) (pos, msg string) {
	cont := ""
	for _, l := range strings.Split(out, "\n") {
		if m := logPosRE.FindStringSubmatchIndex(l); m != nil {
			pos, msg, cont = l[m[4]:m[5]], l[m[1]:], l[m[2]:m[3]]+"    "
			continue
		}
		if cont != "" && strings.HasPrefix(l, cont) && len(msg) < MaxMessage {
			msg += "\n" + l[len(cont):]
			continue
		}
		cont = ""
	}
	return pos, msg
}
