package cli

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// signature is how an input fails; see package failure.
type signature = failure.Signature

const (
	kindPanic   = failure.Panic
	kindFatal   = failure.Fatal
	kindFail    = failure.Fail
	kindExit    = failure.Exit
	kindTimeout = failure.Timeout
)

var (
	logPosRE = regexp.MustCompile(`^\s{4,}([^\s:]+\.go:\d+): `)
	// A frame's file line; GOTRACEBACK=system and crash add fp=, sp= and pc=.
	framePath = regexp.MustCompile(`^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=.*)?$`)
)

// An outputParser reads the output of one test binary run, made with
// -test.v=test2json so that the testing package's own lines are framed by a
// ^V byte and cannot be confused with the test's output. It follows the
// subtests that run inputs and tells the outcome of each.
type outputParser struct {
	inputs func(name string) (int, bool) // the index of the input a subtest name runs
	goroot string                        // frames in files under it are not the user's
	// shape turns the message of a failure of input i (a t.Error, or a
	// panic of the user's value) into its signature's Text; nil: "".
	shape func(i int, msg string) string

	current  int       // index of the input running, or -1
	finished bool      // the current input reported PASS, SKIP or FAIL
	failed   bool      // ... and it was FAIL
	logPos   string    // position of the last log line of the current input
	logMsg   string    // and its message
	crash    signature // a panic or fatal error seen after the current input started
	crashMsg string    // the message of a panic of the user's value, shaped if it counts
	state    int       // where in a crash report the parser is
	lastFunc string    // the function line of the frame being read
	stale    string    // the toolchain's complaint about the corpus, if any
	stales   []string  // and its complaint about each file, if it had several
}

const (
	stateNormal    = iota
	statePanicHead // after "panic: ", before the panic( frame
	stateFrames    // looking for the first user frame
	stateDone      // crash report read
)

func newOutputParser(inputs func(name string) (int, bool), goroot string) *outputParser {
	return &outputParser{inputs: inputs, goroot: goroot, current: -1}
}

// shapeOf is the Text of a failure of input i with message msg.
func (p *outputParser) shapeOf(i int, msg string) string {
	if p.shape == nil || i < 0 {
		return ""
	}
	return p.shape(i, msg)
}

// line consumes one line of output, without its newline. When the line
// shows that an input finished, it returns the input's index and
// signature; otherwise it returns -1.
func (p *outputParser) line(l []byte) (done int, sig signature) {
	if len(l) > 0 && l[0] == 0x16 { // the testing package speaking
		return p.framed(l[1:])
	}
	s := string(l)
	if p.current >= 0 && !p.finished {
		if m := logPosRE.FindStringSubmatchIndex(s); m != nil {
			p.logPos, p.logMsg = s[m[2]:m[3]], s[m[1]:]
			return -1, signature{}
		}
	}
	switch p.state {
	case stateNormal:
		switch {
		case strings.HasPrefix(s, "panic: test timed out after "):
			// go test's -timeout, in a verification run.
			p.crash = signature{Kind: kindTimeout}
			p.state = stateDone
		case strings.HasPrefix(s, "panic: "):
			text := strings.TrimSuffix(strings.TrimSuffix(s[len("panic: "):], " [recovered, repanicked]"), " [recovered]")
			p.crash = signature{Kind: kindPanic, Text: failure.PanicText(text)}
			if failure.UserPanic(text) {
				p.crashMsg = text
			}
			p.state = statePanicHead
		case strings.HasPrefix(s, "fatal error: "):
			p.crash = signature{Kind: kindFatal, Text: failure.Mask(s[len("fatal error: "):])}
			p.state = stateFrames
		case p.current < 0 && (strings.Contains(s, "corpus entry: ") || strings.Contains(s, ": unmarshal: ")):
			// The toolchain refused a file of the corpus before running
			// any: "…": mismatched types in corpus entry: [int], want [string]
			p.stale = strings.TrimSpace(s)
			p.stales = append(p.stales, p.stale)
		}
	case statePanicHead:
		if strings.HasPrefix(s, "panic(") {
			p.state = stateFrames
		}
	case stateFrames:
		if !strings.HasPrefix(s, "\t") {
			p.lastFunc = s
		} else if m := framePath.FindStringSubmatch(s); m != nil && failure.UserFrame(p.goroot, p.lastFunc, m[1]) {
			p.crash.Pos = filepath.Base(m[1]) + ":" + m[2] // as testing names log positions
			p.state = stateDone
		}
	}
	return -1, signature{}
}

func (p *outputParser) framed(l []byte) (done int, sig signature) {
	done = -1
	// A crash report is the last thing a dying process prints: if the
	// testing package reports on a test after one, it was the test's own
	// output. (go test's closing "FAIL\tpkg" line comes after a real one.)
	if bytes.HasPrefix(l, []byte("=== ")) || bytes.HasPrefix(l, []byte("--- ")) {
		p.crash, p.crashMsg, p.state = signature{}, "", stateNormal
	}
	for _, verb := range []string{"=== RUN   ", "--- PASS: ", "--- SKIP: ", "--- FAIL: "} {
		rest, ok := bytes.CutPrefix(l, []byte(verb))
		if !ok {
			continue
		}
		i, ok := p.index(rest)
		if !ok {
			return done, sig
		}
		switch {
		case verb == "=== RUN   ":
			done, sig = p.end(0)
			p.current, p.finished, p.failed, p.logPos, p.logMsg = i, false, false, "", ""
		case i == p.current:
			p.finished, p.failed = true, verb == "--- FAIL: "
		}
	}
	return done, sig
}

// index finds the input that a framing line names, as in
// "=== RUN   FuzzX/c000001" or "--- FAIL: FuzzX/c000001 (0.00s)".
func (p *outputParser) index(line []byte) (int, bool) {
	name, _, _ := bytes.Cut(line, []byte(" "))
	return p.inputs(string(name))
}

// end settles the outcome of the input that was running when the next one
// started (exit 0), or when the process ended (exit is its exit code, or -1
// if it was killed); a crash report counts only if the process died. It
// returns -1 if no input was running.
func (p *outputParser) end(exit int) (int, signature) {
	i := p.current
	if i < 0 {
		return -1, signature{}
	}
	var sig signature
	switch {
	case p.crash.Failed() && exit != 0:
		sig = p.crash
		if p.crashMsg != "" {
			sig.Text = p.shapeOf(i, p.crashMsg)
		}
	case p.finished && p.failed:
		sig = signature{Kind: kindFail, Text: p.shapeOf(i, p.logMsg), Pos: p.logPos}
	case p.finished:
		// passed
	case exit > 0:
		sig = signature{Kind: kindExit, Text: "exit status " + strconv.Itoa(exit)}
	}
	p.current, p.crash, p.crashMsg, p.state = -1, signature{}, "", stateNormal
	return i, sig
}
