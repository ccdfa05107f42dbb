package encoding

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// A SyntaxError reports a corpus file, or one line of it, that the toolchain
// would reject.
type SyntaxError struct {
	Line int    // 1-based line number
	Msg  string // what is wrong, quoting the offending text
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unmarshal decodes a corpus file into values of the native fuzz types. It
// accepts exactly what the toolchain accepts: a version line (a trailing
// carriage return allowed) and one value per line, with blank lines, white
// space and Go comments around the values. A file with a version line and
// no values decodes to no values, as in the toolchain; the arity check
// against a fuzz target belongs to the caller. Errors are *SyntaxError.
func Unmarshal(data []byte) ([]any, error) {
	if len(data) == 0 {
		return nil, &SyntaxError{1, "empty file, want a " + strconv.Quote(Version) + " line and values"}
	}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, &SyntaxError{1, "want a " + strconv.Quote(Version) + " line and values, found one line"}
	}
	if v := bytes.TrimSuffix(data[:nl], []byte("\r")); string(v) != Version {
		return nil, &SyntaxError{1, fmt.Sprintf("unknown encoding version %s, want %q", quoteShort(v), Version)}
	}
	var vals []any
	for n, rest := 2, data[nl+1:]; ; n++ {
		line, tail, more := bytes.Cut(rest, []byte("\n"))
		// The toolchain trims Unicode white space, so a \r before the \n
		// goes too.
		if line = bytes.TrimSpace(line); len(line) > 0 {
			v, err := parseValue(line)
			if err != nil {
				return nil, &SyntaxError{n, fmt.Sprintf("%s: %v", quoteShort(line), err)}
			}
			vals = append(vals, v)
		}
		if !more {
			return vals, nil
		}
		rest = tail
	}
}

// quoteShort quotes b for an error message, eliding the middle of a long line.
func quoteShort(b []byte) string {
	const max = 64
	if len(b) <= max {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:max/2])) + "…" + strconv.Quote(string(b[len(b)-max/2:]))
}

var bom = []byte("\uFEFF")

// parseValue parses one trimmed, non-empty line.
//
// The toolchain hands the line to go/parser.ParseExprFrom and then inspects
// the expression. Together they admit this grammar, where white space and
// comments may stand between any two tokens:
//
//	line    = [ BOM ] conv .
//	conv    = type "(" arg [ "..." ] [ "," ] ")" .
//	type    = identifier | "[" "]" "byte" | "math" "." identifier .
//	arg     = literal | identifier | unaryOp ( literal | identifier ) .
//	unaryOp = "+" | "-" | "!" | "^" | "&" | "~" | "<-" .
//
// Which combinations of type and arg are values is decided by convert, as the
// toolchain decides it. Anything go/scanner reports an error for anywhere in
// the line, even inside a comment (invalid UTF-8, NUL, a byte order mark after
// the start), makes the line invalid.
func parseValue(line []byte) (any, error) {
	if !utf8.Valid(line) {
		return nil, errors.New("invalid UTF-8")
	}
	if bytes.IndexByte(line, 0) >= 0 {
		return nil, errors.New("illegal character NUL")
	}
	line = bytes.TrimPrefix(line, bom)
	if bytes.Contains(line, bom) {
		return nil, errors.New("illegal byte order mark")
	}

	s := scanner{src: line}
	var typ string
	switch t := s.next(); {
	case t.kind == tokIdent && t.text == "math":
		if s.next().text != "." {
			return nil, errors.New("invalid selector, want math.Float64frombits or math.Float32frombits")
		}
		switch sel := s.next(); sel.text {
		case "Float64frombits", "Float32frombits":
			typ = "math." + sel.text
		default:
			return nil, errors.New("invalid selector, want math.Float64frombits or math.Float32frombits")
		}
	case t.kind == tokIdent:
		typ = t.text
	case t.text == "[":
		if s.next().text != "]" {
			return nil, errors.New("expected []byte or primitive type")
		}
		if t := s.next(); t.kind != tokIdent || t.text != "byte" {
			return nil, errors.New("expected []byte")
		}
		typ = "[]byte"
	default:
		return nil, t.errOr("expected []byte or primitive type")
	}
	if t := s.next(); t.text != "(" {
		return nil, t.errOr("expected call expression")
	}

	var a arg
	t := s.next()
	if t.kind == tokPunct && isUnaryOp(t.text) {
		a.op = t.text
		t = s.next()
	}
	if t.kind < tokIdent {
		return nil, t.errOr("literal value required")
	}
	a.tok = t

	t = s.next()
	if t.text == "..." {
		t = s.next()
	}
	if t.text == "," {
		t = s.next()
	}
	if t.text != ")" {
		return nil, t.errOr("expected call expression with 1 argument")
	}
	if t := s.next(); t.kind != tokEOF {
		return nil, t.errOr("unexpected text after value")
	}
	return convert(typ, a)
}

func isUnaryOp(op string) bool {
	switch op {
	case "+", "-", "!", "^", "&", "~", "<-":
		return true
	}
	return false
}

// arg is the argument of a conversion: a literal or identifier, possibly
// under a unary operator.
type arg struct {
	op  string // unary operator, or ""
	tok token
}

// convert decides, as the toolchain does, whether arg is a value of type typ.
func convert(typ string, a arg) (any, error) {
	switch typ {
	case "[]byte":
		if a.op != "" || a.tok.kind != tokString {
			return nil, errors.New("string literal required for type []byte")
		}
		s, err := strconv.Unquote(a.tok.text)
		if err != nil {
			return nil, errors.New("invalid string literal")
		}
		return []byte(s), nil
	case "bool":
		if a.op != "" || a.tok.kind != tokIdent {
			return nil, errors.New("malformed bool")
		}
		switch a.tok.text {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, errors.New("true or false required for type bool")
	}

	// The value as the toolchain sees it: a literal's source text, a minus
	// sign glued to it, or one of NaN, +Inf and -Inf. Any operator other
	// than "-" before Inf makes +Inf.
	kind, val := a.tok.kind, a.tok.text
	switch {
	case a.tok.kind == tokIdent && a.op == "" && val == "NaN":
		kind = tokFloat
	case a.tok.kind == tokIdent && a.op != "" && val == "Inf":
		kind, val = tokFloat, "+Inf"
		if a.op == "-" {
			val = "-Inf"
		}
	case a.tok.kind == tokIdent:
		return nil, errors.New("literal value required for primitive type")
	case a.op == "-":
		val = "-" + val
	case a.op != "":
		return nil, fmt.Errorf("unsupported operation on int/float: %s", a.op)
	}

	switch typ {
	case "string":
		if kind != tokString {
			return nil, errors.New("string literal value required for type string")
		}
		s, err := strconv.Unquote(val)
		if err != nil {
			return nil, errors.New("invalid string literal")
		}
		return s, nil
	case "byte", "rune":
		if kind == tokInt {
			return parseInt(val, typ)
		}
		if kind != tokChar {
			return nil, errors.New("character literal required for byte/rune types")
		}
		// The scanner admits exactly one character between the quotes.
		r, _, tail, err := strconv.UnquoteChar(val[1:len(val)-1], '\'')
		if err != nil || tail != "" {
			return nil, errors.New("invalid character literal")
		}
		if typ == "rune" {
			return r, nil
		}
		if r >= 256 {
			return nil, errors.New("can only encode single byte to a byte type")
		}
		return byte(r), nil
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		if kind != tokInt {
			return nil, fmt.Errorf("integer literal required for type %s", typ)
		}
		return parseInt(val, typ)
	case "float32", "float64":
		if kind != tokFloat && kind != tokInt {
			return nil, fmt.Errorf("float or integer literal required for type %s", typ)
		}
		if typ == "float32" {
			f, err := strconv.ParseFloat(val, 32)
			if err != nil {
				return nil, err
			}
			return float32(f), nil
		}
		return strconv.ParseFloat(val, 64)
	case "math.Float32frombits":
		if kind != tokInt {
			return nil, errors.New("integer literal required for math.Float32frombits")
		}
		bits, err := strconv.ParseUint(val, 0, 32)
		if err != nil {
			return nil, err
		}
		return math.Float32frombits(uint32(bits)), nil
	case "math.Float64frombits":
		// The toolchain lets a float literal through to ParseUint, which
		// rejects it.
		if kind != tokInt && kind != tokFloat {
			return nil, errors.New("integer literal required for math.Float64frombits")
		}
		bits, err := strconv.ParseUint(val, 0, 64)
		if err != nil {
			return nil, err
		}
		return math.Float64frombits(bits), nil
	}
	return nil, fmt.Errorf("expected []byte or primitive type, found %s", typ)
}

// parseInt parses an integer literal (any base, digit separators) as a value
// of typ. An int is parsed at 64 bits on every platform: the toolchain wraps
// 64-bit values written on one platform into a 32-bit int on another.
func parseInt(val, typ string) (any, error) {
	var (
		bits int
		u    uint64
		i    int64
		err  error
	)
	switch typ {
	case "int8", "uint8", "byte":
		bits = 8
	case "int16", "uint16":
		bits = 16
	case "int32", "rune", "uint32":
		bits = 32
	default:
		bits = 64
	}
	switch typ {
	case "uint", "uint8", "byte", "uint16", "uint32", "uint64":
		u, err = strconv.ParseUint(val, 0, bits)
	default:
		i, err = strconv.ParseInt(val, 0, bits)
	}
	if err != nil {
		return nil, err
	}
	switch typ {
	case "int":
		return int(i), nil
	case "int8":
		return int8(i), nil
	case "int16":
		return int16(i), nil
	case "int32", "rune":
		return int32(i), nil
	case "int64":
		return i, nil
	case "uint":
		return uint(u), nil
	case "uint8", "byte":
		return uint8(u), nil
	case "uint16":
		return uint16(u), nil
	case "uint32":
		return uint32(u), nil
	default:
		return u, nil
	}
}

type tokKind int

const (
	tokEOF   tokKind = iota
	tokErr           // text is the scanner's error message
	tokPunct         // operators and delimiters, and any other character
	tokIdent         // from here on: operands
	tokInt
	tokFloat
	tokImag
	tokChar
	tokString
)

type token struct {
	kind tokKind
	text string // source text; a raw string literal has its carriage returns removed, as go/scanner does
}

// errOr returns the scanner's error if t is one, else msg.
func (t token) errOr(msg string) error {
	if t.kind == tokErr {
		return errors.New(t.text)
	}
	return errors.New(msg)
}

// scanner splits a line into Go tokens, as go/scanner does for the tokens
// that can occur in a valid line; any other token ends the line's parse, so it
// only needs to be told apart, not classified.
type scanner struct {
	src []byte
	pos int
}

func (s *scanner) next() token {
	if err := s.skipSpace(); err != "" {
		return token{tokErr, err}
	}
	if s.pos >= len(s.src) {
		return token{kind: tokEOF}
	}
	start := s.pos
	c := s.src[s.pos]
	switch {
	case isDecimal(c) || c == '.' && s.pos+1 < len(s.src) && isDecimal(s.src[s.pos+1]):
		return s.number()
	case c == '"' || c == '\'':
		return s.quoted(c)
	case c == '`':
		end := bytes.IndexByte(s.src[start+1:], '`')
		if end < 0 {
			s.pos = len(s.src)
			return token{tokErr, "raw string literal not terminated"}
		}
		s.pos = start + 1 + end + 1
		lit := s.src[start:s.pos]
		if bytes.IndexByte(lit, '\r') >= 0 {
			lit = bytes.ReplaceAll(lit, []byte("\r"), nil)
		}
		return token{tokString, string(lit)}
	case c == '.' && bytes.HasPrefix(s.src[s.pos:], []byte("...")):
		s.pos += 3
		return token{tokPunct, "..."}
	case c == '<' && bytes.HasPrefix(s.src[s.pos:], []byte("<-")):
		s.pos += 2
		return token{tokPunct, "<-"}
	case c < utf8.RuneSelf && !isLetter(rune(c)):
		// One character, even where Go has a longer operator ("--", "-="):
		// no valid line has either a second operator or a longer one.
		s.pos++
		return token{tokPunct, string(c)}
	}
	r, w := utf8.DecodeRune(s.src[s.pos:])
	if !isLetter(r) {
		s.pos += w
		return token{tokPunct, string(r)}
	}
	for s.pos < len(s.src) {
		r, w := utf8.DecodeRune(s.src[s.pos:])
		if !isLetter(r) && !unicode.IsDigit(r) {
			break
		}
		s.pos += w
	}
	return token{tokIdent, string(s.src[start:s.pos])}
}

// skipSpace skips white space and comments, returning an error message for
// an unterminated comment.
func (s *scanner) skipSpace() string {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			s.pos++
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/':
			s.pos = len(s.src)
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			end := bytes.Index(s.src[s.pos+2:], []byte("*/"))
			if end < 0 {
				s.pos = len(s.src)
				return "comment not terminated"
			}
			s.pos += 2 + end + 2
		default:
			return ""
		}
	}
	return ""
}

// quoted scans an interpreted string or rune literal. Escapes are only
// stepped over here: strconv validates them when the value is decoded, as
// strictly as go/scanner does.
func (s *scanner) quoted(q byte) token {
	start := s.pos
	for i := start + 1; i < len(s.src); i++ {
		switch s.src[i] {
		case '\\':
			i++
		case q:
			s.pos = i + 1
			kind := tokString
			if q == '\'' {
				kind = tokChar
			}
			return token{kind, string(s.src[start:s.pos])}
		}
	}
	s.pos = len(s.src)
	return token{tokErr, "literal not terminated"}
}

// number scans a number literal and checks it as go/scanner does: base
// prefixes, legacy octal, digit separators, fractions and exponents, and the
// imaginary suffix.
func (s *scanner) number() token {
	start := s.pos
	kind := tokInt
	base, prefix := 10, byte(0)
	digits := false // saw a mantissa digit
	badDigit := false
	scanDigits := func(base int) {
		for ; s.pos < len(s.src); s.pos++ {
			c := s.src[s.pos]
			switch {
			case c == '_':
			case isDecimal(c):
				digits = true
				badDigit = badDigit || int(c-'0') >= base
			case base == 16 && isHex(c):
				digits = true
			default:
				return
			}
		}
	}
	peek := func() byte {
		if s.pos < len(s.src) {
			return s.src[s.pos]
		}
		return 0
	}

	if peek() != '.' {
		if peek() == '0' {
			s.pos++
			switch lower(peek()) {
			case 'x':
				base, prefix = 16, 'x'
				s.pos++
			case 'o':
				base, prefix = 8, 'o'
				s.pos++
			case 'b':
				base, prefix = 2, 'b'
				s.pos++
			default:
				base, prefix, digits = 8, '0', true
			}
		}
		scanDigits(base)
	}
	var err string
	fail := func(msg string) {
		if err == "" {
			err = msg
		}
	}
	if peek() == '.' {
		kind = tokFloat
		if prefix == 'o' || prefix == 'b' {
			fail("invalid radix point in number literal")
		}
		s.pos++
		scanDigits(base)
	}
	if !digits {
		fail("number literal has no digits")
	}
	if e := lower(peek()); e == 'e' || e == 'p' {
		if e == 'e' && prefix != 0 && prefix != '0' || e == 'p' && prefix != 'x' {
			fail(fmt.Sprintf("%q exponent does not match the mantissa", e))
		}
		s.pos++
		kind = tokFloat
		if c := peek(); c == '+' || c == '-' {
			s.pos++
		}
		digits = false
		scanDigits(10)
		if !digits {
			fail("exponent has no digits")
		}
	} else if prefix == 'x' && kind == tokFloat {
		fail("hexadecimal mantissa requires a 'p' exponent")
	}
	if peek() == 'i' {
		kind = tokImag
		s.pos++
	}
	lit := s.src[start:s.pos]
	if kind == tokInt && badDigit {
		fail("invalid digit in number literal")
	}
	if !separatorsOK(lit) {
		fail("'_' must separate successive digits")
	}
	if err != "" {
		return token{tokErr, err}
	}
	return token{kind, string(lit)}
}

// separatorsOK reports whether every '_' in a number literal stands between
// two digits, a base prefix counting as a digit.
func separatorsOK(lit []byte) bool {
	hex := len(lit) >= 2 && lit[0] == '0' && lower(lit[1]) == 'x'
	isDigit := func(i int) bool {
		if i < 0 || i >= len(lit) {
			return false
		}
		c := lit[i]
		if i == 1 && lit[0] == '0' {
			if l := lower(c); l == 'x' || l == 'o' || l == 'b' {
				return true
			}
		}
		return isDecimal(c) || hex && isHex(c)
	}
	for i, c := range lit {
		if c == '_' && (!isDigit(i-1) || !isDigit(i+1)) {
			return false
		}
	}
	return true
}

func lower(c byte) byte     { return c | 0x20 }
func isDecimal(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool     { return isDecimal(c) || 'a' <= lower(c) && lower(c) <= 'f' }
func isLetter(r rune) bool {
	return 'a' <= r|0x20 && r|0x20 <= 'z' || r == '_' || r >= utf8.RuneSelf && unicode.IsLetter(r)
}
