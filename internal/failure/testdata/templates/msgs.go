// Package msgs makes the messages of the template pair table
// (template_test.go): its calls' positions are the failures' positions.
package msgs

import (
	"errors"
	"fmt"
	"log"
	"testing"
)

const (
	prefix  = "tlv: "
	tooLong = prefix + "record %d: length %d exceeds %d"
)

var errShort = errors.New(prefix + "short buffer")

type SyntaxError struct {
	msg    string
	Offset int
}

func (e *SyntaxError) Error() string {
	return "syntax error at offset " + itoa(e.Offset) + ": " + e.msg
}

func decode(b []byte) error {
	switch {
	case len(b) > 3:
		return fmt.Errorf(tooLong, 0, len(b), 3)
	case b[0] == '\\':
		return fmt.Errorf("invalid escape \\%c in %q", b[1], string(b))
	case b[0] == 'x':
		return &SyntaxError{"unexpected x", 1}
	case b[0] == 'l':
		return fmt.Errorf("line %d: %w", 3, fmt.Errorf("field %q: %w", "k", errShort))
	}
	return fmt.Errorf("parse %q: %w", b, errShort)
}

func itoa(int) string { return "" }

func FuzzMsgs(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		err := decode([]byte(s))
		t.Fatalf("round trip: got %v, want %v", s, s) // line 47
		t.Fatalf("decode(encode(%v)): %v", s, err)    // line 48
		t.Fatal("gmp2")                               // line 49
		t.Fatal(err)                                  // line 50
		t.Fatal(s)                                    // line 51
		t.Fatalf("bad key %s", s)                     // line 52
		log.Fatalf("config: bad line %d", 3)          // line 53
		log.Fatalf("config: bad key %q", s)           // line 54
		panic("check3: negative " + s)                // line 55
		t.Errorf("not valid UTF-8: %q", s)            // line 56
		t.Errorf("HTTP/1.1 %d %s", 200, s)            // line 57
	})
}

type scanner struct{}

// fail is called with a constant context only: each is a template.
func (s *scanner) fail(c byte, context string) error {
	return errors.New("invalid character " + string(c) + " " + context)
}

func scan(s *scanner) error {
	if s == nil {
		return s.fail('x', "after object key")
	}
	return s.fail('y', "in string literal")
}

// As testify's assertions make their messages (assertions.go), and a test
// that calls them.
func equal(t testing.TB, expected, actual any, msgAndArgs ...any) bool {
	return Fail(t, fmt.Sprintf("Not equal: \n"+
		"expected: %s\n"+
		"actual  : %s%s", expected, actual, ""), msgAndArgs...)
}

func noError(t testing.TB, err error, msgAndArgs ...any) bool {
	return Fail(t, fmt.Sprintf("Received unexpected error:\n%+v", err), msgAndArgs...)
}

func FuzzTestify(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		require.Equal(t, 1, len(b), "records of %x", b) // line 89
		require.NoError(t, decode(b))                   // line 90
	})
}
