package failure

import (
	"path/filepath"
	"regexp"
	"strings"
)

// A Signature identifies how an input fails. The zero Signature means the
// input passed.
type Signature struct {
	Kind string `json:"kind"`           // one of the Kind constants
	Text string `json:"text,omitempty"` // masked message; empty where the position says it all
	Pos  string `json:"pos,omitempty"`  // file:line in the user's code
}

// Kinds of failure.
const (
	Panic   = "panic"         // a panic, including os.Exit(0) under go test
	Fatal   = "fatal error"   // a runtime fatal error (concurrent map writes, stack overflow, out of memory)
	Fail    = "fail"          // t.Error, t.Fatal and their kin
	Exit    = "exit"          // the process exited in the middle of the input (os.Exit)
	Timeout = "timeout"       // the input ran longer than the per-input limit
	Memory  = "out of memory" // the input's process grew past the memory limit, or the runtime ran out
	Race    = "data race"     // the race detector saw one (a test binary built with -race)
)

// Failed reports whether the signature is a failure.
func (s Signature) Failed() bool { return s.Kind != "" }

// Crash reports whether the failure ends the process, so that it can only
// be observed from outside.
func (s Signature) Crash() bool {
	return s.Kind == Fatal || s.Kind == Exit || s.Kind == Timeout || s.Kind == Memory
}

func (s Signature) String() string {
	if !s.Failed() {
		return "ok"
	}
	var b strings.Builder
	b.WriteString(s.Kind)
	if s.Text != "" {
		b.WriteString(": ")
		b.WriteString(s.Text)
	}
	if s.Pos != "" {
		b.WriteString(" at ")
		b.WriteString(filepath.Base(s.Pos))
	}
	return b.String()
}

var numberRE = regexp.MustCompile(`0[xX][0-9a-fA-F]+|[0-9]+`)

// Mask replaces the numbers in a message, which change as the input shrinks.
func Mask(s string) string { return numberRE.ReplaceAllString(s, "N") }

// PanicText is the part of a panic message, as the runtime prints it, that
// identifies the failure: the runtime's own messages with numbers masked,
// the type of a value the runtime prints as "(T) …", and the os.Exit(0) trap
// of go test. It is "" for the message of a value the user's code made (a
// string, an error, a Stringer: see [UserPanic]), whose [Shape] the caller
// takes with the input at hand.
func PanicText(msg string) string {
	for _, prefix := range runtimeMessages {
		if strings.HasPrefix(msg, prefix) {
			return Mask(msg)
		}
	}
	switch {
	case strings.HasPrefix(msg, "("):
		if i := strings.Index(msg, ") "); i > 0 {
			return msg[:i+1]
		}
	}
	return ""
}

// UserPanic reports whether a panic message, as the runtime prints it, is
// that of a value the user's code made: a string, an error or a Stringer,
// which the runtime prints as their text (not a runtime error, and not a
// value of another type, printed as "(T) …").
func UserPanic(msg string) bool {
	for _, prefix := range runtimeMessages {
		if strings.HasPrefix(msg, prefix) {
			return false
		}
	}
	return !strings.HasPrefix(msg, "(") || !strings.Contains(msg, ") ")
}

// runtimeMessages start the panic messages of the runtime (runtime.Error
// values, most but not all of them "runtime error: …"), and of go test's
// trap of os.Exit(0).
var runtimeMessages = []string{
	"runtime error: ",
	"assignment to entry in nil map",
	"close of closed channel",
	"close of nil channel",
	"send on closed channel",
	"makechan: size out of range",
	"value method ",
	"unexpected call to os.Exit(",
}

// UserFrame reports whether a stack frame of function fn in file is the
// user's code: not in the Go distribution (whose source is under goroot),
// not in the generated test main, and not in fuzzshrink, whose adapter calls
// the fuzz function.
func UserFrame(goroot, fn, file string) bool {
	return !strings.HasPrefix(filepath.ToSlash(file), filepath.ToSlash(goroot)+"/src/") &&
		filepath.Base(file) != "_testmain.go" &&
		!strings.HasPrefix(fn, "github.com/fuzzmin/fuzzmin/fuzzshrink.")
}
