package failure

import (
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// msgsTemplates are the templates of testdata/templates/msgs.go.
func msgsTemplates(t testing.TB) *Templates {
	t.Helper()
	sites := SourceTemplates([]string{"testdata/templates/msgs.go"})
	if len(sites) == 0 {
		t.Fatal("no templates in testdata/templates/msgs.go")
	}
	return NewTemplates(sites)
}

func TestSourceTemplates(t *testing.T) {
	sites := SourceTemplates([]string{"testdata/templates/msgs.go"})
	for pos, want := range map[string][]string{
		"msgs.go:31": {"tlv: record %d: length %d exceeds %d"}, // a named constant of constants
		"msgs.go:33": {"invalid escape \\%c in %q"},
		"msgs.go:37": {"line %d: field %q: %w", "field %q: %w"}, // an Errorf inside an Errorf's %w is part of it, and a template of its own
		"msgs.go:47": {"round trip: got %v, want %v"},
		"msgs.go:48": {"decode(encode(%v)): %w"}, // err is an error
		"msgs.go:49": {"gmp2"},
		"msgs.go:50": {"%w"},
		"msgs.go:51": {"%v"},
		"msgs.go:55": {"check3: negative %v"}, // a "+" of a literal and a value
		"msgs.go:57": {"HTTP/1.1 %d %s"},
	} {
		if got := sites[pos]; !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", pos, got, want)
		}
	}
	for _, want := range []string{"tlv: short buffer", "syntax error at offset %v: %v", "parse %q: %w", "config: bad key %q",
		"invalid character %v after object key", "invalid character %v in string literal"} { // a parameter that calls pass constants
		if !slices.Contains(sites[""], want) {
			t.Errorf("templates of any place lack %q: %q", want, sites[""])
		}
	}
}

// A templatePair is two messages of failures at one position, judged by
// the templates of msgs.go: where masking the values (the rule of
// shape.go) and the templates disagree, the templates are right.
type templatePair struct {
	name  string
	pos   string // of the failures, in msgs.go
	a, b  string
	same  bool
	aText string // the identity text of a, if the case pins it
}

var templatePairs = []templatePair{
	{name: "values with NUL bytes and spaces", pos: "msgs.go:47",
		a: "round trip: got [{1 a\x00 b} {2 }]}], want [{1 a\x00 b}]", b: "round trip: got [], want [{0 \x00}]", same: true,
		aText: "round trip: got %v, want %v"},
	{name: "values with newlines", pos: "msgs.go:47", a: "round trip: got [a\nb], want [a\n-b]", b: "round trip: got [], want [\n+]", same: true},
	{name: "values that end in the format's text", pos: "msgs.go:47", a: "round trip: got x, want y, want z", b: "round trip: got , want ", same: true},
	{name: "%c", pos: "msgs.go:50", a: "invalid escape \\r in \"\\\\r\"", b: "invalid escape \\a in \"x\\\\a\"", same: true, aText: "invalid escape \\%c in %q"},
	{name: "constant with digits", pos: "msgs.go:49", a: "gmp2", b: "gmp2", same: true, aText: "gmp2"},
	{name: "digits in the format", pos: "msgs.go:57", a: "HTTP/1.1 200 ok", b: "HTTP/1.1 200 ", same: true, aText: "HTTP/1.1 %d %s"},
	{name: "UTF-8 stays", pos: "msgs.go:56", a: "not valid UTF-8: \"\\xff\"", b: "not valid UTF-8: \"a\\xc0\"", same: true, aText: "not valid UTF-8: %q"},
	{name: "a value that looks like the format", pos: "msgs.go:52", a: "bad key CONFIG: NAME=X PORT=8", b: "bad key 0", same: true, aText: "bad key %s"},
	{name: "a chain of two", pos: "msgs.go:48", a: "decode(encode([{1 ab}])): parse \"a\": tlv: short buffer", b: "decode(encode([])): parse \"\": tlv: short buffer", same: true,
		aText: "decode(encode(%v)): parse %q: tlv: short buffer"},
	{name: "two errors in one slot", pos: "msgs.go:48", a: "decode(encode([{1 ab}])): parse \"a\": tlv: short buffer", b: "decode(encode([{1 ab}])): tlv: record 0: length 5 exceeds 3", same: false},
	{name: "a chain of three", pos: "msgs.go:50", a: "line 3: field \"k\": tlv: short buffer", b: "line 12: field \"name\": tlv: short buffer", same: true,
		aText: "line %d: field %q: tlv: short buffer"},
	{name: "a chain of three against one of two", pos: "msgs.go:50", a: "line 3: field \"k\": tlv: short buffer", b: "parse \"k\": tlv: short buffer", same: false},
	{name: "an Error method's +", pos: "msgs.go:50", a: "syntax error at offset 1: unexpected x", b: "syntax error at offset 17: unexpected x", same: true},
	{name: "two templates with one prefix", pos: "", a: "config: bad line 3", b: "config: bad key \"3\"", same: false, aText: "config: bad line %d"},
	{name: "t.Fatal(err) of two errors", pos: "msgs.go:50", a: "invalid escape \\r in \"\\\\r\"", b: "tlv: short buffer", same: false},
	{name: "a panic's +", pos: "msgs.go:55", a: "check3: negative [1 2]", b: "check3: negative ", same: true, aText: "check3: negative %v"},
	{name: "a parameter's constants", pos: "msgs.go:50", a: "invalid character x after object key", b: "invalid character y in string literal", same: false,
		aText: "invalid character %v after object key"},
	{name: "testify: Not equal, values and diffs", pos: "msgs.go:89", a: testifyEqual1, b: testifyEqual2, same: true,
		aText: "Error: Not equal: expected: %s actual : %s"},
	{name: "testify: its message arguments", pos: "msgs.go:89", a: testifyEqualNoDiff, b: strings.Replace(testifyEqualNoDiff, `decoding "xyz"`, "records of 0a0b", 1), same: false},
	{name: "testify: an error chain", pos: "msgs.go:90", a: testifyNoError1, b: testifyNoError3, same: true,
		aText: "Error: Received unexpected error: parse %q: unexpected EOF"}, // an error no template made, masked
	{name: "testify: two errors", pos: "msgs.go:90", a: testifyNoError1, b: strings.Replace(testifyNoError1, `parse "abc": unexpected EOF`, "tlv: short buffer", 1), same: false},
	{name: "a value printed alone is masked", pos: "msgs.go:51", a: "got 12", b: "got 13", same: true, aText: "got …"},
}

func TestTemplates_Pairs(t *testing.T) {
	ts := msgsTemplates(t)
	for _, tt := range templatePairs {
		t.Run(tt.name, func(t *testing.T) {
			s := Shaper{Templates: ts}
			at := Signature{Kind: Fail, Pos: tt.pos}
			ta, tb := s.Shape(at, tt.a, nil), s.Shape(at, tt.b, nil)
			if (ta == tb) != tt.same {
				t.Errorf("same = %v, want %v\n a: %q -> %q\n b: %q -> %q", ta == tb, tt.same, tt.a, ta, tt.b, tb)
			}
			if tt.aText != "" && ta != tt.aText {
				t.Errorf("text of %q = %q, want %q", tt.a, ta, tt.aText)
			}
		})
	}
}

// TestIdentity_PairsWithTemplates checks that the templates of a program
// change no verdict of the masking rule's table on the messages they do
// not explain, and that the templates' own table is judged the same
// whichever message comes first.
func TestIdentity_PairsWithTemplates(t *testing.T) {
	ts := msgsTemplates(t)
	for _, tt := range messagePairs {
		_, oka := ts.Match(at.Pos, tt.a, nil)
		_, okb := ts.Match(at.Pos, tt.b, nil)
		if oka || okb {
			continue // a message msgs.go's formats make: the table's verdict is that of another program
		}
		s := Shaper{Templates: ts}
		ta, tb := s.Shape(at, tt.a, tt.ina), s.Shape(at, tt.b, tt.inb)
		if (ta == tb) != tt.same {
			t.Errorf("%s: same = %v, want %v\n a: %q -> %q\n b: %q -> %q", tt.name, ta == tb, tt.same, tt.a, ta, tt.b, tb)
		}
	}
	for _, tt := range templatePairs {
		s := Shaper{Templates: ts}
		at := Signature{Kind: Fail, Pos: tt.pos}
		if got := s.Shape(at, tt.b, nil) == s.Shape(at, tt.a, nil); got != tt.same {
			t.Errorf("%s reversed: same = %v, want %v", tt.name, got, tt.same)
		}
	}
}

// TestIdentity_PairsWithStdTemplates checks the masking rule's table
// again with the templates of the standard library's packages a test
// links present: no template of theirs takes a message of another
// program's (a testify block, a diff) for its own.
func TestIdentity_PairsWithStdTemplates(t *testing.T) {
	ts := stdTemplates(t)
	// Where the standard library's own format made both messages, the
	// template's verdict stands against the masking rule's.
	changed := map[string]string{
		"json type error": "json: cannot unmarshal %v into Go struct field %v.%v of type %v",
	}
	for _, tt := range messagePairs {
		s := Shaper{Templates: ts}
		ta, tb := s.Shape(at, tt.a, tt.ina), s.Shape(at, tt.b, tt.inb)
		if want, ok := changed[tt.name]; ok {
			if ta != want || tb != want {
				t.Errorf("%s: %q and %q, want both %q", tt.name, ta, tb, want)
			}
			continue
		}
		if (ta == tb) != tt.same {
			t.Errorf("%s: same = %v, want %v\n a: %q -> %q\n b: %q -> %q", tt.name, ta == tb, tt.same, tt.a, ta, tt.b, tb)
		}
	}
}

// TestTemplates_Fallback counts the messages of both tables that no
// template explains: of the template table, only the value printed alone;
// of the masking rule's table, those whose format msgs.go happens to hold
// too.
func TestTemplates_Fallback(t *testing.T) {
	ts := msgsTemplates(t)
	var explained []string
	for _, tt := range templatePairs {
		for _, m := range []string{tt.a, tt.b} {
			if _, ok := ts.Match(tt.pos, m, nil); ok {
				explained = append(explained, tt.name)
			}
		}
	}
	// Unexplained: the value printed alone, twice, and a testify message
	// argument that no call of msgs.go makes.
	if want := 2*len(templatePairs) - 3; len(explained) != want {
		t.Errorf("%d of %d messages of the template table explained, want %d", len(explained), 2*len(templatePairs), want)
	}
	explained = explained[:0]
	for _, tt := range messagePairs {
		for _, m := range []string{tt.a, tt.b} {
			if text, ok := ts.Match(at.Pos, m, nil); ok {
				explained = append(explained, fmt.Sprintf("%s: %q", tt.name, text))
			}
		}
	}
	t.Logf("masking table: %d of %d messages explained by msgs.go's templates:\n%s", len(explained), 2*len(messagePairs), strings.Join(explained, "\n"))
	if len(explained) > 24 { // the 24 whose formats msgs.go holds (testify's among them)
		t.Errorf("%d messages of another program explained by msgs.go's templates", len(explained))
	}
}

func TestParseTemplate(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []piece
	}{
		{"got %v, want %v", []piece{{lit: "got "}, {slot: valueSlot, verb: "%v"}, {lit: ", want "}, {slot: valueSlot, verb: "%v"}}},
		{"100%% %-5.2f%[2]q", []piece{{lit: "100% "}, {slot: valueSlot, verb: "%-5.2f%[2]q"}}},
		{"%v: %w", []piece{{slot: valueSlot, verb: "%v"}, {lit: ": "}, {slot: errSlot, verb: "%w"}}},
		{"%+v%w", []piece{{slot: errSlot, verb: "%+v%w"}}},
		{"trailing %", []piece{{lit: "trailing "}, {slot: valueSlot, verb: "%"}}},
	} {
		if got := parseTemplate(tt.text).pieces; !slices.Equal(got, tt.want) {
			t.Errorf("parseTemplate(%q) = %+v, want %+v", tt.text, got, tt.want)
		}
	}
}

// verbs are the verbs FuzzTemplate formats values with.
var verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%X", "%c", "%U", "%t", "%T", "%e", "%g", "%5.2f", "%-8s", "%08d", "%[1]v", "%p"}

// FuzzTemplate formats random values with random formats by fmt.Sprintf
// and matches the message back: the template the message was made with
// wins, unless another template that matches it too has as much literal
// text or more, and no template whose literal text the message does not
// hold ever matches it (a regexp of each template is the reference; it
// lets a %q slot match any text, where the matcher wants quotes).
func FuzzTemplate(f *testing.F) {
	f.Add("got ", ", want ", "", "tail", uint8(0), uint8(4), "a b\x00]", int64(12), "round trip: got ")
	f.Add("invalid escape \\", " in ", "", "", uint8(8), uint8(4), "\\r", int64('r'), "invalid escape")
	f.Add("", ": ", "", "x", uint8(3), uint8(3), "%v", int64(-1), "")
	f.Fuzz(func(t *testing.T, lit1, lit2, lit3, rival string, v1, v2 uint8, s string, n int64, other string) {
		clean := func(s string) string { return strings.ToValidUTF8(strings.ReplaceAll(s, "%", ""), "?") }
		lit1, lit2, lit3, rival, other = clean(lit1), clean(lit2), clean(lit3), clean(rival), clean(other)
		verb1, verb2 := verbs[int(v1)%len(verbs)], verbs[int(v2)%len(verbs)]
		format := lit1 + verb1 + lit2 + verb2 + lit3
		args := []any{s, n}
		if int(v1)%2 == 1 {
			args = []any{[]byte(s), float64(n) / 3}
		}
		msg := fmt.Sprintf(format, args...)
		// Rivals: the format with other literal text, and a format of
		// the other text alone.
		formats := []string{format, lit1 + verb1 + lit2 + rival + verb2 + lit3, other, other + "%v"}
		ts := NewTemplates(map[string][]string{"x.go:1": formats})
		got, ok := ts.Match("x.go:1", msg, nil)
		truth := parseTemplate(format)
		if !reference(truth).MatchString(msg) {
			t.Fatalf("the reference does not match %q with %q", msg, format)
		}
		// The identity text has white space folded: the template it
		// names, among those that fold to it, is one that matches.
		var winner *template
		for _, ft := range formats {
			if p := parseTemplate(ft); ok && p.text == got && reference(p).MatchString(msg) && (winner == nil || p.lits > winner.lits) {
				winner = &p
			}
		}
		switch {
		case ok && winner == nil:
			t.Fatalf("%q of %q explained as %q, which does not match it", msg, format, got)
		case truth.lits == 0:
			// Explains nothing; a rival may.
		case !ok:
			t.Fatalf("%q of %q not explained (templates %q)", msg, format, formats)
		case winner.lits < truth.lits:
			t.Fatalf("%q of %q explained as %q, with less literal text", msg, format, got)
		}
	})
}

// reference returns a regexp that matches what a template matches.
func reference(t template) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for _, p := range t.pieces {
		if p.slot == litPiece {
			b.WriteString(regexp.QuoteMeta(p.lit))
		} else {
			b.WriteString(`.*`)
		}
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

func TestTemplates_Sites(t *testing.T) {
	sites := map[string][]string{"a.go:1": {"x %v"}, "": {"y %w"}}
	if got := NewTemplates(sites).Sites(); !maps.EqualFunc(got, sites, slices.Equal) {
		t.Errorf("Sites() = %v, want %v", got, sites)
	}
	var none *Templates
	if _, ok := none.Match("a.go:1", "x 1", nil); ok || none.Len() != 0 {
		t.Error("a nil Templates explains a message")
	}
}

// programTemplates are the templates of msgs.go and of the standard
// library's packages a decoder's test links: about a thousand, as a real
// program has.
func programTemplates(b testing.TB) *Templates {
	return stdTemplates(b, "testdata/templates/msgs.go")
}

// stdTemplates are the templates of those packages of the standard
// library, and of the files named.
func stdTemplates(b testing.TB, files ...string) *Templates {
	sites := SourceTemplates(files)
	for _, pkg := range []string{"fmt", "strconv", "encoding/json", "encoding/binary", "io", "os", "errors", "bytes", "strings", "net/url", "net/http", "testing", "reflect", "time"} {
		files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", pkg, "*.go"))
		files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
		for pos, ts := range SourceTemplates(files) {
			sites[pos] = append(sites[pos], ts...)
		}
	}
	ts := NewTemplates(sites)
	if ts.Len() < 500 {
		b.Fatalf("%d templates", ts.Len())
	}
	return ts
}

// BenchmarkIdentityTemplates measures judging a candidate's message by the
// templates of a program: a t.Fatalf's message at its line, a chain of
// two errors behind t.Fatal(err), which is matched against every template
// of the program, a message no template explains (masked), and a
// strconv error of the standard library's. The messages differ, more of
// them than the set's cache of judged texts holds.
func BenchmarkIdentityTemplates(b *testing.B) {
	ts := programTemplates(b)
	b.Logf("%d templates", ts.Len())
	for _, bc := range []struct {
		name, pos string
		msg       func(i int) string
	}{
		{"site", "msgs.go:47", func(i int) string { return fmt.Sprintf("round trip: got [{%d a\x00 b}], want [{1 ab []}]", i) }},
		{"chain", "msgs.go:50", func(i int) string { return fmt.Sprintf("line %d: field \"k%d\": tlv: short buffer", i, i) }},
		{"std-error", "msgs.go:50", func(i int) string { return fmt.Sprintf("strconv.Atoi: parsing \"%dx\": invalid syntax", i) }},
		{"masked", "msgs.go:51", func(i int) string { return fmt.Sprintf("got [%d 2 3]", i) }},
		{"8KiB", "msgs.go:47", func(i int) string { return "round trip: got " + strings.Repeat("[a ", 1300+i%64) + ", want []" }},
		{"1MiB", "msgs.go:47", func(i int) string { return "round trip: got " + strings.Repeat("a] ", 1<<18+i%64) + ", want []" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := Shaper{Templates: ts}
			at := Signature{Kind: Fail, Pos: bc.pos}
			want := s.Shape(at, bc.msg(0), nil)
			n := 1 << 15
			if len(bc.msg(0)) > MaxMessage {
				n = 64 // a long message is judged by the site's templates: no cache
			}
			msgs := make([]string, n)
			for i := range msgs {
				msgs[i] = bc.msg(i + 1)
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if got := s.Shape(at, msgs[i%len(msgs)], nil); got != want {
					b.Fatalf("%q, want %q", got, want)
				}
			}
		})
	}
}

// BenchmarkSourceTemplates measures reading the templates of one large
// package of the standard library, net/http, once, as a run does with
// an empty cache.
func BenchmarkSourceTemplates(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(runtime.GOROOT(), "src", "net", "http", "*.go"))
	for b.Loop() {
		SourceTemplates(files)
	}
}

// FuzzSourceTemplates reads the templates of any source, whole or cut
// short: it never fails, every template printed back from its pieces
// parses to the same pieces, and every position is a line of the file.
func FuzzSourceTemplates(f *testing.F) {
	src, err := os.ReadFile("testdata/templates/msgs.go")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	f.Add("package p\nconst a = \"x\" + b\nconst b = a\nfunc f() { panic(a) }")
	f.Add("package p\nfunc f() { fmt.Errorf(\"%[3]*.[2]*[1]f %w %\", 1, 2) }")
	f.Fuzz(func(t *testing.T, src string) {
		fset := gotoken.NewFileSet()
		file, _ := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
		if file == nil {
			return
		}
		lines := strings.Count(src, "\n") + 1
		for pos, ts := range templatesOf(fset, []*ast.File{file}) {
			if pos != "" {
				n, err := strconv.Atoi(strings.TrimPrefix(pos, "x.go:"))
				if err != nil || n < 1 || n > lines {
					t.Fatalf("position %q in a file of %d lines", pos, lines)
				}
			}
			for _, text := range ts {
				// Printed back from its pieces, a template parses to
				// the same pieces.
				p := parseTemplate(text)
				var b strings.Builder
				for _, pc := range p.pieces {
					b.WriteString(strings.ReplaceAll(pc.lit, "%", "%%") + pc.verb)
				}
				if again := parseTemplate(b.String()); !slices.Equal(again.pieces, p.pieces) {
					t.Fatalf("template %q: pieces %+v, printed %q, parsed again %+v", text, p.pieces, b.String(), again.pieces)
				}
			}
		}
	})
}
