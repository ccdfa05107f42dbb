package failure

import (
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// The identity of a failure message is its constant text: what the test
// wrote around the values. The rule, as docs/how-it-works.md tells users:
//
//   - The whole message counts, every line of it, with the white space
//     between words folded. In a message of several lines, a line that
//     starts with '-', '+', '@' or a space, breaking or not (the body of a
//     diff, as go-cmp and difflib print it, or values printed one level
//     deeper), is a value, and so is such a line behind a testify-style
//     "Label:<tab>" column.
//   - Values are masked: an input of several lines printed whole (a
//     document printed with %s, or in testify's indented column); a
//     string in quotes ("…", `…`, '…'); what a pair of square or curly
//     brackets holds, with the type before it (map[…], main.T{…}, &{…},
//     []int{…}); a position in Go source with its path (x.go:12, and
//     asm_amd64.s:9, as stacks and testify's Error Trace print them); any
//     word with a digit (numbers, hex, 3:17, c000001); true, false and
//     nil; the name of the running test (its callers mask it); and a word
//     that is a piece of the failing input, as it is, in another case or
//     in hex, or of a string in double quotes that it holds with escapes,
//     or of the input with its %XX escapes, decoded, with punctuation
//     right next to it that the input holds next to it too; and a run of
//     words and punctuation without space of at least minPiece bytes that
//     the input holds as it is, next to anything (a name a binary format
//     stores with its length). Values next to each other are one value.
//   - Two messages of failures of one kind at one position are the same
//     failure when their constant words and punctuation agree in order. A
//     word that was a piece of the input in the first message of a failure
//     may stand, in a later one, as a piece of that one's input or as the
//     same word.
//
// So t.Fatalf("round trip: got %v, want %v", got, want) is one failure,
// "round trip: got …, want …", whatever got and want are, while
// t.Fatal(err) reached by "unexpected EOF" and by "invalid escape" is two.

// MaxMessage bounds the part of a message that is read: identity is in
// the words a test writes, not in kilobytes of a dump. Readers of a
// message keep no more of it.
const MaxMessage = 8 << 10

// maxText bounds the Text of a signature.
const maxText = 300

// A token is one piece of a message: a word, a punctuation character, or
// a value.
type token struct {
	text    string // the word or punctuation; "" for a value
	kind    tokenKind
	space   bool            // white space stood before it
	derived bool            // a word that is a piece of the input (learned tokens only)
	words   map[string]bool // of a learned value: the words of the input it held
}

type tokenKind uint8

const (
	word tokenKind = iota
	punct
	value
)

// Shape returns the identity text of msg, a failure message, by the rule
// above, with the pieces of inputs masked: the text of a failure that no
// earlier message of the same target taught anything.
func Shape(msg string, inputs []any) string {
	in := newInputs(inputs)
	toks := tokenize(in.masked(msg))
	return render(learn(toks, in.pieces(toks), &in))
}

// A Shaper gives the failures of one target their identity texts, the same
// for the command's oracle, the fuzz worker, the in-process session and go
// test's check: the first message of each failure is learned as a pattern,
// and a later message that fits a pattern gets that pattern's text, so that
// one failure keeps one text as its input shrinks, even where a word of the
// message is a piece of the input. Its zero value is ready to use; it is
// safe for concurrent use.
type Shaper struct {
	// Templates are the program's message templates: a message one of
	// them explains gets its template's text, and only others are masked.
	Templates *Templates

	mu       sync.Mutex
	varied   map[place][]pattern // learned by Vary: they come first
	patterns map[place][]pattern
	n        int // patterns learned
}

// A place is where messages are compared: a kind of failure at a position.
type place struct{ kind, pos string }

// maxPatterns bounds the patterns a Shaper learns; past it, a message that
// fits none gets its own text, unlearned.
const maxPatterns = 64

type pattern struct {
	toks []token
	text string
}

// Shape returns the identity text of msg, the message of a failure of
// inputs, of sig's kind at sig's position: the text of the first pattern
// learned there that it fits, or, learned as a new pattern, its own.
// Messages are compared only with those of failures of the same kind at
// the same position: their identities differ anyway, and a message made
// of words of the input alone ("beta") would fit another one ("alpha").
func (s *Shaper) Shape(sig Signature, msg string, inputs []any) string {
	at := place{sig.Kind, sig.Pos}
	s.mu.Lock()
	varied := s.varied[at]
	s.mu.Unlock()
	if len(varied) > 0 {
		in := newInputs(inputs)
		toks := tokenize(in.masked(msg))
		pieces := in.pieces(toks)
		for _, p := range varied {
			if fits(p.toks, toks, pieces, &in) {
				return p.text
			}
		}
	}
	if text, ok := s.Templates.Match(sig.Pos, msg, func(text string) string { return Shape(text, inputs) }); ok {
		return text
	}
	in := newInputs(inputs)
	toks := tokenize(in.masked(msg))
	pieces := in.pieces(toks)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.patterns[at] {
		if fits(p.toks, toks, pieces, &in) {
			return p.text
		}
	}
	learned := learn(toks, pieces, &in)
	p := pattern{toks: learned, text: render(learned)}
	if s.n < maxPatterns {
		if s.patterns == nil {
			s.patterns = map[place][]pattern{}
		}
		s.patterns[at] = append(s.patterns[at], p)
		s.n++
	}
	return p.text
}

// Vary returns the identity text of a failure of sig's kind at sig's
// position whose message was a in one run of inputs and b in another:
// what differs between the two (a time, a pointer, a temporary directory,
// a map printed in another order) is a value, whatever rule judges the
// rest. The text is the tokens the two messages start and end with alike,
// and one value between them that may hold any word either held there; a
// later message that fits it gets it.
func (s *Shaper) Vary(sig Signature, a, b string, inputs []any) string {
	in := newInputs(inputs)
	ta, tb := tokenize(in.masked(a)), tokenize(in.masked(b))
	eq := func(x, y token) bool { return x.kind == y.kind && x.text == y.text }
	pre := 0
	for pre < len(ta) && pre < len(tb) && eq(ta[pre], tb[pre]) {
		pre++
	}
	suf := 0
	for suf < len(ta)-pre && suf < len(tb)-pre && eq(ta[len(ta)-1-suf], tb[len(tb)-1-suf]) {
		suf++
	}
	v := token{kind: value, words: map[string]bool{}}
	for _, mid := range [][]token{ta[pre : len(ta)-suf], tb[pre : len(tb)-suf]} {
		for i, tok := range mid {
			if i == 0 {
				v.space = v.space || tok.space
			}
			if tok.kind != value {
				v.words[tok.text] = true
			}
		}
	}
	var toks []token
	for _, tok := range append(append(slices.Clip(ta[:pre]), v), ta[len(ta)-suf:]...) {
		if n := len(toks); n > 0 && tok.kind == value && toks[n-1].kind == value {
			for w := range tok.words {
				if toks[n-1].words == nil {
					toks[n-1].words = map[string]bool{}
				}
				toks[n-1].words[w] = true
			}
			continue // one value
		}
		toks = append(toks, tok)
	}
	p := pattern{toks: toks, text: render(toks)}
	at := place{sig.Kind, sig.Pos}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.varied == nil {
		s.varied = map[place][]pattern{}
	}
	s.varied[at] = append(s.varied[at], p)
	return p.text
}

// tokenize splits a message into tokens, values collapsed.
func tokenize(msg string) []token {
	if len(msg) > MaxMessage {
		msg = msg[:MaxMessage]
	}
	var t tokenizer
	for i, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if i > 0 {
			t.space = true
			var ok bool
			if line, ok = t.continuation(line); !ok {
				continue
			}
		}
		t.line(line)
	}
	return t.toks
}

type tokenizer struct {
	toks  []token
	space bool // white space before the next token
}

func (t *tokenizer) add(tok token) {
	tok.space = t.space && len(t.toks) > 0
	t.space = false
	if tok.kind == value && len(t.toks) > 0 && t.toks[len(t.toks)-1].kind == value {
		return // one value
	}
	t.toks = append(t.toks, tok)
}

// continuation reads a line after the first: a diff line or a value
// dumped one level deeper is a value, and a testify-style column
// ("\tError:      \tNot equal: ") keeps its label and reads on.
func (t *tokenizer) continuation(line string) (string, bool) {
	if rest, ok := strings.CutPrefix(line, "\t"); ok {
		if label, content, ok := strings.Cut(rest, "\t"); ok {
			if l := strings.TrimSpace(label); l != "" {
				t.line(l)
				t.space = true
			}
			rest = content
		}
		line = rest
	}
	if line == "" {
		return "", false
	}
	switch {
	case strings.ContainsRune("-+ @", rune(line[0])), strings.HasPrefix(line, "\u00a0"):
		t.add(token{kind: value})
		return "", false
	}
	return line, true
}

// line tokenizes one line: quoted strings and bracketed values, and the
// words and punctuation between them.
func (t *tokenizer) line(s string) {
	var closes []int // of the brackets of s, where each closes
	if strings.ContainsAny(s, "[{") {
		closes = closingBrackets(s)
	}
	start := 0 // of the text not yet tokenized
	for i := 0; i < len(s); {
		c := s[i]
		end := -1
		switch {
		case c == '"' || c == '`' || c == '\'' && (i == 0 || !isWordByte(s[i-1])):
			end = closingQuote(s, i)
		case c == '[' || c == '{':
			// An opening bracket that no bracket closes is a string's,
			// and so are the closing brackets that stray after a value.
			end = strayClosers(s, max(closes[i], i))
		}
		if end < 0 {
			i++
			continue
		}
		from := i
		if c == '[' || c == '{' {
			// The type printed before a composite value is part of it.
			for from > start && isTypeByte(s[from-1]) {
				from--
			}
		}
		t.text(s[start:from])
		t.add(token{kind: value})
		i = end + 1
		start = i
	}
	t.text(s[start:])
}

// text tokenizes text without quotes or brackets: each run of non-space
// bytes is a word, with the punctuation before and after it apart.
func (t *tokenizer) text(s string) {
	for len(s) > 0 {
		n := strings.IndexFunc(s, unicode.IsSpace)
		if n == 0 {
			_, size := utf8.DecodeRuneInString(s)
			s = s[size:]
			t.space = true
			continue
		}
		if n < 0 {
			n = len(s)
		}
		t.chunk(s[:n])
		s = s[n:]
	}
}

// chunk tokenizes a run of non-space bytes: runs of word bytes (letters,
// digits and _ . - / +, so that paths, signed numbers and hyphenated words
// stay whole) are words, and each character between them punctuation.
func (t *tokenizer) chunk(c string) {
	if strings.HasPrefix(c, "<nil>") { // how fmt prints nil
		t.add(token{kind: value})
		c = c[len("<nil>"):]
	}
	if n := goPosLen(c); n > 0 {
		// A position in Go source (a stack, testify's Error Trace): the
		// failure's position is already part of its identity.
		t.add(token{kind: value})
		c = c[n:]
	}
	for c != "" {
		n := strings.IndexFunc(c, func(r rune) bool { return !isChunkWordRune(r) })
		if n != 0 {
			if n < 0 {
				n = len(c)
			}
			w := c[:n]
			switch {
			case isValueWord(w):
				t.add(token{kind: value})
			case strings.IndexFunc(w, isWordRune) < 0:
				t.add(token{text: w, kind: punct})
			default:
				t.add(token{text: w, kind: word})
			}
			c = c[n:]
			continue
		}
		// Punctuation, a character a token: an input printed as it is
		// brings its own, which a value must be able to take in.
		r, size := utf8.DecodeRuneInString(c)
		if r == '…' {
			t.add(token{kind: value})
		} else {
			t.add(token{text: c[:size], kind: punct})
		}
		c = c[size:]
	}
}

var goPosRE = regexp.MustCompile(`^[^\s"'\x60]*\.(go|s):\d+(:\d+)?`)

// goPosLen returns the length of the position in Go source (file.go:line,
// or file.s:line, the runtime's assembly that a stack ends in) that c
// starts with, or 0.
func goPosLen(c string) int {
	if !strings.Contains(c, ".go:") && !strings.Contains(c, ".s:") { // most words: no regexp
		return 0
	}
	if m := goPosRE.FindStringIndex(c); m != nil {
		return m[1]
	}
	return 0
}

func isChunkWordRune(r rune) bool {
	return isWordRune(r) || r == '.' || r == '-' || r == '/' || r == '+'
}

// isValueWord reports whether a word is a value whatever the input: it has
// a digit, or it is true, false, nil, Inf or NaN (as %v prints floats), or
// the mask of a test's name.
func isValueWord(w string) bool {
	switch w {
	case "true", "false", "nil", "Inf", "+Inf", "-Inf", "NaN":
		return true
	}
	return strings.ContainsAny(w, "0123456789…")
}

func isWordRune(r rune) bool {
	return r == '_' || r == '…' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// isTypeByte reports whether c may stand in the type Go prints before a
// composite value: map[…], main.T{…}, &{…}, []*pkg.T{…}.
func isTypeByte(c byte) bool {
	return isWordByte(c) || c == '.' || c == '*' || c == '&' || c == ']' || c == '['
}

// closingQuote returns the index of the quote that closes the one at s[i],
// or -1: a backquoted string has no escapes, and a single-quoted one is
// short (a character or a word), so that an apostrophe does not swallow
// the rest of a sentence.
func closingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch {
		case q == '\'' && j-i > 32:
			return -1
		case s[j] == '\\' && q != '`':
			j++
		case s[j] == q:
			return j
		}
	}
	return -1
}

// closingBrackets returns, for each opening bracket of s, the index of the
// bracket that closes it, or -1 if none does (for other bytes, 0). %v
// prints the strings inside composite values as they are, so their
// brackets need not balance: a closing bracket of the wrong kind is taken
// for a string's. One pass, so that a line of a thousand brackets that
// never close costs no more than one of text.
func closingBrackets(s string) []int {
	closes := make([]int, len(s))
	var open []int // the indexes of the brackets not closed yet
	for j := 0; j < len(s); j++ {
		switch c := s[j]; c {
		case '[', '{':
			open = append(open, j)
			closes[j] = -1
		case ']', '}':
			if n := len(open); n > 0 && (s[open[n-1]] == '[') == (c == ']') {
				closes[open[n-1]] = j
				open = open[:n-1]
			}
		}
	}
	return closes
}

// strayClosers returns the index of the last closing bracket after
// s[end] and before the next opening one, or end: the brackets of a
// string inside the value that ends at end.
func strayClosers(s string, end int) int {
	for j := end + 1; j < len(s) && s[j] != '[' && s[j] != '{'; j++ {
		if s[j] == ']' || s[j] == '}' {
			end = j
		}
	}
	return end
}

// learn marks the tokens of toks that are pieces of the input (the words
// has finds, and the runs pieces found), and merges them with the values
// and marked tokens next to them.
func learn(toks []token, pieces []bool, in *inputs) []token {
	for i, tok := range toks {
		toks[i].derived = pieces != nil && pieces[i] || tok.kind == word && in.has(tok.text)
	}
	// Punctuation right next to a word of the input, which the input
	// holds next to it too, is the input's: "a=b", or "with a bang!"
	// printed with %s.
	together := func(a, b token) bool { return !b.space && in.holds(a.text+b.text) }
	for i, tok := range toks {
		if tok.kind == punct && (i > 0 && toks[i-1].derived && together(toks[i-1], tok) || i+1 < len(toks) && toks[i+1].derived && together(tok, toks[i+1])) {
			toks[i].derived = true
		}
	}
	out := make([]token, 0, len(toks))
	for _, tok := range toks {
		if n := len(out); n > 0 && variable(tok) && variable(out[n-1]) {
			// A run of values and input words is one value.
			last := &out[n-1]
			last.kind, last.text = value, ""
			if tok.derived {
				if last.words == nil {
					last.words = map[string]bool{}
				}
				last.words[tok.text] = true
			}
			continue
		}
		if tok.derived {
			tok.words = map[string]bool{tok.text: true}
		}
		if tok.derived {
			tok.kind = value // its text stays, to be shown
		}
		out = append(out, tok)
	}
	return out
}

// variable reports whether a learned token stands for a value: a value, or
// a piece of the input (whose text lists the words it held).
func variable(tok token) bool { return tok.kind == value || tok.derived }

// render spells learned tokens as a signature's Text: values as …, a word
// of the input that stands alone as the first message had it (so that a
// constant message that the input happens to hold reads as itself), white
// space as one space.
func render(toks []token) string {
	var b strings.Builder
	for _, tok := range toks {
		s := tok.text
		if tok.kind == value && s == "" {
			s = "…"
		}
		if tok.space {
			s = " " + s
		}
		if b.Len()+len(s) > maxText {
			break
		}
		b.WriteString(s)
	}
	return b.String()
}

// fits reports whether the tokens of a message fit a learned pattern: its
// constant words and punctuation in order, and in place of each of its
// values a run (maybe empty) of values, pieces of the input (runs that
// pieces found, words has finds, punctuation the input holds), and words
// the pattern's value held in the message it was learned from.
func fits(pat, toks []token, pieces []bool, in *inputs) bool {
	// ok[j]: the tokens toks[j:] fit pat[i:], for the i of the loop below,
	// filled from the end.
	next := make([]bool, len(toks)+1)
	cur := make([]bool, len(toks)+1)
	next[len(toks)] = true
	for i := len(pat) - 1; i >= 0; i-- {
		p := pat[i]
		clear(cur)
		if variable(p) {
			// cur[j] = next[j] || (toks[j] may stand in p && cur[j+1])
			for j := len(toks); j >= 0; j-- {
				cur[j] = next[j] || j < len(toks) && cur[j+1] && (pieces != nil && pieces[j] || standsIn(p, toks[j], in))
			}
		} else {
			for j := range toks {
				cur[j] = next[j+1] && toks[j].kind == p.kind && toks[j].text == p.text
			}
		}
		next, cur = cur, next
	}
	return next[0]
}

// standsIn reports whether tok may stand where the learned value p stood:
// a value, a word or punctuation p held, or a piece of the input.
func standsIn(p, tok token, in *inputs) bool {
	if tok.kind == value {
		return true
	}
	return p.words[tok.text] || in.has(tok.text)
}

// inputs are a failure's string and []byte arguments, as the messages of
// a failure may quote pieces of them.
type inputs struct {
	args  []any
	seen  map[string]bool // the words asked about, and the answers
	held  map[string]bool // the runs asked about, and the answers
	texts []string        // the inputs as text, then what those compressed inflate to
}

// maxDerive bounds the input searched for the pieces a message quotes.
const maxDerive = 1 << 20

func newInputs(args []any) inputs { return inputs{args: args} }

// has reports whether w is a piece of an input: bounded by the input's
// ends or by bytes that are not letters or digits, as it is, in lower or
// upper case or capitalized, or spelled in hex.
func (in *inputs) has(w string) bool {
	if w == "" || len(in.args) == 0 {
		return false
	}
	if has, ok := in.seen[w]; ok {
		return has
	}
	if in.seen == nil {
		in.seen = map[string]bool{}
	}
	has := in.search(w)
	in.seen[w] = has
	return has
}

// minPiece is the length of the shortest run of a message's tokens that is
// a piece of the input wherever the input holds it, word boundaries or
// not. A binary format stores a name with its length, and the next field's
// bytes, letters or not, follow it; the message prints the name whole,
// with the control bytes it holds. Shorter runs match too often by chance.
const minPiece = 4

// pieces reports which tokens of a message are in runs of tokens with no
// white space or value between them, of at least minPiece bytes, that the
// input holds as it is: pieces of the input, as the words has finds are.
// A run is taken as long as it goes, from the left. It returns nil if there
// is no input.
func (in *inputs) pieces(toks []token) []bool {
	if len(in.args) == 0 {
		return nil
	}
	pieces := make([]bool, len(toks))
	var b strings.Builder
	for start := 0; start < len(toks); {
		if toks[start].kind == value {
			start++
			continue
		}
		end := start + 1 // of the run from start
		for end < len(toks) && toks[end].kind != value && !toks[end].space {
			end++
		}
		left := 0 // bytes in toks[i:end], for the i below
		for _, t := range toks[start:end] {
			left += len(t.text)
		}
		for i := start; i < end && left >= minPiece; {
			if !in.holds(toks[i].text) {
				left -= len(toks[i].text)
				i++
				continue
			}
			// The longest run from i that the input holds: if it holds a
			// run, it holds every shorter one from i too.
			lo, hi := i+1, end // it holds toks[i:lo], and none longer than toks[i:hi]
			for lo < hi {
				mid := (lo + hi + 1) / 2
				b.Reset()
				for _, t := range toks[i:mid] {
					b.WriteString(t.text)
				}
				if in.holds(b.String()) {
					lo = mid
				} else {
					hi = mid - 1
				}
			}
			n := 0
			for _, t := range toks[i:lo] {
				n += len(t.text)
			}
			if n < minPiece {
				left -= len(toks[i].text)
				i++
				continue
			}
			for j := i; j < lo; j++ {
				pieces[j] = true
			}
			left -= n
			i = lo
		}
		start = end
	}
	return pieces
}

// masked returns msg, as far as MaxMessage bytes, with each input of
// several lines that it prints whole replaced by '…', a value: the
// brackets that open and close a document printed with %s stand alone at
// the ends of their lines, where no other rule finds them the input's.
// The input's lines after the first may stand further indented, as
// testify's columns print a message, and it stands between word
// boundaries, as containsWord says. An input of one line keeps to those
// rules, which let a word of it stand as the message's own word too.
func (in *inputs) masked(msg string) string {
	msg = msg[:min(len(msg), MaxMessage)]
	for _, t := range in.text() {
		doc := strings.TrimSpace(t)
		if len(doc) > len(msg) || !strings.Contains(doc, "\n") {
			continue
		}
		lines := strings.Split(doc, "\n")
		var b strings.Builder
		off := 0 // of msg not yet written to b
		for k := wordIndex(msg, lines[0], 0); k >= 0; k = wordIndex(msg, lines[0], k+1) {
			if k < off {
				continue
			}
			end := printedAt(msg, k, lines)
			if end < 0 {
				continue
			}
			if strings.HasSuffix(t, "\n") && strings.HasPrefix(msg[end:], "\n") {
				end++ // printed with its last newline
			}
			b.WriteString(msg[off:k])
			b.WriteString("…")
			off = end
		}
		if off > 0 {
			b.WriteString(msg[off:])
			msg = b.String()
		}
	}
	return msg
}

// printedAt returns where lines, the lines of a document, end in msg if
// msg prints them from i on, each after the first maybe further indented,
// and ends them at a word boundary; or -1.
func printedAt(msg string, i int, lines []string) int {
	j := i + len(lines[0])
	for _, l := range lines[1:] {
		if !strings.HasPrefix(msg[j:], "\n") {
			return -1
		}
		j++
		for j < len(msg) && !strings.HasPrefix(msg[j:], l) && (msg[j] == ' ' || msg[j] == '\t') {
			j++
		}
		if !strings.HasPrefix(msg[j:], l) {
			return -1
		}
		j += len(l)
	}
	last := lines[len(lines)-1]
	before, _ := utf8.DecodeLastRuneInString(last)
	after, _ := utf8.DecodeRuneInString(msg[j:])
	if j < len(msg) && isWordRune(before) && isWordRune(after) {
		return -1
	}
	return j
}

// holds reports whether an input holds s as it is.
func (in *inputs) holds(s string) bool {
	if s == "" {
		return true
	}
	if held, ok := in.held[s]; ok {
		return held
	}
	if in.held == nil {
		in.held = map[string]bool{}
	}
	held := false
	for _, t := range in.text() {
		if strings.Contains(t[:min(len(t), maxDerive)], s) {
			held = true
			break
		}
	}
	in.held[s] = held
	return held
}

// search looks for w in the inputs, as has says.
func (in *inputs) search(w string) bool {
	lower := strings.ToLower(w)
	forms := []string{w, lower, strings.ToUpper(w)}
	if r, size := utf8.DecodeRuneInString(lower); size > 0 {
		forms = append(forms, string(unicode.ToUpper(r))+lower[size:])
	}
	var raw string // w read as hex
	if len(w)%2 == 0 {
		if h, err := hex.DecodeString(w); err == nil {
			raw = string(h)
		}
	}
	for _, s := range in.text() {
		s = s[:min(len(s), maxDerive)]
		if raw != "" && strings.Contains(s, raw) {
			return true
		}
		for i, f := range forms {
			if (i == 0 || f != forms[i-1]) && containsWord(s, f) {
				return true
			}
		}
	}
	return false
}

// text returns the inputs as text, and after them what those that are
// compressed inflate to: a test that decompresses its input prints pieces
// of the content, not of the bytes it was given; then the strings with
// escapes that all of those hold, decoded (see [unquoted]), and their %XX
// escapes decoded (see [percentDecoded]).
func (in *inputs) text() []string {
	if in.texts != nil {
		return in.texts
	}
	for _, a := range in.args {
		switch x := a.(type) {
		case string:
			in.texts = append(in.texts, x)
		case []byte:
			in.texts = append(in.texts, unsafe.String(unsafe.SliceData(x), len(x))) // only read
		}
	}
	for _, t := range in.texts[:len(in.texts):len(in.texts)] {
		if c, ok := inflate(t); ok {
			in.texts = append(in.texts, c)
		}
	}
	for _, t := range in.texts[:len(in.texts):len(in.texts)] {
		if u, ok := unquoted(t); ok {
			in.texts = append(in.texts, u)
		}
		if u, ok := percentDecoded(t); ok {
			in.texts = append(in.texts, u)
		}
	}
	return in.texts
}

// percentDecoded returns s, as far as maxDerive bytes, with the %XX
// escapes of URLs and forms decoded, if it has one: net/url hands a test
// the path and the query decoded.
func percentDecoded(s string) (string, bool) {
	s = s[:min(len(s), maxDerive)]
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return "", false
	}
	b := []byte(s[:i])
	decoded := false
	for ; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if c, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(c))
				i += 2
				decoded = true
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b), decoded
}

// unquoted returns the strings in double quotes that s holds with escapes
// (as JSON and Go write them), unquoted, one after the other with NULs
// between, as far as maxDerive bytes of s: a test prints the strings it
// decoded, not their escapes.
func unquoted(s string) (string, bool) {
	s = s[:min(len(s), maxDerive)]
	if !strings.Contains(s, `\`) {
		return "", false
	}
	var b strings.Builder
	for i := strings.IndexByte(s, '"'); i >= 0 && i < len(s); {
		end := closingQuote(s, i)
		if end < 0 {
			break
		}
		if q := s[i : end+1]; strings.Contains(q, `\`) {
			// JSON's \/ is no Go escape; JSON has no other that Go lacks.
			if u, err := strconv.Unquote(strings.ReplaceAll(q, `\/`, "/")); err == nil {
				b.WriteString(u)
				b.WriteByte(0)
			}
		}
		next := strings.IndexByte(s[end+1:], '"')
		if next < 0 {
			break
		}
		i = end + 1 + next
	}
	return b.String(), b.Len() > 0
}

// inflate returns what s inflates to if it starts a compressed stream or
// a zip archive (formats.Decompress), at most maxDerive bytes.
func inflate(s string) (string, bool) {
	b, ok := formats.Decompress([]byte(s), maxDerive)
	return string(b), ok
}

// containsWord reports whether w stands in s between word boundaries.
func containsWord(s, w string) bool { return wordIndex(s, w, 0) >= 0 }

// wordIndex returns the offset of the first occurrence of w in s at or
// after off that is bounded as containsWord says, or -1.
func wordIndex(s, w string, off int) int {
	for {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[end:])
		if (i == 0 || !isWordRune(before) || !isWordRune(rune(w[0]))) &&
			(end == len(s) || !isWordRune(after) || !isWordRune(rune(w[len(w)-1]))) {
			return i
		}
		off = i + 1
	}
}
