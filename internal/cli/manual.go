package cli

import (
	_ "embed"
	"strings"
)

//go:embed manual.txt
var manualText string

// Manual returns fuzzmin's manual, which -help and "fuzzmin help" print:
// manual.txt with the flags sections made from the flags themselves, so
// that their defaults are written in one place, the code. The command's
// doc.go holds the same text as its package documentation, for go doc (a
// test keeps the two equal).
func Manual() string {
	text := manualText
	for _, m := range []mode{modeMinimize, modeCheck, modeCmin} {
		var flags strings.Builder
		o := defaultOptions(m)
		writeFlags(&flags, o.flagSet())
		text = strings.Replace(text, "{{flags "+string(m)+"}}\n", flags.String(), 1)
	}
	return text
}
