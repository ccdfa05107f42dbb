package shrink

import (
	"cmp"
	"iter"
	"slices"
)

// Words: a name defined in one place and used in others (a key set by one
// command of a script and read by a later one, a variable, a label, a
// token repeated in a path) keeps a failure only while every occurrence
// agrees: shortening one occurrence alone breaks the use, so no pass that
// changes one place at a time can shorten it. The words pass changes a
// word of the input (a run of letters, digits and underscores), or a field
// (a run of characters other than blanks: a dotted key, a path), at every
// place it occurs at once: it removes them all, then puts in their place
// a shorter word, "0", "a", or a word of the input's own vocabulary (a
// keyword of the same language), shortest first; then, for a word that
// occurs three to eight times, removal and the first word in its place at
// each pair of its places. A word
// that occurs once gets the input's shorter words alone: the other passes
// remove and lower its characters. Words are taken in order of the bytes
// they hold in all, largest first. The cursor is pos.k = the word, pos.i =
// its candidate.

// maxWords and maxVocab bound the words the pass changes and the words of
// the vocabulary it puts in their place.
const (
	maxWords = 64
	maxVocab = 16
)

var wordsArg = onText(textArg(replaceWords[[]byte], replaceWords[string]))

// A word is a distinct word of the input and where it occurs.
type word struct {
	text string
	at   []rng
}

// inputWords returns the distinct words of s, and its fields (runs of
// characters other than spaces, tabs and line ends: a dotted key, a path)
// that are not words, by the bytes they hold in all, largest first, then
// by first occurrence.
func inputWords[S byteString](s S) []*word {
	byText := map[string]*word{}
	var ws []*word
	var rs []rng
	for _, r := range tokens(s) {
		if isWord(s[r.start]) {
			rs = append(rs, r)
		}
	}
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && !isBlank(s[j]) {
			j++
		}
		if j > i && !allWord(s[i:j]) {
			rs = append(rs, rng{i, j})
		}
		i = j + 1
	}
	for _, r := range rs {
		t := string(s[r.start:r.end])
		w := byText[t]
		if w == nil {
			w = &word{text: t}
			byText[t] = w
			ws = append(ws, w)
		}
		w.at = append(w.at, r)
	}
	slices.SortStableFunc(ws, func(a, b *word) int { return cmp.Compare(len(b.text)*len(b.at), len(a.text)*len(a.at)) })
	return ws
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func allWord[S byteString](s S) bool {
	for i := range len(s) {
		if !isWord(s[i]) {
			return false
		}
	}
	return true
}

// replaceWords yields the candidates of the words pass for s.
func replaceWords[S byteString](s S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		ws := inputWords(s)
		if len(ws) > maxWords {
			ws = ws[:maxWords]
		}
		// The vocabulary, shortest first, then in the order of characters.
		vocab := make([]string, 0, len(ws))
		for _, w := range ws {
			vocab = append(vocab, w.text)
		}
		slices.SortFunc(vocab, func(a, b string) int {
			if c := cmp.Compare(len(a), len(b)); c != 0 {
				return c
			}
			return compareText(a, b)
		})
		for k := from.k; k < len(ws); k++ {
			w := ws[k]
			cands := wordCandidates(w, vocab)
			start := 0
			if k == from.k {
				start = from.i
			}
			for i := start; i < len(cands); i++ {
				c := cands[i]
				if !yield(pos{k: k, i: i + 1}, replaceAt(s, c.at, c.with)) {
					return
				}
			}
		}
	}
}

// A wordCandidate replaces the occurrences at of a word with with.
type wordCandidate struct {
	at   []rng
	with string
}

// wordCandidates returns the candidates for w (see the top of this file).
func wordCandidates(w *word, vocab []string) []wordCandidate {
	var shorter []string
	if len(w.at) > 1 {
		shorter = append(shorter, "")
		for _, r := range []string{"0", "a"} {
			if len(r) < len(w.text) {
				shorter = append(shorter, r)
			}
		}
	}
	for _, v := range vocab {
		if len(shorter) == maxVocab || len(v) >= len(w.text) {
			break
		}
		if !slices.Contains(shorter, v) {
			shorter = append(shorter, v)
		}
	}
	var cs []wordCandidate
	for _, r := range shorter {
		cs = append(cs, wordCandidate{w.at, r})
	}
	if n := len(w.at); n >= 3 && n <= 8 {
		for _, r := range shorter[:min(2, len(shorter))] {
			for a := range n {
				for b := a + 1; b < n; b++ {
					cs = append(cs, wordCandidate{[]rng{w.at[a], w.at[b]}, r})
				}
			}
		}
	}
	return cs
}
