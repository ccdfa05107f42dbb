package failure

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/xz"
)

// A messagePair is two failure messages, each with the input that failed,
// and whether they are the same failure. The messages are as tests print
// them: go-cmp's Diff, testify's assertions and gotest.tools' checks were
// captured from those modules' output (see TestIdentity_Pairs), and the
// standard library's error texts are its own.
type messagePair struct {
	name   string
	a, b   string
	ina    []any
	inb    []any
	same   bool
	aText  string // the identity text of a, if the case pins it
	reason string
}

// gzipped and zlibbed compress s as a gzip member and a zlib stream.
func gzipped(s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// zipped writes a zip archive of one file, deflated or stored (zip.Store:
// its name is followed by its content, in the local header, and by the
// end record).
func zipped(name, content string, method uint16) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, _ := w.CreateHeader(&zip.FileHeader{Name: name, Method: method})
	f.Write([]byte(content))
	w.Close()
	return b.Bytes()
}

func zlibbed(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// cmp.Diff of two []Rec, as go-cmp prints it (regular spaces; it picks
// non-breaking ones at random per process).
const (
	cmpDiff1 = "round trip mismatch (-want +got):\n" +
		"  []msgs.Rec{\n  \t{\n  \t\tTag:  1,\n  \t\tName: \"ab\",\n  \t\tVals: []int{\n  \t\t\t1,\n" +
		"- \t\t\t2,\n+ \t\t\t3,\n  \t\t},\n  \t},\n  }"
	cmpDiff2 = "round trip mismatch (-want +got):\n" +
		"  []msgs.Rec{\n- \t{Tag: 1, Name: \"ab\", Vals: []int{1, 2}},\n  \t{\n  \t\tTag:  2,\n" +
		"- \t\tName: \"x\\ny\",\n+ \t\tName: \"zz\",\n  \t\tVals: nil,\n  \t},\n  }"
	cmpDiffNBSP = "round trip mismatch (-want +got):\n" +
		"\u00a0 []msgs.Rec{\n-\u00a0\t{Tag: 1},\n+\u00a0\t{Tag: 2},\n\u00a0 }"

	testifyEqual1 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:36\n\tError:      \tNot equal: \n" +
		"\t            \texpected: []msgs.Rec{msgs.Rec{Tag:0x1, Name:\"ab\", Vals:[]int(nil)}}\n" +
		"\t            \tactual  : []msgs.Rec{msgs.Rec{Tag:0x2, Name:\"ab\", Vals:[]int(nil)}}\n" +
		"\t            \t\n\t            \tDiff:\n\t            \t--- Expected\n\t            \t+++ Actual\n" +
		"\t            \t@@ -2,3 +2,3 @@\n\t            \t  (msgs.Rec) {\n\t            \t-  Tag: (uint8) 1,\n" +
		"\t            \t+  Tag: (uint8) 2,\n\t            \t   Name: (string) (len=2) \"ab\",\n\tTest:       \tFuzzRT/…"
	testifyEqual2 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:36\n\tError:      \tNot equal: \n" +
		"\t            \texpected: \"hello\"\n\t            \tactual  : \"help me\"\n\t            \t\n" +
		"\t            \tDiff:\n\t            \t--- Expected\n\t            \t+++ Actual\n\t            \t@@ -1 +1 @@\n" +
		"\t            \t-hello\n\t            \t+help me\n\tTest:       \tFuzzRT/…"
	testifyEqualNoDiff = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:36\n\tError:      \tNot equal: \n" +
		"\t            \texpected: 3\n\t            \tactual  : 4\n\tTest:       \tFuzzRT/…\n\tMessages:   \tdecoding \"xyz\""
	testifyNoError1 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:38\n\tError:      \tReceived unexpected error:\n" +
		"\t            \tparse \"abc\": unexpected EOF\n\tTest:       \tFuzzP/…"
	testifyNoError2 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:38\n\tError:      \tReceived unexpected error:\n" +
		"\t            \tparse \"a\": invalid escape\n\tTest:       \tFuzzP/…"
	testifyNoError3 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:38\n\tError:      \tReceived unexpected error:\n" +
		"\t            \tparse \"a long input\": unexpected EOF\n\tTest:       \tFuzzP/…"
	testifyTrue = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:41\n\tError:      \tShould be true\n" +
		"\tTest:       \tFuzzP/…\n\tMessages:   \tvalue [1]"
	testifyLen = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:42\n\tError:      \t\"[1 2]\" should have 3 item(s), but has 2\n" +
		"\tTest:       \tFuzzP/…"
	testifyLen2 = "\n\tError Trace:\t/tmp/msgs/msgs_test.go:42\n\tError:      \t\"[]\" should have 1 item(s), but has 0\n" +
		"\tTest:       \tFuzzP/…"

	gotestDeep1 = "assertion failed: \n--- \u2190\n+++ \u2192\n  []msgs.Rec{\n  \t{\n  \t\tTag:  1,\n" +
		"- \t\tName: \"a\",\n+ \t\tName: \"b\",\n  \t\tVals: nil,\n  \t},\n  }\n"
	gotestDeep2 = "assertion failed: \n--- \u2190\n+++ \u2192\n  []msgs.Rec(\n- \tnil,\n+ \t{},\n  )\n"
)

var messagePairs = []messagePair{
	// Values printed with %v and %+v: slices of structs, maps, pointers.
	{name: "round trip %v", a: "round trip: got [{1 ab [1 2]} {2 cd []}], want [{1 ab [1 2]}]", b: "round trip: got [], want [{0  []}]", same: true,
		aText: "round trip: got …, want …"},
	{name: "%+v struct", a: "decode: got {Tag:1 Name:ab Vals:[1 2]}, want {Tag:1 Name:a Vals:[]}", b: "decode: got {Tag:0 Name: Vals:[]}, want {Tag:0 Name: Vals:[0]}", same: true},
	{name: "&{} pointer", a: "unexpected node &{Op:+ Left:0xc000012 Right:<nil>}", b: "unexpected node &{Op:] Left:<nil> Right:<nil>}", same: true, aText: "unexpected node …"},
	{name: "map", a: "headers differ: map[a:[1] b:[x y]]", b: "headers differ: map[]", same: true},
	{name: "typed slice", a: "decode(encode(%v)) = []main.Rec{main.Rec{Tag:0x1}}", b: "decode(encode(%v)) = []main.Rec(nil)", same: false, reason: "Go prints a nil slice with parentheses, not brackets; the test printed two different things"},
	{name: "decode(encode) error", a: "decode(encode([{1 ab}])): tlv: short value", b: "decode(encode([])): tlv: short value", same: true, aText: "decode(encode(…)): tlv: short value"},
	{name: "decode(encode) two errors", a: "decode(encode([{1 ab}])): tlv: short value", b: "decode(encode([{1 ab}])): tlv: bad tag", same: false},
	{name: "brackets in strings", a: "got [a] b] c], want [x]", b: "got [[], want []", same: true},
	{name: "unbalanced bracket stays", a: "unexpected ] in input", b: "unexpected ) in input", same: false},
	{name: "nil and values", a: "got <nil>, want [1]", b: "got [], want <nil>", same: true},
	{name: "booleans", a: "Valid() = true, want false", b: "Valid() = false, want true", same: true},
	{name: "Valid vs Ok", a: "Valid() = true, want false", b: "Ok() = true, want false", same: false},

	// Numbers, hex, positions.
	{name: "line:column", a: "syntax error at line 3, column 17: unexpected '}'", b: "syntax error at line 1, column 1: unexpected ']'", same: true,
		aText: "syntax error at line …, column …: unexpected …"},
	{name: "line:col short", a: "input:3:17: unexpected token", b: "input:1:2: unexpected token", same: true},
	{name: "position vs other error", a: "syntax error at line 3, column 17: unexpected '}'", b: "syntax error at line 3, column 17: unterminated string", same: false},
	{name: "offsets", a: "offset -12 exceeds 0x1f", b: "offset 3 exceeds 0x0", same: true},
	{name: "floats", a: "got 1.5e+10, want NaN", b: "got -0.25, want NaN", same: true},
	{name: "infinities and NaN", a: "x = +Inf", b: "x = 1", same: true, aText: "x = …"},
	{name: "-Inf and NaN", a: "sum -Inf, mean NaN", b: "sum 3, mean 1.5", same: true},
	{name: "sizes", a: "read 2154 bytes, want 531", b: "read 0 bytes, want 1", same: true},
	{name: "bytes vs records", a: "read 2154 bytes, want 531", b: "read 2154 records, want 531", same: false},
	{name: "hex dump with digits", a: "checksum mismatch in 0a1bff00", b: "checksum mismatch in 00", same: true},
	{name: "hex dump of the input", a: "bad frame cafe", ina: []any{[]byte{0xca, 0xfe}}, b: "bad frame abcd", inb: []any{[]byte{0xab, 0xcd}}, same: true},
	// A test that decompresses its input prints pieces of the content.
	{name: "pieces of a gzip member's content", a: `greeting: got " hello\tworld", want "hello\tworld"`, ina: []any{gzipped("a: 1\ngreeting: hello\tworld\n")},
		b: `eeting: got " \t", want "\t"`, inb: []any{gzipped("eeting: \t")}, same: true, aText: "… got …, want …"},
	{name: "pieces of a zlib stream's content", a: "unknown key color", ina: []any{zlibbed("color=red")},
		b: "unknown key c", inb: []any{zlibbed("c=")}, same: true},
	// (In LZMA: "greeting" is no piece of the stream's bytes.)
	{name: "pieces of an xz stream's content", a: `greeting: got " hello\tworld", want "hello\tworld"`, ina: []any{xz.Encode([]byte(strings.Repeat("a: 1\n", 40)+"greeting: hello\tworld\n"), xz.CheckCRC64, true)},
		b: `eeting: got " \t", want "\t"`, inb: []any{xz.Encode([]byte("eeting: \t"), xz.CheckNone, false)}, same: true, aText: "… got …, want …"},
	{name: "pieces of a zip archive's files", a: `greeting: got " hello\tworld", want "hello\tworld"`, ina: []any{zipped("a.txt", strings.Repeat("a: 1\n", 40)+"greeting: hello\tworld\n", zip.Deflate)},
		b: `eeting: got " \t", want "\t"`, inb: []any{zipped("", "eeting: \t", zip.Deflate)}, same: true, aText: "… got …, want …"},
	// A binary format stores a name with its length: the next field's
	// bytes follow it, letters or not, and the message prints it whole,
	// with the control bytes the search gives it.
	{name: "name stored with its length", a: "load client.conf: bad level", ina: []any{[]byte("\x0bclient.conflevel=x")},
		b: "load \x00\x00\x18.conf: bad level", inb: []any{[]byte("\x08\x00\x00\x18.conflevel=x")}, same: true, aText: "load client.conf: bad level"},
	{name: "names in a zip archive", a: `Load: client.conf: level: strconv.Atoi: parsing "": invalid syntax`, ina: []any{zipped("client.conf", "level=", zip.Store)},
		b: `Load: .conf: level: strconv.Atoi: parsing "": invalid syntax`, inb: []any{zipped(".conf", "level=", zip.Store)}, same: true},
	// Punctuation next to a word of the input is the input's only where
	// the input holds them together: the message's own colon stays.
	{name: "colon before a word of the input", a: "syntax error at line 2, column 20: unterminated string", ina: []any{"{\"a\": [1, 2],\n \"b\": \"unterminated [x]"},
		b: "syntax error at line 1, column 1: unterminated string", inb: []any{"\"unterminated"}, same: true, aText: "syntax error at line …, column …: unterminated string"},
	// A test prints the strings it decoded, not their escapes.
	{name: "JSON string with escapes", a: "unknown key aAb", ina: []any{[]byte(`{"a\u0041b": 1}`)}, b: "unknown key Ab", inb: []any{[]byte(`{"\u0041b": 1}`)}, same: true},
	{name: "URL with escapes", a: "path /static/css/../app main.css climbs out", ina: []any{"https://example.com/static/css%2F%2e%2e/app%20main.css?v=3"},
		b: "path ../app climbs out", inb: []any{"%2e%2e/app"}, same: true, aText: "path … climbs out"},
	// A document of several lines printed with %s: its opening and
	// closing brackets stand alone at the ends of lines.
	{name: "document printed whole", a: "query \".store | .[-2]\" on {\n  \"store\": {\n    \"books\": [1]\n  }\n}: got panic index out of range [-1], want a result",
		ina: []any{".store | .[-2]", []byte("{\n  \"store\": {\n    \"books\": [1]\n  }\n}\n")},
		b:   "query \"[0][-2]\" on 0: got panic index out of range [-1], want a result", inb: []any{"[0][-2]", []byte("0")}, same: true,
		aText: "query … on …: got panic index out of range …, want a result"},
	{name: "document in testify's column", a: "\n\tError Trace:\t/tmp/doc/doc_test.go:22\n\tError:      \t\"-3\" is not greater than or equal to \"0\"\n" +
		"\tTest:       \tFuzzConfig/…\n\tMessages:   \tconfig {\n\t            \t  \"retries\": -3,\n\t            \t  \"name\": \"edge\"\n\t            \t}",
		ina: []any{[]byte("{\n  \"retries\": -3,\n  \"name\": \"edge\"\n}\n")},
		b:   "\n\tError Trace:\t/tmp/doc/doc_test.go:22\n\tError:      \t\"-1\" is not greater than or equal to \"0\"\n\tTest:       \tFuzzConfig/…\n\tMessages:   \tconfig {\"retries\":-1}",
		inb: []any{[]byte(`{"retries":-1}`)}, same: true},
	// A stack's frames, in GOROOT or in a toolchain the go command keeps in
	// the module cache, down to the runtime's assembly.
	{name: "testify trace in a downloaded toolchain", a: "\n\tError Trace:\t/tmp/tq/tq_test.go:12\n" +
		"\t            \t\t\t\t/usr/local/go/src/reflect/value.go:586\n\t            \t\t\t\t/usr/local/go/src/runtime/asm_amd64.s:1771\n" +
		"\tError:      \t\"-1\" is not greater than or equal to \"0\"\n\tTest:       \tFuzzX/seed#0",
		b: "\n\tError Trace:\t/tmp/tq/tq_test.go:12\n" +
			"\t            \t\t\t\t/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.27.3.linux-amd64/src/reflect/value.go:586\n" +
			"\t            \t\t\t\t/root/go/pkg/mod/golang.org/toolchain@v0.0.1-go1.27.3.linux-amd64/src/runtime/asm_arm.s:1264\n" +
			"\tError:      \t\"-1\" is not greater than or equal to \"0\"\n\tTest:       \tFuzzX/seed#0",
		same: true, aText: "Error Trace: … Error: … is not greater than or equal to … Test: FuzzX/seed#…"},
	{name: "short piece inside a word", a: "unknown op ab", ina: []any{"xaby"}, b: "unknown op cd", inb: []any{"xcdy"}, same: false,
		reason: "a piece of fewer than 4 bytes must stand between word boundaries in the input: shorter runs match by chance"},
	{name: "hex word not from input", a: "bad frame cafe", ina: []any{[]byte{0x01}}, b: "bad frame beef", inb: []any{[]byte{0x02}}, same: false},
	{name: "table case numbers", a: "case 17: got 3, want 4", b: "case 0: got 0, want 1", same: true},
	{name: "candidate names", a: "FuzzX/c000001 failed", b: "FuzzX/5a3f9b2c1d0e4f67 failed", same: true},

	// Errors that quote the input, and the standard library's errors.
	{name: "strconv quoted", a: `strconv.ParseInt: parsing "98765432a": invalid syntax`, b: `strconv.ParseInt: parsing "": invalid syntax`, same: true},
	{name: "strconv two errors", a: `strconv.ParseInt: parsing "98765432a": invalid syntax`, b: `strconv.ParseInt: parsing "99999999999999999999": value out of range`, same: false},
	{name: "fmt.Errorf %q %w", a: `parse "{\"a\": [1, 2}": unexpected EOF`, b: `parse "{": unexpected EOF`, same: true},
	{name: "json syntax", a: "invalid character 'x' looking for beginning of value", b: "invalid character '}' looking for beginning of value", same: true},
	{name: "json two errors", a: "invalid character 'x' looking for beginning of value", b: "invalid character '}' after object key", same: false},
	{name: "json EOF", a: "unexpected end of JSON input", b: "invalid character 'x' looking for beginning of value", same: false},
	{name: "json type error", a: "json: cannot unmarshal string into Go struct field T.a of type int", b: "json: cannot unmarshal number into Go struct field T.b of type string", same: false, reason: "the words string and number are not values: a different type mismatch is reported apart"},
	{name: "base64", a: "illegal base64 data at input byte 4", b: "illegal base64 data at input byte 0", same: true},
	{name: "utf8 rune", a: `invalid UTF-8 at byte 12: "\xff"`, b: `invalid UTF-8 at byte 0: "\x80"`, same: true},
	{name: "backquoted", a: "bad query `select * from t where (`", b: "bad query `(`", same: true},
	{name: "apostrophe is not a quote", a: "can't parse 'x' here", b: "can't parse '' here", same: true, aText: "can't parse … here"},
	{name: "apostrophe words differ", a: "can't parse 'x' here", b: "won't parse 'x' here", same: false},
	{name: "toml errors", a: `toml: line 1 (last key "a"): incomplete number`, b: `toml: line 3 (last key "b.c"): expected 'true'`, same: false},
	{name: "toml kinds", a: "toml: cannot encode a value of Kind: string", b: "toml: cannot encode a value of Kind: int64", same: false},

	// Two errors at one t.Fatal(err) line stay apart.
	{name: "t.Fatal(err) EOF vs escape", a: "unexpected EOF", b: "invalid escape", same: false},
	{name: "wrapped errors", a: "parse: tokenize: unexpected EOF", b: "parse: tokenize: invalid escape", same: false},
	{name: "same error, other input", a: "parse: tokenize: unexpected EOF", ina: []any{"{\"a\""}, b: "parse: tokenize: unexpected EOF", inb: []any{"["}, same: true},

	// Transforms of the input.
	{name: "ToUpper of a key", a: "bad key FOO", ina: []any{"foo=1\nbar=2"}, b: "bad key B", inb: []any{"b="}, same: true, aText: "bad key FOO"},
	{name: "ToUpper, other word", a: "bad key FOO", ina: []any{"foo=1"}, b: "bad value FOO", inb: []any{"foo=1"}, same: false},
	{name: "ToUpper, a constant in the input", a: "bad key FOO", ina: []any{"key=foo"}, b: "bad key F", inb: []any{"k=f"}, same: true},
	{name: "constant word, not from this input", a: "bad key FOO", ina: []any{"foo=1"}, b: "bad key ZAP", inb: []any{"b=1"}, same: false},
	{name: "input printed with %s", a: "parse a-long-input: unexpected end", ina: []any{"a-long-input"}, b: "parse : unexpected end", inb: []any{""}, same: true},
	{name: "input with spaces", a: "parse the alpha: bad", ina: []any{"the alpha"}, b: "parse al: bad", inb: []any{"al"}, same: true, aText: "parse …: bad"},
	{name: "constant equal to the input", a: "alpha", ina: []any{"the alpha and"}, b: "alpha", inb: []any{"alpha"}, same: true},
	{name: "constant vs another constant", a: "alpha", ina: []any{"the alpha and"}, b: "beta", inb: []any{"x"}, same: false},
	{name: "input inside a word stays", a: "a maintainer says", ina: []any{[]byte("main")}, b: "a maintainer says", inb: []any{[]byte("x")}, same: true, aText: "a maintainer says"},
	{name: "title case", a: "unknown directive Include", ina: []any{"include x"}, b: "unknown directive I", inb: []any{"i"}, same: true},

	// Multi-line reports: go-cmp, testify, gotest.tools.
	{name: "cmp.Diff", a: cmpDiff1, b: cmpDiff2, same: true, aText: "round trip mismatch (-want +got): …"},
	{name: "cmp.Diff with non-breaking spaces", a: cmpDiff1, b: cmpDiffNBSP, same: true},
	{name: "cmp.Diff vs other header", a: cmpDiff1, b: "encode mismatch (-want +got):\n  []int{\n- 1,\n  }", same: false},
	{name: "testify Equal", a: testifyEqual1, b: testifyEqual2, same: true},
	{name: "testify Equal without diff", a: testifyEqual1, b: testifyEqualNoDiff, same: false, reason: "a Messages line the first report lacks"},
	{name: "testify NoError, two errors", a: testifyNoError1, b: testifyNoError2, same: false},
	{name: "testify NoError, one error", a: testifyNoError1, b: testifyNoError3, same: true},
	{name: "testify True vs NoError", a: testifyTrue, b: testifyNoError1, same: false},
	{name: "testify Len", a: testifyLen, b: testifyLen2, same: true},
	{name: "gotest.tools Equal", a: "assertion failed: 3 (int) != 4 (int)", b: "assertion failed: 0 (int) != 1 (int)", same: true},
	{name: "gotest.tools Equal types", a: "assertion failed: 3 (int) != 4 (int)", b: "assertion failed: 3 (int64) != 4 (int64)", same: false, reason: "int is a word and int64, with a digit, a value: another type reads apart"},
	{name: "gotest.tools DeepEqual", a: gotestDeep1, b: gotestDeep2, same: true},
	{name: "gotest.tools NilError", a: "assertion failed: error is not nil: bad thing 42", b: "assertion failed: error is not nil: bad thing 0", same: true},
	{name: "gotest.tools NilError, two errors", a: "assertion failed: error is not nil: bad thing 42", b: "assertion failed: error is not nil: short read", same: false},
	{name: "got/want blocks", a: "got:\n{1 2}\nwant:\n{3 4}", b: "got:\n[]\nwant:\n{0 0}", same: true},
	{name: "got/want blocks vs one line", a: "got:\n{1 2}\nwant:\n{3 4}", b: "got: {1 2} want: {3 4}", same: true, reason: "lines fold as white space"},
	{name: "t.Logf paragraph", a: "input produced\n    the output [1 2 3] which is not sorted", b: "input produced\n    the output [] which is not sorted", same: true},
	{name: "multi-line input printed", a: "parse:\nline one\nline two\nfailed", ina: []any{"line one\nline two"}, b: "parse:\nx\nfailed", inb: []any{"x"}, same: true},

	// Panics of the user's values.
	{name: "panic with node", a: `unexpected node *ast.BinaryExpr{Op:"+", X:(*ast.Ident)(0xc0000a)}`, b: `unexpected node *ast.BinaryExpr{Op:"-", X:(*ast.Ident)(nil)}`, same: true},
	{name: "panic two kinds", a: "unreachable: bad opcode 0x12", b: "unreachable: stack underflow", same: false},
	{name: "white space folds", a: "  a \t b  ", b: "a b", same: true, aText: "a b"},
}

// at is the place of the failures of the tests: a t.Fatal at one line.
var at = Signature{Kind: Fail, Pos: "x_test.go:12"}

// TestIdentity_Pairs checks the rule's verdict on every pair of the
// table: the first message teaches a Shaper, the second is judged by it.
func TestIdentity_Pairs(t *testing.T) {
	if len(messagePairs) < 60 {
		t.Fatalf("%d pairs; the table keeps at least 60", len(messagePairs))
	}
	for _, tt := range messagePairs {
		t.Run(tt.name, func(t *testing.T) {
			var s Shaper
			ta := s.Shape(at, tt.a, tt.ina)
			tb := s.Shape(at, tt.b, tt.inb)
			if (ta == tb) != tt.same {
				t.Errorf("same = %v, want %v (%s)\n a: %q -> %q\n b: %q -> %q", ta == tb, tt.same, tt.reason, tt.a, ta, tt.b, tb)
			}
			if tt.aText != "" && ta != tt.aText {
				t.Errorf("text of %q = %q, want %q", tt.a, ta, tt.aText)
			}
			// The verdict is the same the other way round, where neither
			// message has words taken from its input.
			if tt.ina == nil && tt.inb == nil {
				var r Shaper
				if got := r.Shape(at, tt.b, nil) == r.Shape(at, tt.a, nil); got != tt.same {
					t.Errorf("reversed: same = %v, want %v", got, tt.same)
				}
			}
		})
	}
}

// TestShaper_Consistent checks that a search's candidates keep the
// original's text as the input shrinks, whatever words of the message the
// input holds, and that the text does not depend on which candidate the
// Shaper saw first among those of one failure.
func TestShaper_Consistent(t *testing.T) {
	for _, tt := range []struct {
		format string
		inputs []string
	}{
		{"parse(%q): unexpected end", []string{"a long input with \"quotes\" and 12 numbers", "ab", "a", ""}},
		{"parse %s: unexpected end", []string{"a-long-input", "ab=c", "a", "in", "unexpected"}},
		{"Unmarshal([%s]) = nil, want error", []string{"0x12 true", "t", "{"}},
		{"bad key %s in section", []string{"SECTION", "KEY", "in", "a"}},
		{"bad input %s: has a bang", []string{"a long line of input, with a bang! and more", ",0!0", "!", "bang!", "has: a"}},
	} {
		var s Shaper
		want := ""
		for i, in := range tt.inputs {
			got := s.Shape(at, fmt.Sprintf(tt.format, in), []any{in})
			if i == 0 {
				want = got
				continue
			}
			if got != want {
				t.Errorf("%s with input %q: text %q, want %q (as with %q)", tt.format, in, got, want, tt.inputs[0])
			}
		}
	}
}

// TestShaper_Places checks that messages are compared only at one place:
// a message made of words of its input alone fits another such message of
// the same place, not one of another place.
func TestShaper_Places(t *testing.T) {
	var s Shaper
	fatal := Signature{Kind: Fail, Pos: "x_test.go:11"}
	panicked := Signature{Kind: Panic, Pos: "x_test.go:14"}
	if got := s.Shape(fatal, "alpha", []any{"xx alpha"}); got != "alpha" {
		t.Errorf("alpha: %q", got)
	}
	if got := s.Shape(panicked, "beta", []any{"xx beta"}); got != "beta" {
		t.Errorf("beta at another place: %q, want beta", got)
	}
	if got := s.Shape(fatal, "gamma", []any{"gamma"}); got != "alpha" {
		t.Errorf("gamma, a word of its input, at alpha's place: %q, want alpha", got)
	}
}

// TestShape_Cut checks the bounds: a long message is read in part, and
// the text is cut.
func TestShape_Cut(t *testing.T) {
	long := strings.Repeat("word ", 10000)
	if got := Shape(long, nil); len(got) > maxText {
		t.Errorf("text of %d bytes, want at most %d", len(got), maxText)
	}
	if got := Shape("", nil); got != "" {
		t.Errorf("empty message: %q", got)
	}
}

// FuzzShaper checks that the rule never fails on any message: a message
// always fits the pattern learned from itself, with any input.
func FuzzShaper(f *testing.F) {
	for _, p := range messagePairs[:20] {
		f.Add(p.a, "x")
	}
	f.Add("got [a] b] c], want [x]", "a] b")
	f.Fuzz(func(t *testing.T, msg, in string) {
		var s Shaper
		first := s.Shape(at, msg, []any{in})
		if again := s.Shape(at, msg, []any{in}); again != first {
			t.Fatalf("%q: %q, then %q", msg, first, again)
		}
		if len(first) > maxText {
			t.Fatalf("text of %d bytes", len(first))
		}
	})
}

func BenchmarkIdentity(b *testing.B) {
	for _, bc := range []struct {
		name string
		msg  func(i int) string
		in   func(i int) []any
	}{
		{"panic", func(int) string { return "index 3 out of range" }, func(int) []any { return nil }},
		{"got-want", func(i int) string { return fmt.Sprintf("round trip: got [{%d ab [1 2]}], want [{1 ab []}]", i) }, func(int) []any { return nil }},
		{"input-word", func(i int) string { return fmt.Sprintf("bad key K%c", 'a'+i%26) }, func(i int) []any { return []any{fmt.Sprintf("k%c=1", 'a'+i%26)} }},
		{"cmp.Diff", func(int) string { return cmpDiff1 }, func(int) []any { return nil }},
		{"testify", func(int) string { return testifyEqual1 }, func(int) []any { return nil }},
		{"input-1MiB", func(int) string { return "bad key ZZZ" }, func(int) []any { return []any{strings.Repeat("key=zzz ", 1<<17)} }},
		// A name a zip archive stores, which the search lowers to control
		// bytes: a run of the input, not a word of it.
		{"zip-name", func(i int) string { return fmt.Sprintf("Load: \x00\x00%c.conf: level: bad", i%26) }, func(i int) []any { return []any{zipped(fmt.Sprintf("\x00\x00%c.conf", i%26), "level=", zip.Store)} }},
		// A fuzzer's input printed whole: thousands of brackets that never
		// close, and of words of the input.
		{"brackets-8KiB", func(i int) string { return "got " + strings.Repeat("[a ", 3000+i) }, func(i int) []any { return []any{strings.Repeat("[a ", 3000+i)} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var s Shaper
			want := s.Shape(at, bc.msg(0), bc.in(0))
			msgs := make([]string, 64)
			ins := make([][]any, 64)
			for i := range msgs {
				msgs[i], ins[i] = bc.msg(i+1), bc.in(i+1)
			}
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if s.Shape(at, msgs[i%64], ins[i%64]) != want {
					b.Fatal("another text")
				}
			}
		})
	}
}

// TestShaper_Vary checks that what differs between two runs' messages of
// one failure is a value: a map's words in another order, a time, a
// temporary directory; later messages that hold those words in any order
// get the same text, and one with other words does not.
func TestShaper_Vary(t *testing.T) {
	var s Shaper
	text := s.Vary(at, "duplicate words fox,the in the input", "duplicate words the,fox in the input", nil)
	if text != "duplicate words … in the input" {
		t.Errorf("Vary: %q", text)
	}
	for _, msg := range []string{"duplicate words fox,the in the input", "duplicate words the,fox in the input", "duplicate words the in the input"} {
		if got := s.Shape(at, msg, nil); got != text {
			t.Errorf("%q: %q, want %q", msg, got, text)
		}
	}
	if got := s.Shape(at, "duplicate words the in the output", nil); got == text {
		t.Errorf("another constant word: %q", got)
	}
	if got := s.Vary(at, "cache /tmp/TestX4021/001 stale since Mon 10:01", "cache /tmp/TestX977/001 stale since Mon 10:02", nil); got != "cache … stale since Mon …:…" {
		t.Errorf("Vary of a directory and a time: %q", got)
	}
}
