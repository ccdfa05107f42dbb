package shrink

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"
)

// textCandidates lists the candidates of a text shrinker on s, at most n
// (0: all).
func textCandidates(shrink func(string, pos) iter.Seq2[pos, string], s string, n int) string {
	var got []string
	for _, c := range shrink(s, pos{}) {
		if n > 0 && len(got) == n {
			break
		}
		got = append(got, c)
	}
	return fmt.Sprintf("%q", got)
}

// TestTextPasses pins the candidates of the text passes on small inputs, in
// order.
func TestTextPasses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		shrink func(string, pos) iter.Seq2[pos, string]
		s      string
		n      int
		want   string
	}{
		// The whole text, then the list's items with their separators.
		{"lists", removeItems[string], "[1, 2, 3]", 0, `["" "[]" "[2, 3]" "[1, 3]" "[1, 2]"]`},
		{"lists/lines", removeItems[string], "a\n  b\nc", 0, `["" "c" "a\n  b\n" "a\nc"]`},
		// The shortest span inside first.
		{"hoist", hoist[string], `{"a":[{"b":1}]}`, 0, `["{\"b\":1}" "[{\"b\":1}]" "{\"a\":{\"b\":1}}"]`},
		// Each span with a separator, then without its delimiters.
		{"spans", cutSpans[string], "f(x, [y])", 0, `["f" "fx, [y]" "f(x)" "f(x, y)"]`},
		{"tokens", removeTokens[string], "a+b", 0, `["" "+b" "ab" "a+"]`},
		// Two blocks of tokens around one or two kept ones.
		{"pairs", removePairs[string], "<a></a>", 4, `[">a>" ">/a>" "a/a>" "a</a>"]`},
		// The brackets of a span onto each later line of one value: not
		// those of (-1) or (~), which are not smaller without them; not in
		// texts over rewrapMax bytes.
		{"rewrap", rewrap[string], "[x]+(-1)+(~)\n0\n(z)", 0, `["x+(-1)+(~)\n[0]\n(z)" "x+(-1)+(~)\n0\n[(z)]"]`},
		{"rewrap/long", rewrap[string], "[x]\n0" + strings.Repeat(" ", rewrapMax), 0, `[]`},
		// Spans by 0, a, "" (padded where nothing separates them), tokens
		// by 0 and a, then blocks of tokens set to 0.
		// Each number: 0, then a binary search from half of it up.
		{"numbers", lowerNumbers[string], "f(100, 7)", 0, `["f(0, 7)" "f(50, 7)" "f(75, 7)" "f(87, 7)" "f(93, 7)" "f(96, 7)" "f(98, 7)" "f(99, 7)" "f(100, 0)" "f(100, 3)" "f(100, 5)" "f(100, 6)"]`},
		{"literals", literals[string], `f(x)"s"`, 12, `["f0\"s\"" "f 0\"s\"" "f0 \"s\"" "f 0 \"s\"" "fa\"s\"" "f a\"s\"" "fa \"s\"" "f a \"s\"" "f(x)\"\"" "f(x)0" "0(x)\"s\"" "a(x)\"s\""]`},
	} {
		if got := textCandidates(tc.shrink, tc.s, tc.n); got != tc.want {
			t.Errorf("%s(%q) = %s\nwant %s", tc.name, tc.s, got, tc.want)
		}
	}
}

// TestRewrapTuple: the brackets of each span of a short text argument go
// onto each later text argument that holds one value, its spaces kept; not
// onto an argument of two values, nor onto binary data or an integer.
func TestRewrapTuple(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range rewrapTuple([]any{"[a]|f(0)", 7, "0", []byte("b c"), "\x00", " {} "}, pos{}) {
		got = append(got, fmt.Sprintf("%q", c))
	}
	want := `["a|f(0)" '\a' "[0]" "b c" "\x00" " {} "] ` +
		`["a|f(0)" '\a' "0" "b c" "\x00" " [{}] "] ` +
		`["[a]|f0" '\a' "(0)" "b c" "\x00" " {} "] ` +
		`["[a]|f0" '\a' "0" "b c" "\x00" " ({}) "]`
	if g := strings.Join(got, " "); g != want {
		t.Errorf("rewrapTuple = %s\nwant %s", g, want)
	}
}

// TestLiterals_Escapes: the last stage of literals puts for each escape
// of a URL or a quoted string the printable ASCII character it stands for;
// not for a control character, nor for a % without hex digits.
func TestLiterals_Escapes(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range literals(`x%2e%zz\x41\u0042%0a%`, pos{k: 3}) {
		got = append(got, c)
	}
	want := `["x.%zz\\x41\\u0042%0a%" "x%2e%zzA\\u0042%0a%" "x%2e%zz\\x41B%0a%"]`
	if g := fmt.Sprintf("%q", got); g != want {
		t.Errorf("escapes = %s\nwant %s", g, want)
	}
}

// TestNumbers_Threshold: a number in text ends at the threshold it fails
// above, from a number of more digits too, where dropping and lowering
// digits one at a time stop at 100.
func TestNumbers_Threshold(t *testing.T) {
	t.Parallel()
	fails := Predicate(func(args []any) bool {
		s := args[0].(string)
		var n int
		_, err := fmt.Sscanf(s, "x<<=%d}", &n)
		return err == nil && s == fmt.Sprintf("x<<=%d}", n) && n >= 64
	})
	for _, in := range []string{"x<<=100}", "x<<=6444644444}", "x<<=64}"} {
		r, err := Shrink(context.Background(), []any{in}, fails)
		if err != nil || r.Args[0] != "x<<=64}" {
			t.Errorf("Shrink(%q) = %q, %v; want x<<=64}", in, r.Args[0], err)
		}
	}
}

// tilingOf is f.tiling(s) with the counted headers of s.
func tilingOf(f lengthField, s []byte) []int {
	counted := countedHeaders(s)
	return f.tiling(s, &counted)
}

// TestShrinkRecords: a compound packet of two records, each a 4-byte header
// whose bytes 2-3 count the 32-bit words that follow.
func TestShrinkRecords(t *testing.T) {
	t.Parallel()
	s := []byte("\x80\x01\x00\x01abcd\x80\x02\x00\x02efghijkl")
	rtcp := slices.Index(lengthFields, lengthField{off: 2, width: 2, unit: 4})
	var got []string
	for p, c := range shrinkRecords(s, pos{k: recordStages * rtcp}) {
		if p.k/recordStages != rtcp {
			break
		}
		got = append(got, string(c))
	}
	want := `["" "\x80\x02\x00\x02efghijkl" "\x80\x01\x00\x01abcd" "\x80\x01\x00\x00\x80\x02\x00\x02efghijkl" ` +
		`"\x80\x01\x00\x01abcd\x80\x02\x00\x00" "\x80\x01\x00\x01abcd\x80\x02\x00\x01efgh"]`
	if g := fmt.Sprintf("%q", got); g != want {
		t.Errorf("shrinkRecords = %s\nwant %s", g, want)
	}
	if got := tilingOf(lengthFields[rtcp], s); fmt.Sprint(got) != "[0 8 20]" {
		t.Errorf("tiling = %v, want [0 8 20]", got)
	}
	if isBinary("{\"a\": 1}\n\té") || !isBinary(s) || !isBinary("\xff") {
		t.Errorf("isBinary is wrong")
	}
}

// TestShrink_NameHeads: files of a name and a content, each after its
// length (in 1 byte, in 2 little endian, or in 4 big endian after a header
// that holds the length of the rest); the code under test reads the end of
// a name. The bytes pass lowers the head of the name to zeros, and the
// passes that know the lengths cut them with the lengths: the hand minimum
// in each layout.
func TestShrink_NameHeads(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		width  int
		header bool
	}{{"1 byte", 1, false}, {"2 bytes", 2, false}, {"4 bytes under a header", 4, true}} {
		length := func(b []byte) int {
			n := 0
			for i := range tt.width {
				if tt.width == 4 {
					n = n<<8 | int(b[i])
				} else {
					n |= int(b[i]) << (8 * i)
				}
			}
			return n
		}
		field := func(b []byte) (f, rest []byte, ok bool) {
			if len(b) < tt.width {
				return nil, nil, false
			}
			n := length(b)
			if n > len(b)-tt.width {
				return nil, nil, false
			}
			return b[tt.width : tt.width+n], b[tt.width+n:], true
		}
		fails := func(args []any) bool {
			b := args[0].([]byte)
			if tt.header {
				if len(b) < 8 || string(b[:4]) != "HDR1" || length(b[4:]) != len(b)-8 {
					return false
				}
				b = b[8:]
			}
			for len(b) > 0 {
				name, rest, ok := field(b)
				if !ok {
					return false
				}
				content, rest, ok := field(rest)
				if !ok {
					return false
				}
				if strings.HasSuffix(string(name), ".conf") && strings.Contains(string(content), "level=x") {
					return true
				}
				b = rest
			}
			return false
		}
		put := func(b []byte, n int) []byte {
			for i := range tt.width {
				if tt.width == 4 {
					b = append(b, byte(n>>(8*(3-i))))
				} else {
					b = append(b, byte(n>>(8*i)))
				}
			}
			return b
		}
		framed := func(fields ...string) []byte {
			var b []byte
			for _, f := range fields {
				b = append(put(b, len(f)), f...)
			}
			if tt.header {
				b = append(put([]byte("HDR1"), len(b)), b...)
			}
			return b
		}
		in := framed("README.txt", "hello", "client.conf", "name=a\nlevel=x ok")
		r, err := Shrink(context.Background(), []any{in}, Predicate(fails))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.Args[0].([]byte), framed(".conf", "level=x"); !bytes.Equal(got, want) {
			t.Errorf("%s: Shrink = %q, want %q", tt.name, got, want)
		}
		t.Logf("%s: %d → %d bytes in %d runs", tt.name, len(in), len(r.Args[0].([]byte)), r.Stats.Runs)
	}
}

// TestShrinkRecords_FileHeader: records after a file header, each a
// 16-byte header whose bytes 8-11 (little endian) count the bytes after
// it, 4 bytes after the field, as in a packet capture.
func TestShrinkRecords_FileHeader(t *testing.T) {
	t.Parallel()
	record := func(data string) string {
		return "tttt" + "uuuu" + string(rune(len(data))) + "\x00\x00\x00" + "\xff\x00\x00\x00" + data
	}
	s := []byte("FILEHEADER" + record("abc") + record("defgh") + record("i"))
	capture := slices.Index(lengthFields, lengthField{off: 8, width: 4, little: true, unit: 1, gap: 4})
	if got := tilingOf(lengthFields[capture], s); fmt.Sprint(got) != "[10 29 50 67]" {
		t.Fatalf("tiling = %v, want [10 29 50 67]", got)
	}
	var got []string
	for p, c := range shrinkRecords(s, pos{k: recordStages * capture}) {
		if p.k/recordStages != capture {
			break
		}
		got = append(got, string(c))
	}
	for _, want := range []string{
		"FILEHEADER", // every record
		"FILEHEADER" + record("abc") + record("i"),                // one
		"FILEHEADER" + record("") + record("defgh") + record("i"), // a length lowered with what it counts
	} {
		if !slices.Contains(got, want) {
			t.Errorf("shrinkRecords does not propose %q", want)
		}
	}
	// Empty records, after a header that holds the length of what
	// follows it.
	str := lengthFields[slices.Index(lengthFields, lengthField{off: 0, width: 4, unit: 1})]
	s = []byte("HDR1\x00\x00\x00\x1c" + "\x00\x00\x00\x00" + "\x00\x00\x00\x00" + "\x00\x00\x00\x05.conf" + "\x00\x00\x00\x07level=x")
	if got := tilingOf(str, s); fmt.Sprint(got) != "[8 12 16 25 36]" {
		t.Errorf("tiling with empty records = %v, want [8 12 16 25 36]", got)
	}
	s[7] = 0x1b // the header no longer counts them: no empty record
	if got := tilingOf(str, s); fmt.Sprint(got) != "[16 25 36]" {
		t.Errorf("tiling = %v, want [16 25 36]", got)
	}
	// A length lowered with the zeros that what it counts starts with.
	s = []byte("FILEHEADER" + record("abc") + record("\x00\x00\x00gh") + record("i"))
	got = got[:0]
	for p, c := range shrinkRecords(s, pos{k: recordStages*capture + stageLowerStart}) {
		if p.k/recordStages != capture {
			break
		}
		got = append(got, string(c))
	}
	if want := "FILEHEADER" + record("abc") + record("gh") + record("i"); len(got) == 0 || got[0] != want {
		t.Errorf("shrinkRecords proposes %q, want first %q", got, want)
	}
	// A trailer stays when its record's length is lowered: a chunk of a
	// length, a type, the data and a checksum.
	chunk := func(data string) string { return "\x00\x00\x00" + string(rune(len(data))) + "TYPE" + data + "CRC!" }
	s = []byte("\x89PNG" + chunk("abcdef") + chunk("gh"))
	png := slices.Index(lengthFields, lengthField{off: 0, width: 4, unit: 1, gap: 4, trailer: 4})
	got = got[:0]
	for p, c := range shrinkRecords(s, pos{k: recordStages*png + stageLowerEnd}) {
		if p.k/recordStages != png {
			break
		}
		got = append(got, string(c))
	}
	if want := "\x89PNG" + chunk("") + chunk("gh"); !slices.Contains(got, want) {
		t.Errorf("shrinkRecords does not propose %q: %q", want, got)
	}
}
