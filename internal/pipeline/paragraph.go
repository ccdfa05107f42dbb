package pipeline

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// paragraph is the report of an entry for people.
func paragraph(res Result) string {
	var b strings.Builder
	elapsed := time.Duration(res.Elapsed * float64(time.Second)).Round(time.Millisecond)
	switch res.Status {
	case statusMinimized, statusWould, StatusMinimal, statusDuplicate, statusFound:
		writeResult(&b, res, elapsed)
	case StatusPasses:
		fmt.Fprintf(&b, "%s: passes; left alone\n", res.Test)
	case StatusSame:
		fmt.Fprintf(&b, "%s: the same failure as %s (%v): %s\n", res.Test, res.Path, res.Signature, res.Note)
		res.Note = ""
	case StatusRegression:
		what := "committed entry fails"
		if res.maybeTracked {
			what = "entry fails, and may be committed"
		}
		fmt.Fprintf(&b, "%s: regression: %s: %v; left alone (-tracked minimizes it)\n", res.Test, what, res.Signature)
	case StatusStopped:
		if res.Path != "" {
			writeResult(&b, res, elapsed) // a campaign's input
			break
		}
		fmt.Fprintf(&b, "%s: nothing smaller found, %d runs, %v: %v; left alone\n", res.Test, res.Runs, elapsed, res.Signature)
		fmt.Fprintf(&b, "\tsearch stopped early (%s): the result may not be minimal\n", res.Stop)
	default:
		fmt.Fprintf(&b, "%s: %s: %s\n", res.Test, res.Status, res.Error)
		res.Error = ""
		if res.Value != "" {
			// What the search found, or what a flaky entry holds: the
			// value to paste, though no file of it was written.
			fmt.Fprintf(&b, "\t%s\n", res.Value)
		}
	}
	if res.Note != "" {
		fmt.Fprintf(&b, "\tnote: %s\n", res.Note)
	}
	if res.Error != "" {
		fmt.Fprintf(&b, "\t%s\n", res.Error)
	}
	if res.Rerun != "" {
		fmt.Fprintf(&b, "\tTo re-run: %s\n", res.Rerun)
	}
	return b.String()
}

// changedRegion shows what changed from prev to cur: the differing middle
// as ⟨old → new⟩, each cut to 60 bytes, with up to 24 bytes of context on
// each side, where the two share their beginning and end.
func changedRegion(prev, cur string) string {
	p := 0
	for p < len(prev) && p < len(cur) && prev[p] == cur[p] {
		p++
	}
	q := 0
	for q < len(prev)-p && q < len(cur)-p && prev[len(prev)-1-q] == cur[len(cur)-1-q] {
		q++
	}
	// Whole runes only.
	for p > 0 && !utf8.RuneStart(prev[p]) {
		p--
	}
	for q > 0 && !utf8.RuneStart(cur[len(cur)-q]) {
		q--
	}
	const ctx = 24
	left, right := cur[:p], cur[len(cur)-q:]
	if len(left) > ctx {
		i := len(left) - ctx
		for i < len(left) && !utf8.RuneStart(left[i]) {
			i++
		}
		left = "…" + left[i:]
	}
	if len(right) > ctx {
		i := ctx
		for i > 0 && !utf8.RuneStart(right[i]) {
			i--
		}
		right = right[:i] + "…"
	}
	return left + "⟨" + shorten(prev[p:len(prev)-q], 60) + " → " + shorten(cur[p:len(cur)-q], 60) + "⟩" + right
}

// maxPreview bounds a value shown to people: a longer one is shown in
// part, its beginning and end; the whole value is in the corpus file.
const maxPreview = 2048

// preview bounds a value shown to people (see maxPreview).
func preview(s string) string {
	if len(s) <= maxPreview {
		return s
	}
	return shorten(s, maxPreview) + fmt.Sprintf(" (%d bytes, shown in part; the whole value is in the file)", len(s))
}

// shorten cuts s to about n bytes, keeping its beginning and end.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i, k := n/2, len(s)-n/2
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	for k < len(s) && !utf8.RuneStart(s[k]) {
		k++
	}
	return s[:i] + " … " + s[k:]
}

// maxOthersShown bounds the other failures a result's paragraph names, one
// line each; a last line counts the rest.
const maxOthersShown = 5

// writeOthers tells of the other failures met on the way, the most often
// met first, with how many candidates showed each.
func writeOthers(b *strings.Builder, others []met) {
	for i, o := range others {
		if i == maxOthersShown {
			rest := 0
			for _, o := range others[i:] {
				rest += o.Count
			}
			fmt.Fprintf(b, "\tand %s, met by %s\n", Plural(len(others)-i, "more", "more"), Plural(rest, "candidate", "candidates"))
			return
		}
		fmt.Fprintf(b, "\tother failure met on the way, not accepted (%s): %s\n", Plural(o.Count, "candidate", "candidates"), o.Signature)
	}
}

// writeResult writes the paragraph of an entry that has a result: the
// value found, its explanation, how the search ended, the failures met on
// the way, and what was written.
func writeResult(b *strings.Builder, res Result, elapsed time.Duration) {
	verb := "minimized"
	switch {
	case res.Status == StatusMinimal:
		verb = "already minimal"
	case res.Status == StatusStopped:
		verb = "written as found,"
	case res.Status == statusWould:
		verb = "would minimize"
	case res.After > res.Before:
		verb += " to simpler values,"
	}
	if res.Found {
		fmt.Fprintf(b, "also found: %s: %d bytes, %d runs, %v: %v\n", res.Test, res.After, res.Runs, elapsed, res.Signature)
	} else {
		fmt.Fprintf(b, "%s: %s %d → %d bytes, %d runs, %v: %v\n", res.Test, verb, res.Before, res.After, res.Runs, elapsed, res.Signature)
	}
	for _, d := range strings.Split(res.Draws, "\n") {
		if d != "" {
			fmt.Fprintf(b, "\t%s\n", d)
		}
	}
	fmt.Fprintf(b, "\t%s\n", res.Value)
	if res.Explanation != nil {
		for _, l := range res.Explanation.lines() {
			fmt.Fprintf(b, "\t%s\n", l)
		}
	}
	if res.Stop != "" && res.Stop != shrink.StopDone.String() {
		fmt.Fprintf(b, "\tsearch stopped early (%s): the result may not be minimal\n", res.Stop)
	}
	writeOthers(b, res.Others)
	switch res.Status {
	case statusMinimized, statusFound, StatusMinimal, StatusStopped:
		// Of the last two, only a campaign's input that was not in the
		// corpus has a path: it is written as it was found.
		if res.Path != "" {
			fmt.Fprintf(b, "\twrote %s", res.Path)
		}
	case statusDuplicate:
		fmt.Fprintf(b, "\tkept %s", res.Path)
	case statusWould:
		fmt.Fprintf(b, "\twould write %s (-n: nothing written)", res.Path)
	}
	if res.Removed != "" {
		fmt.Fprintf(b, ", removed %s", res.Removed)
	}
	if res.Path != "" {
		b.WriteString("\n")
	}
}
