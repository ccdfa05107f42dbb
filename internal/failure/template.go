package failure

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The identity of a failure message is the format that made it. The
// program holds the constant text of its messages, as format strings and
// literals in its source (source.go reads them): a message is a template
// with values put in. The rule, as docs/how-it-works.md tells users:
//
//   - A template is literal text and slots, one slot for each verb of a
//     format (%v, %q, %5.2f …) and for each operand that is not a
//     constant (t.Fatal("bad:", x), "invalid " + what). A slot matches any
//     text; literal text matches only itself, digits included.
//   - A message is first matched to the templates of the call at its
//     position (the t.Fatalf line, the panic); where none there matches,
//     to every template of the program that holds a word.
//   - A slot that holds an error (%w, or an operand named err, or an
//     Error() call) is matched again: "parse %q: %w" around "invalid
//     escape \%c in %q" is a chain of two templates.
//   - A %q slot ends where its quotes do; a message in testify's layout
//     is matched field by field (labeled).
//   - Where several templates match, the one with the most literal text,
//     its chain's included, wins; a template with no literal text
//     explains nothing.
//   - The identity text is the template, with each error slot replaced by
//     the template that explains it. Values never reach it.
//
// Text that no template explains is shaped by the masking rule of
// shape.go, which shows values as …: an error slot's inside its chain,
// a whole message by the Shaper.

// A slot kind: a value, or an error whose text may be matched again.
const (
	litPiece  = 0
	valueSlot = 'v'
	errSlot   = 'w'
)

// A piece of a template: literal text, or a slot.
type piece struct {
	lit  string
	slot byte // litPiece, valueSlot or errSlot
	verb string
}

// A template is one message format, parsed.
type template struct {
	text   string // as the identity shows it: the format, error slots as %w
	pieces []piece
	lits   int  // bytes of literal text
	errs   bool // it has an error slot
}

// parseTemplate parses the text of a template: a format, verbs with their
// flags, widths and argument indexes, %% a literal percent sign, and %w an
// error slot. Its identity text has white space folded, as a report's
// line shows it.
func parseTemplate(text string) template {
	t := template{text: fold(text)}
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.pieces = append(t.pieces, piece{lit: lit.String()})
			t.lits += lit.Len()
			lit.Reset()
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c != '%' {
			lit.WriteByte(c)
			i++
			continue
		}
		n, verb := verbAt(text, i)
		if verb == '%' {
			lit.WriteByte('%')
			i += n
			continue
		}
		flush()
		kind := byte(valueSlot)
		if verb == 'w' {
			kind = errSlot
			t.errs = true
		}
		if k := len(t.pieces); k > 0 && t.pieces[k-1].slot != litPiece {
			// Two slots side by side match as one.
			if kind == errSlot {
				t.pieces[k-1].slot = errSlot
			}
			t.pieces[k-1].verb += text[i : i+n]
		} else {
			t.pieces = append(t.pieces, piece{slot: kind, verb: text[i : i+n]})
		}
		i += n
	}
	flush()
	return t
}

// verbAt returns the length of the verb that starts at format[i], a '%',
// as fmt reads it (flags, an argument index, a width, a precision), and
// the verb's character; a format that ends inside a verb ends there.
func verbAt(format string, i int) (n int, verb rune) {
	j := i + 1
	for j < len(format) && strings.IndexByte("+-# 0", format[j]) >= 0 {
		j++
	}
	skip := func() {
		for j < len(format) {
			switch c := format[j]; {
			case c >= '0' && c <= '9' || c == '*' || c == '.':
				j++
			case c == '[':
				if k := strings.IndexByte(format[j:], ']'); k > 0 {
					j += k + 1
				} else {
					return
				}
			default:
				return
			}
		}
	}
	skip()
	if j >= len(format) {
		return j - i, 'v'
	}
	r, size := utf8.DecodeRuneInString(format[j:])
	return j + size - i, r
}

// A Templates is the set of message templates of a program: those of the
// calls at each position in its source, and all of them, indexed by their
// words. It is safe for concurrent use; its zero value holds none.
type Templates struct {
	sites  map[string][]string    // as given
	site   map[string][]*template // by "file.go:line", as failures name positions
	byWord map[string][]*template // every template with a word, by its longest word
	loose  []*template            // those whose every word may run on into a slot's text
	all    map[string]*template   // by text

	mu    sync.Mutex
	cache map[string]judged // of whole messages and error slots' texts, by text
}

// judged is how well the templates explain a text: the text of the
// identity, and how many bytes of literal text the chain matched.
type judged struct {
	text  string
	score int
}

// NewTemplates returns the set of templates that sites gives, by
// position ("file.go:line", the base name of the file).
func NewTemplates(sites map[string][]string) *Templates {
	ts := &Templates{sites: sites, site: map[string][]*template{}, byWord: map[string][]*template{}, all: map[string]*template{}, cache: map[string]judged{}}
	keys := make([]string, 0, len(sites))
	for k := range sites {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the index lists templates in one order, run after run
	for _, pos := range keys {
		for _, text := range sites[pos] {
			t := ts.all[text]
			if t == nil {
				p := parseTemplate(text)
				t = &p
				ts.all[text] = t
				switch w, ok := longestWord(t); {
				case w != "":
					ts.byWord[w] = append(ts.byWord[w], t)
				case ok:
					ts.loose = append(ts.loose, t)
				}
			}
			if pos != "" && !slices.Contains(ts.site[pos], t) {
				ts.site[pos] = append(ts.site[pos], t)
			}
		}
	}
	return ts
}

// Sites returns the templates by position, as NewTemplates was given
// them: what a test process needs to judge as the command does.
func (ts *Templates) Sites() map[string][]string {
	if ts == nil {
		return nil
	}
	return ts.sites
}

// Len returns the number of distinct templates.
func (ts *Templates) Len() int {
	if ts == nil {
		return 0
	}
	return len(ts.all)
}

// longestWord returns the longest word of t's literal text, a run of two
// or more letters or digits, that a message made by t holds as a word of
// its own, and whether t has a word at all: a template without one
// explains nothing away from its own call. A word right next to a slot
// may run on into the slot's text ("%vfoo"): it is the index only if no
// other word is.
func longestWord(t *template) (string, bool) {
	best, any := "", false
	for k, p := range t.pieces {
		for _, w := range words(p.lit) {
			any = true
			i := strings.Index(p.lit, w)
			touches := k > 0 && i == 0 || k < len(t.pieces)-1 && i+len(w) == len(p.lit)
			if !touches && len(w) > len(best) {
				best = w
			}
		}
	}
	return best, any
}

// words returns the runs of two or more letters or digits of s that hold
// a letter: a number (00, 404) says nothing of the format it is in.
func words(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexFunc(s, isAlnum)
		if i < 0 {
			break
		}
		s = s[i:]
		j := strings.IndexFunc(s, func(r rune) bool { return !isAlnum(r) })
		if j < 0 {
			j = len(s)
		}
		if j >= 2 && strings.IndexFunc(s[:j], unicode.IsLetter) >= 0 {
			out = append(out, s[:j])
		}
		s = s[j:]
	}
	return out
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// Match returns the identity text of msg, the message of a failure at pos
// ("file.go:line", or "" where the failure has no position), and whether a
// template explains it: the best template of the call at pos, or, where
// none matches there, of all those of the program. The text of an error
// slot that no template explains is put in as mask returns it (nil: as
// the slot's verb).
func (ts *Templates) Match(pos, msg string, mask func(string) string) (string, bool) {
	if ts == nil || len(ts.all) == 0 {
		return "", false
	}
	// The whole message is matched, however long a value in it: the
	// format's text may end it.
	m := matcher{ts: ts, mask: mask}
	if fields, ok := labeledFields(msg); ok {
		return m.labeled(pos, fields)
	}
	if site := ts.site[pos]; len(site) > 0 {
		if j := m.best(site, msg, 0); j.score > 0 {
			return j.text, true
		}
		if onlyValues(site) {
			// The call prints a value, t.Fatal(x): no template of the
			// program made its text.
			return "", false
		}
	}
	j := m.global(msg, 0)
	return j.text, j.score > 0
}

// A labeled field of a message in testify's layout: each field a label, a
// colon, a tab and its content, whose later lines are indented by a tab,
// spaces and a tab (testify's labeledOutput).
type labeledField struct{ label, content string }

// labeledFields splits a message in testify's layout into its fields, if
// it is one: it starts with an Error Trace and has an Error.
func labeledFields(msg string) ([]labeledField, bool) {
	if !strings.HasPrefix(strings.TrimLeft(msg, "\n"), "\tError Trace:") {
		return nil, false
	}
	var fields []labeledField
	for _, line := range strings.Split(strings.TrimLeft(msg, "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "\t")
		if !ok {
			return nil, false
		}
		head, content, ok := strings.Cut(rest, "\t")
		if !ok {
			return nil, false
		}
		label := strings.TrimRight(head, " ")
		switch {
		case label == "" && len(fields) > 0: // a later line of the field
			fields[len(fields)-1].content += "\n" + content
		case strings.HasSuffix(label, ":") && !strings.Contains(label, "\t"):
			fields = append(fields, labeledField{strings.TrimSuffix(label, ":"), content})
		default:
			return nil, false
		}
	}
	ok := slices.ContainsFunc(fields, func(f labeledField) bool { return f.label == "Error" })
	return fields, ok
}

// labeled matches the fields of a message in testify's layout: the
// identity is the templates of its Error (testify's own formats, such as
// "Not equal: …") and of its Messages (the assertion's message arguments,
// a template at its call), in order; the Error Trace and the Test are the
// position and the test's name, which the signature has or must not hold.
// A field no template explains is masked.
func (m *matcher) labeled(pos string, fields []labeledField) (string, bool) {
	var b strings.Builder
	for _, f := range fields {
		if f.label == "Error Trace" || f.label == "Test" {
			continue
		}
		j := judged{}
		if f.label == "Messages" {
			j = m.best(m.ts.site[pos], f.content, 0)
		}
		if j.score == 0 {
			j = m.global(f.content, 0)
		}
		switch {
		case j.score > 0:
		case f.label == "Error" || m.mask == nil:
			return "", false // the assertion is not known: mask it whole
		default:
			m.masked = true
			j.text = fold(m.mask(f.content))
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(f.label + ": " + j.text)
	}
	return b.String(), true
}

// onlyValues reports whether every template of a call is value slots
// alone: it explains nothing, and its text is not an error's.
func onlyValues(site []*template) bool {
	for _, t := range site {
		if t.lits > 0 || slices.ContainsFunc(t.pieces, func(p piece) bool { return p.slot == errSlot }) {
			return false
		}
	}
	return true
}

// A matcher matches one message against the templates.
type matcher struct {
	ts     *Templates
	mask   func(string) string
	tries  int  // match attempts so far: a bound on the work for one message
	masked bool // a text was masked: the result depends on the input
}

const (
	maxDepth = 4    // of a chain of errors
	maxTries = 4096 // match attempts for one message
	maxSplit = 64   // ways to place one literal piece in a text
)

// global returns the best template of all for s, an error's text (or a
// message no template of its call explains): only templates with a word
// that s holds can match it.
func (m *matcher) global(s string, depth int) judged {
	if depth > maxDepth || s == "" {
		return judged{}
	}
	m.ts.mu.Lock()
	j, ok := m.ts.cache[s]
	m.ts.mu.Unlock()
	if ok {
		return j
	}
	cands := slices.Clip(m.ts.loose)
	seen := map[string]bool{}
	head := s
	if len(head) > MaxMessage { // the words that find the candidates: a format's start
		head = head[:MaxMessage]
	}
	for _, w := range words(head) {
		if seen[w] {
			continue
		}
		seen[w] = true
		cands = append(cands, m.ts.byWord[w]...)
	}
	masked := m.masked
	m.masked = false
	j = m.best(cands, s, depth)
	if m.tries < maxTries && !m.masked { // a result cut short is not the answer
		m.ts.mu.Lock()
		if len(m.ts.cache) > 1<<14 {
			clear(m.ts.cache)
		}
		m.ts.cache[s] = j
		m.ts.mu.Unlock()
	}
	m.masked = m.masked || masked
	return j
}

// best returns the best match among cands for s. Ties go to the template
// that sorts first, so that the answer does not depend on the order of
// the candidates.
func (m *matcher) best(cands []*template, s string, depth int) judged {
	var best judged
	for _, t := range cands {
		if t.lits > len(s) {
			continue
		}
		j, ok := m.match(t, s, depth)
		if ok && (j.score > best.score || j.score == best.score && j.score > 0 && j.text < best.text) {
			best = j
		}
	}
	return best
}

// match matches t against the whole of s and returns its best rendering.
func (m *matcher) match(t *template, s string, depth int) (judged, bool) {
	var best judged
	found := false
	slots := make([]string, 0, len(t.pieces))
	var walk func(k int, rest string)
	walk = func(k int, rest string) {
		if m.tries >= maxTries {
			return
		}
		m.tries++
		if k == len(t.pieces) {
			if rest == "" {
				j := m.render(t, slots, depth)
				if !found || j.score > best.score {
					best, found = j, true
				}
			}
			return
		}
		p := t.pieces[k]
		if p.slot == litPiece {
			if strings.HasPrefix(rest, p.lit) {
				walk(k+1, rest[len(p.lit):])
			}
			return
		}
		// A slot: a string printed with %q ends where its quotes do;
		// another ends where the next literal piece starts.
		if q, ok := quoted(p.verb, rest); !ok {
			return
		} else if q != "" {
			slots = append(slots, q)
			walk(k+1, rest[len(q):])
			slots = slots[:len(slots)-1]
			return
		}
		if k+1 == len(t.pieces) {
			slots = append(slots, rest)
			walk(k+1, "")
			slots = slots[:len(slots)-1]
			return
		}
		next := t.pieces[k+1].lit
		if k+2 == len(t.pieces) { // the last literal ends the text
			if strings.HasSuffix(rest, next) {
				slots = append(slots, rest[:len(rest)-len(next)])
				walk(k+1, next)
				slots = slots[:len(slots)-1]
			}
			return
		}
		off := 0
		for range maxSplit {
			i := strings.Index(rest[off:], next)
			if i < 0 {
				return
			}
			slots = append(slots, rest[:off+i])
			walk(k+1, rest[off+i:])
			slots = slots[:len(slots)-1]
			if found && !t.errs {
				return // the first way that fits is as good as any
			}
			off += i + 1
		}
	}
	walk(0, s)
	return best, found
}

// quoted returns the quoted string that text starts with where a slot of
// that verb (%q alone, no flags) prints one, or "", and whether the slot
// can start text at all: %q prints a string or a rune quoted, and a
// slice, a struct, a pointer or nil as they start.
func quoted(verb, text string) (string, bool) {
	if verb != "%q" {
		return "", true
	}
	if text != "" && strings.IndexByte("\"`'", text[0]) >= 0 {
		q, err := strconv.QuotedPrefix(text)
		return q, err == nil
	}
	for _, start := range []string{"[", "{", "&", "<nil>", "%!", "map["} {
		if strings.HasPrefix(text, start) {
			return "", true
		}
	}
	return "", false
}

// render returns the identity of t with slots holding those texts: its
// error slots replaced by what explains them.
func (m *matcher) render(t *template, slots []string, depth int) judged {
	j := judged{score: t.lits}
	if !slices.ContainsFunc(t.pieces, func(p piece) bool { return p.slot == errSlot }) {
		j.text = t.text
		return j
	}
	var b strings.Builder
	k := 0
	for _, p := range t.pieces {
		switch p.slot {
		case litPiece:
			b.WriteString(strings.ReplaceAll(p.lit, "%", "%%"))
			continue
		case errSlot:
			if sub := m.global(slots[k], depth+1); sub.score > 0 {
				b.WriteString(sub.text)
				j.score += sub.score
				k++
				continue
			}
			if m.mask != nil && slots[k] != "" {
				// An error no template made: its text, masked.
				m.masked = true
				b.WriteString(strings.ReplaceAll(m.mask(slots[k]), "%", "%%"))
				k++
				continue
			}
		}
		b.WriteString(p.verb)
		k++
	}
	j.text = fold(b.String())
	return j
}

// fold folds each run of white space in s into one space, and trims it.
func fold(s string) string {
	if !strings.ContainsAny(s, "\t\n\r\v\f") && !strings.Contains(s, "  ") && strings.TrimSpace(s) == s {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
