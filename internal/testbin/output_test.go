package testbin

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// parse runs the lines of output of one process through a parser of the
// given framing and returns the outcome of each input, named FuzzX/<i>.
func parse(framed bool, out string, exit int) []failure.Signature {
	inputs := func(name string) (int, bool) {
		rest, ok := strings.CutPrefix(name, "FuzzX/")
		if !ok || len(rest) != 1 {
			return 0, false
		}
		return int(rest[0] - '0'), true
	}
	p := newOutputParser(inputs, &Toolchain{framed: framed, GOROOT: "/goroot"})
	p.shape = func(_ int, _ failure.Signature, msg string) string { return msg }
	var got []failure.Signature
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if i, sig := p.line([]byte(l)); i >= 0 {
			got = append(got, sig)
		}
	}
	if i, sig := p.end(exit); i >= 0 {
		got = append(got, sig)
	}
	return got
}

// raceReport is a report of the race detector, as a test binary built
// with -race prints it: the accesses, then where the goroutines began.
const raceReport = `==================
WARNING: DATA RACE
Read at 0x00000092b180 by goroutine 10:
  sync/atomic.AddInt32()
      /goroot/src/sync/atomic/doc.go:60 +0x74
  example.com/x.FuzzX.func1.1()
      /home/u/x/x_test.go:21 +0x74

Previous write at 0x00000092b180 by goroutine 11:
  example.com/x.FuzzX.func1.2()
      /home/u/x/x_test.go:25 +0x8c

Goroutine 10 (running) created at:
  example.com/x.FuzzX.func1()
      /home/u/x/x_test.go:19 +0x93
  testing.tRunner()
      /goroot/src/testing/testing.go:2036 +0x21c
==================
`

// The output of the testing package, by its marks: ^V framing, ^O and ^N
// around an error, ^[ before a marked byte of the test's own text.
const (
	V = "\x16"
	O = "\x0f"
	N = "\x0e"
)

func TestOutputParser(t *testing.T) {
	fail := func(text, pos string) failure.Signature {
		return failure.Signature{Kind: failure.Fail, Text: text, Pos: pos}
	}
	for _, tt := range []struct {
		name   string
		framed bool
		out    string
		want   []failure.Signature
	}{
		{"1.26: the last log line", false,
			V + "=== RUN   FuzzX/0\n    x_test.go:7: a log line\n    x_test.go:9: big 5\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("big 5", "x_test.go:9")}},
		{"1.27: the error, not the log line after it", true,
			V + "=== RUN   FuzzX/0\n" + O + "    x_test.go:9: big 5" + N + "\n    x_test.go:10: a log line\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("big 5", "x_test.go:9")}},
		{"1.27: the last of two errors", true,
			V + "=== RUN   FuzzX/0\n" + O + "    x_test.go:9: first" + N + "\n" + O + "    x_test.go:10: second" + N + "\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("second", "x_test.go:10")}},
		{"1.27: an error of two lines", true,
			V + "=== RUN   FuzzX/0\n" + O + "    x_test.go:9: first line\n        x_test.go:3: looks like a position" + N + "\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("first line\nx_test.go:3: looks like a position", "x_test.go:9")}},
		{"1.26: an error of several lines, a log line after it", false,
			V + "=== RUN   FuzzX/0\n    x_test.go:9: mismatch (-want +got):\n          []int{\n        - \t1,\n          }\n    x_test.go:10: a log\n        of two lines\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("a log\nof two lines", "x_test.go:10")}},
		{"1.26: an error of several lines", false,
			V + "=== RUN   FuzzX/0\n    x_test.go:9: mismatch (-want +got):\n          []int{\n        - \t1,\n          }\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("mismatch (-want +got):\n  []int{\n- \t1,\n  }", "x_test.go:9")}},
		{"a data race, by its accesses in the user's code", false,
			V + "=== RUN   FuzzX/0\n" + raceReport + "    testing.go:1712: race detected during execution of test\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n" +
				V + "=== RUN   FuzzX/1\n" + V + "--- PASS: FuzzX/1 (0.00s)\n",
			[]failure.Signature{{Kind: failure.Race, Text: "with x_test.go:25", Pos: "x_test.go:21"}, {}}},
		{"the input's name is masked", true,
			V + "=== RUN   FuzzX/0\n" + O + "    x_test.go:9: in FuzzX/0: bad" + N + "\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("in …: bad", "x_test.go:9")}},
		{"1.27: escaped marks in the message", true,
			V + "=== RUN   FuzzX/0\n" + O + "    x_test.go:9: a \x1b\x0e b \x1b\x0f c \x1b\x1b d \x1b\x16" + N + "\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("a \x0e b \x0f c \x1b d \x16", "x_test.go:9")}},
		{"1.27: printed text before the error", true,
			V + "=== RUN   FuzzX/0\nno newline " + O + "    x_test.go:9: big" + N + "\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("big", "x_test.go:9")}},
		{"1.27: a log line only: t.Fail", true,
			V + "=== RUN   FuzzX/0\n    x_test.go:7: a log line\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n",
			[]failure.Signature{fail("", "")}},
		{"1.27: a passing input's log lines", true,
			V + "=== RUN   FuzzX/0\n    x_test.go:7: a log line\n" + V + "--- PASS: FuzzX/0 (0.00s)\n" + V + "=== RUN   FuzzX/1\n" + O + "    x_test.go:9: big" + N + "\n" + V + "--- FAIL: FuzzX/1 (0.00s)\n",
			[]failure.Signature{{}, fail("big", "x_test.go:9")}},
		{"a panic after a log line", true,
			V + "=== RUN   FuzzX/0\n    x_test.go:7: a log line\n" + V + "--- FAIL: FuzzX/0 (0.00s)\npanic: boom [recovered]\n\tpanic: boom\n\ngoroutine 7 [running]:\npanic({0x1, 0x2})\n\t/goroot/src/runtime/panic.go:860 +0x13a\nexample.com/x.FuzzX.func1(0x0?)\n\t/src/x/x_test.go:11 +0x7b\n",
			[]failure.Signature{{Kind: failure.Panic, Text: "boom", Pos: "x_test.go:11"}}},
		{"1.27: a panic whose value holds the marks", true,
			V + "=== RUN   FuzzX/0\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n" + panic27("shallow \x0f, \x0e\x1b\x16"),
			[]failure.Signature{{Kind: failure.Panic, Text: "shallow \x0f, \x0e\x1b\x16", Pos: "x_test.go:11"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			exit := 0
			if tt.want[len(tt.want)-1].Kind == failure.Panic {
				exit = 2
			}
			got := parse(tt.framed, tt.out, exit)
			if len(got) != len(tt.want) {
				t.Fatalf("outcomes %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("input %d: %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestOutputParser_Stale(t *testing.T) {
	for _, framed := range []bool{false, true} {
		o, n := "", ""
		if framed {
			o, n = O, N
		}
		out := V + "=== RUN   FuzzX\n" + o + `    x_test.go:6: "testdata/fuzz/FuzzX/c000000": mismatched types in corpus entry: [string], want [int]` + "\n" +
			`        "testdata/fuzz/FuzzX/c000001": wrong number of values in corpus entry: 2, want 1` + n + "\n" + V + "--- FAIL: FuzzX (0.00s)\n"
		p := newOutputParser(func(string) (int, bool) { return 0, false }, &Toolchain{framed: framed})
		for _, l := range strings.Split(out, "\n") {
			p.line([]byte(l))
		}
		want := []string{`"testdata/fuzz/FuzzX/c000000": mismatched types in corpus entry: [string], want [int]`, `"testdata/fuzz/FuzzX/c000001": wrong number of values in corpus entry: 2, want 1`}
		if strings.Join(p.stales, "\n") != strings.Join(want, "\n") {
			t.Errorf("framed %v: stales %q, want %q", framed, p.stales, want)
		}
	}
}

// escape27 writes a t.Errorf's message as Go 1.27's testing does in
// -test.v=test2json output (testing.go: outputWriter.writeLine,
// escapeMarkers), at position x_test.go:9.
func escape27(msg string) string {
	var b strings.Builder
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		if i > 0 {
			l = "    " + l // testing indents the lines of a message after its first
		}
		var e strings.Builder
		for _, c := range []byte(l) {
			switch c {
			case markFraming, markErrBegin, markErrEnd, markEscape:
				e.WriteByte(markEscape)
			}
			e.WriteByte(c)
		}
		if i == 0 {
			b.WriteString(O + "    x_test.go:9: ")
		} else {
			b.WriteString("    ")
		}
		b.WriteString(e.String())
		if i == len(lines)-1 {
			b.WriteString(N)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// panic27 is the runtime's report of a panic of msg in the user's code, as
// a test binary of Go 1.26 or 1.27 writes it after its test's framing: as
// it is, nothing escaped.
func panic27(msg string) string {
	return "panic: " + msg + " [recovered, repanicked]\n\ngoroutine 7 [running]:\npanic({0x1, 0x2})\n\t/goroot/src/runtime/panic.go:860 +0x13a\nexample.com/x.FuzzX.func1(0x0?)\n\t/src/x/x_test.go:11 +0x7b\n"
}

// FuzzOutputParser checks that the message of an error, whatever its
// bytes, reads back exactly from Go 1.27's output, that a panic, whatever
// its value, is read as one where it was, and that no output makes the
// parser fail.
func FuzzOutputParser(f *testing.F) {
	f.Add("big 5")
	f.Add("a \x0e\x0f\x1b\x16 b")
	f.Add("two\nlines")
	f.Add("\x1b")
	f.Fuzz(func(t *testing.T, msg string) {
		out := V + "=== RUN   FuzzX/0\n    x_test.go:7: a log line\n" + escape27(msg) + V + "--- FAIL: FuzzX/0 (0.00s)\n"
		got := parse(true, out, 1)
		want := failure.Signature{Kind: failure.Fail, Text: msg, Pos: "x_test.go:9"}
		if len(got) != 1 || got[0] != want && len(msg) < failure.MaxMessage && !strings.Contains(msg, "FuzzX/0") {
			t.Errorf("read %q back as %+v, want %+v", msg, got, want)
		}
		if !strings.Contains(msg, "\n") {
			for _, framed := range []bool{false, true} {
				out := V + "=== RUN   FuzzX/0\n" + V + "--- FAIL: FuzzX/0 (0.00s)\n" + panic27(msg)
				if got := parse(framed, out, 2); len(got) != 1 || got[0].Kind != failure.Panic || got[0].Pos != "x_test.go:11" {
					t.Errorf("framed %v: read a panic of %q as %+v, want a panic at x_test.go:11", framed, msg, got)
				}
			}
		}
		// Any output at all: the parser does not fail.
		parse(true, msg, 2)
		parse(false, msg, 2)
		// What a person reads is the message.
		if !strings.Contains(msg, "\n") {
			if got, want := plain([]byte(escape27(msg))), "    x_test.go:9: "+msg+"\n"; !bytes.Equal(got, []byte(want)) {
				t.Errorf("plain(%q) = %q, want %q", escape27(msg), got, want)
			}
		}
	})
}
