package testbin

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// The output of a test binary run with -test.v=test2json, as the testing
// package writes it (testing.go: chattyPrinter, outputWriter.writeLine) and
// cmd/internal/test2json reads it:
//
//   - the testing package's own lines ("=== RUN", "--- FAIL: …") start with
//     ^V (markFraming);
//   - from Go 1.27, an error (t.Error, t.Fatal and their kin) starts with
//     ^O (markErrBegin) and ends with ^N (markErrEnd), before the newline
//     of its last line, and the test's own text escapes each of those three
//     bytes and ^[ with a ^[ (markEscape). A t.Log line is not marked: the
//     markers tell an error from a log line with certainty;
//   - Go 1.26 marks no error: the failure's line is the last line the test
//     logged before it failed.
//
// Panics and fatal errors come from the runtime, unmarked.
const (
	markFraming  = 'V' &^ '@'
	markErrBegin = 'O' &^ '@'
	markErrEnd   = 'N' &^ '@'
	markEscape   = '[' &^ '@'
)

var (
	// A log or error line of a test: its indentation, "file.go:line: ".
	logPosRE = regexp.MustCompile(`^\s{4,}([^\s:]+\.go:\d+): `)
	// A frame's file line; GOTRACEBACK=system and crash add fp=, sp= and pc=.
	framePath = regexp.MustCompile(`^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?(?: fp=.*)?$`)
	// The prefix the log package writes by default (and with its other
	// flags): 2009/01/23 01:23:23.123123 file.go:23:
	logPrefixRE = regexp.MustCompile(`^(?:\d{4}/\d\d/\d\d )?(?:\d\d:\d\d:\d\d(?:\.\d+)? )?(?:\S+\.go:\d+: )?`)
	// go test's line after a test binary that exited.
	exitStatusRE = regexp.MustCompile(`^exit status \d+$`)
)

// An outputParser reads the output of one test binary run, made with
// -test.v=test2json, line by line. It follows the subtests that run inputs
// and tells the outcome of each.
type outputParser struct {
	inputs func(name string) (int, bool) // the index of the input a subtest name runs
	goroot string                        // frames in files under it are not the user's
	framed bool                          // errors are marked (Go 1.27)
	// shape turns the message of a failure of input i (a t.Error, or a
	// panic of the user's value) into its signature's Text; nil: "".
	shape func(i int, sig failure.Signature, msg string) string

	current  int               // index of the input running, or -1
	name     string            // and its name, as the testing package gives it
	finished bool              // the current input reported PASS, SKIP or FAIL
	failed   bool              // ... and it was FAIL
	inErr    bool              // within a marked error, before its ^N
	errPos   string            // position of the failure's line of the current input
	errMsg   string            // and its message, all its lines
	errCont  string            // the indentation of the message's later lines, while they may follow
	crash    failure.Signature // a panic or fatal error seen after the current input started
	crashMsg string            // the message of a panic of the user's value, shaped if it counts
	state    int               // where in a crash report the parser is
	lastFunc string            // the function line of the frame being read
	race     failure.Signature // a data race the race detector reported while the current input ran
	inRace   int               // in a race report: 0 no, 1 yes, 2 in an access's stack, before its first user frame
	lastOut  string            // the last line the current input printed, for an exit's message
	stale    string            // the toolchain's complaint about the corpus, if any
	stales   []string          // and its complaint about each file, if it had several
}

const (
	stateNormal    = iota
	statePanicHead // after "panic: ", before the panic( frame
	stateFrames    // looking for the first user frame
	stateDone      // crash report read
)

func newOutputParser(inputs func(name string) (int, bool), tc *Toolchain) *outputParser {
	return &outputParser{inputs: inputs, goroot: tc.GOROOT, framed: tc.framed, current: -1}
}

// shapeOf is the Text of a failure of input i with message msg. The
// input's name is a value: a candidate's is not the original's.
func (p *outputParser) shapeOf(i int, sig failure.Signature, msg string) string {
	if p.shape == nil || i < 0 {
		return ""
	}
	if p.name != "" {
		msg = strings.ReplaceAll(msg, p.name, "…")
	}
	return p.shape(i, sig, msg)
}

// line consumes one line of output, without its newline. When the line
// shows that an input finished, it returns the input's index and
// signature; otherwise it returns -1.
func (p *outputParser) line(l []byte) (done int, sig failure.Signature) {
	if len(l) > 0 && l[0] == markFraming { // the testing package speaking
		return p.framing(l[1:])
	}
	errLine := !p.framed // Go 1.26: any log line may be the failure's
	inErr := p.inErr     // Go 1.27: a line of an error begun before
	if p.framed && !p.runtimeLine(l) {
		l, errLine = p.unmark(l)
	}
	s := string(l)
	m := logPosRE.FindStringSubmatchIndex(s)
	cont := p.errCont
	p.errCont = ""
	switch {
	case m != nil && errLine && p.current >= 0 && !p.finished:
		p.errPos, p.errMsg = s[m[2]:m[3]], s[m[1]:]
		// The testing package indents an error's later lines by four
		// spaces more than its first.
		p.errCont = s[:m[2]] + "    "
		return -1, failure.Signature{}
	case cont != "" && (inErr || !p.framed && m == nil) && strings.HasPrefix(s, cont) && len(p.errMsg) < failure.MaxMessage:
		p.errMsg += "\n" + s[len(cont):]
		p.errCont = cont
		return -1, failure.Signature{}
	case p.current < 0 && isStale(s):
		// The toolchain refused files of the corpus before running any,
		// one per line: "…": mismatched types in corpus entry: [int],
		// want [string]
		msg := s
		if m != nil {
			msg = s[m[1]:]
		}
		p.stale = strings.TrimSpace(msg)
		p.stales = append(p.stales, p.stale)
		return -1, failure.Signature{}
	}
	if p.raceLine(s) {
		return -1, failure.Signature{}
	}
	switch p.state {
	case stateNormal:
		switch {
		case strings.HasPrefix(s, "panic: test timed out after "):
			// go test's -timeout, in a verification run.
			p.crash = failure.Signature{Kind: failure.Timeout}
			p.state = stateDone
		case strings.HasPrefix(s, "panic: "):
			text := strings.TrimSuffix(strings.TrimSuffix(s[len("panic: "):], " [recovered, repanicked]"), " [recovered]")
			p.crash = failure.Signature{Kind: failure.Panic, Text: failure.PanicText(text)}
			if failure.UserPanic(text) {
				p.crashMsg = text
			}
			p.state = statePanicHead
		case strings.HasPrefix(s, "fatal error: runtime: out of memory"):
			// Where the runtime runs out depends on what ran before: the
			// kind is the identity, as for a process the memory limit
			// killed (Runner.Run).
			p.crash = failure.Signature{Kind: failure.Memory}
			p.state = stateDone
		case strings.HasPrefix(s, "fatal error: "):
			p.crash = failure.Signature{Kind: failure.Fatal, Text: failure.Mask(s[len("fatal error: "):])}
			p.state = stateFrames
		case p.current >= 0 && !p.finished && m == nil && strings.TrimSpace(s) != "" && !exitStatusRE.MatchString(s):
			// What the process printed itself, not the test's log.
			p.lastOut = s
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
	return -1, failure.Signature{}
}

// The race detector's report (runtime/race, tsan's report format): between
// lines of "=", "WARNING: DATA RACE", then each access ("Read at 0x… by
// goroutine 7:", "Previous write at …") with its stack, two lines a frame,
// then where the goroutines were created. The testing package then fails
// the test ("race detected during execution of test", at a line of its
// own) and reports no race twice in one process (see Runner.Run).
var (
	raceAccessRE = regexp.MustCompile(`^(?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite) at 0x[0-9a-f]+ by `)
	raceFrameRE  = regexp.MustCompile(`^\s+(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
)

// raceLine reads a line of a race report, and reports whether it was one.
// The race's identity is where its first two accesses happened in the
// user's code: the first as the position, the second in the text.
func (p *outputParser) raceLine(s string) bool {
	switch {
	case p.inRace == 0:
		if s != "WARNING: DATA RACE" || p.current < 0 {
			return false
		}
		p.inRace = 1
		if !p.race.Failed() { // the first race of the input is its identity
			p.race = failure.Signature{Kind: failure.Race}
		}
	case strings.HasPrefix(s, "=================="):
		p.inRace = 0
	case raceAccessRE.MatchString(s):
		p.inRace = 2
	case strings.HasPrefix(s, "Goroutine "): // where the goroutines were created
		p.inRace = 1
	case p.inRace == 2 && !strings.HasPrefix(s, "      "):
		p.lastFunc = strings.TrimSpace(s)
	case p.inRace == 2:
		if m := raceFrameRE.FindStringSubmatch(s); m != nil && failure.UserFrame(p.goroot, p.lastFunc, m[1]) {
			pos := filepath.Base(m[1]) + ":" + m[2]
			switch {
			case p.race.Pos == "":
				p.race.Pos = pos
			case p.race.Text == "":
				p.race.Text = "with " + pos
			}
			p.inRace = 1
		}
	}
	return true
}

// isStale reports whether a message is the testing package's complaint
// about a corpus file that does not fit the target.
func isStale(msg string) bool {
	return strings.Contains(msg, "corpus entry: ") || strings.Contains(msg, ": unmarshal: ")
}

// runtimeLine reports whether l is the head line of a crash report of the
// runtime's: it writes a panic's value as it is, and a value holding a
// marker byte ("panic: shallow \x0f") is no error of the testing
// package's. The lines after it are unmarked as any: a test may print such
// a line itself and go on (log_lines.txtar), and its errors are marked.
func (p *outputParser) runtimeLine(l []byte) bool {
	return !p.inErr && (bytes.HasPrefix(l, []byte("panic: ")) || bytes.HasPrefix(l, []byte("fatal error: ")))
}

// unmark removes the error markers and escapes of a line of Go 1.27's
// output, as test2json does (Converter.writeOutputEvent), and reports
// whether an error starts on the line: the text returned is then the
// error's first line, from its ^O on. An error's later lines are part of
// it, not errors of their own.
func (p *outputParser) unmark(l []byte) ([]byte, bool) {
	if bytes.IndexAny(l, "\x0e\x0f\x1b") < 0 {
		return l, false
	}
	out := make([]byte, 0, len(l))
	begins := false
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case c == markEscape && i+1 < len(l):
			i++
			out = append(out, l[i])
		case c == markErrBegin:
			// Text before the mark (a fmt.Print without a newline) is
			// not the error's.
			out, begins, p.inErr = out[:0], true, true
		case c == markErrEnd:
			p.inErr = false
		default:
			out = append(out, c)
		}
	}
	return out, begins
}

func (p *outputParser) framing(l []byte) (done int, sig failure.Signature) {
	done = -1
	// A crash report is the last thing a dying process prints: if the
	// testing package reports on a test after one, it was the test's own
	// output. (go test's closing "FAIL\tpkg" line comes after a real one.)
	if bytes.HasPrefix(l, []byte("=== ")) || bytes.HasPrefix(l, []byte("--- ")) {
		p.crash, p.crashMsg, p.state = failure.Signature{}, "", stateNormal
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
			p.current, p.finished, p.failed, p.errPos, p.errMsg = i, false, false, "", ""
			p.name, _, _ = strings.Cut(string(rest), " ")
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
func (p *outputParser) end(exit int) (int, failure.Signature) {
	i := p.current
	if i < 0 {
		return -1, failure.Signature{}
	}
	var sig failure.Signature
	switch {
	case p.race.Failed() && (p.failed || exit != 0):
		sig = p.race
	case p.crash.Failed() && exit != 0:
		sig = p.crash
		if p.crashMsg != "" {
			sig.Text = p.shapeOf(i, sig, p.crashMsg)
		}
	case p.finished && p.failed:
		sig = failure.Signature{Kind: failure.Fail, Pos: p.errPos}
		sig.Text = p.shapeOf(i, sig, p.errMsg)
	case p.finished:
		// passed
	case exit > 0:
		// The process ended itself: its last line is the message of the
		// exit (log.Fatalf's, without the logger's date and time).
		sig = failure.Signature{Kind: failure.Exit, Text: "exit status " + strconv.Itoa(exit)}
		if msg := logPrefixRE.ReplaceAllString(p.lastOut, ""); msg != "" {
			sig.Text += ": " + p.shapeOf(i, sig, msg)
		}
	}
	p.current, p.crash, p.crashMsg, p.state, p.inErr, p.errCont, p.lastOut = -1, failure.Signature{}, "", stateNormal, false, "", ""
	p.race, p.inRace = failure.Signature{}, 0
	return i, sig
}
