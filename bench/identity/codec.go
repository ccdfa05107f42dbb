package identitybench

import (
	"errors"
	"fmt"
	"log"
	"strings"
	"time"
)

type Record struct {
	Tag   byte
	Value string
}

// Decode reads records of a tag, a length and a value.
func Decode(b []byte) ([]Record, error) {
	var rs []Record
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, errors.New("tlv: short header")
		}
		n := int(b[1])
		if len(b) < 2+n {
			return nil, fmt.Errorf("tlv: record %d: length %d exceeds %d", len(rs), n, len(b)-2)
		}
		rs = append(rs, Record{b[0], string(b[2 : 2+n])})
		b = b[2+n:]
	}
	return rs, nil
}

// Encode writes records; the bug: it doubles NUL bytes, which Decode
// does not undo, and a doubled value may outgrow its length byte.
func Encode(rs []Record) []byte {
	var b []byte
	for _, r := range rs {
		v := strings.ReplaceAll(r.Value, "\x00", "\x00\x00")
		b = append(b, r.Tag, byte(len(v)))
		b = append(b, v...)
	}
	return b
}

// Unquote undoes the escapes \n, \t and \\.
func Unquote(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf("invalid escape \\%c in %q", c, s)
		}
	}
	return b.String(), nil
}

// Check ends the program on a bad header, and on an input too short.
func Check(s string) {
	if strings.HasPrefix(s, "ab") {
		log.Fatalf("bad header %q", s)
	}
	if strings.HasPrefix(s, "a") {
		log.Fatalf("short input: %d bytes", len(s))
	}
}

// Counts counts the words of s; the bug: it reports a duplicate of any
// word that repeats, listing the words in the map's order, which changes
// from run to run.
func Counts(s string) error {
	seen := map[string]int{}
	for _, w := range strings.Fields(s) {
		seen[w]++
	}
	var dups []string
	for w, n := range seen {
		if n > 1 {
			dups = append(dups, w)
		}
	}
	if len(dups) > 0 {
		return fmt.Errorf("duplicate words %s", strings.Join(dups, ","))
	}
	return nil
}

// Spin hangs on an input that holds "loop".
func Spin(s string) {
	for strings.Contains(s, "loop") {
	}
}

// Wait hangs on a count above 100.
func Wait(n int) {
	for n > 100 {
		time.Sleep(time.Millisecond)
	}
}
