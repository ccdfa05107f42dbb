package cli

import (
	_ "embed"
	"flag"
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
	for name, fs := range subcommandFlags() {
		var b strings.Builder
		writeFlags(&b, fs)
		text = strings.Replace(text, "{{"+name+" flags}}\n", b.String(), 1)
	}
	return text
}

// subcommandFlags returns the flags of each subcommand that has its own,
// without those it shares with the command, which the manual describes
// once.
func subcommandFlags() map[string]*flag.FlagSet {
	io, mo := defaultImportOptions(), defaultMigrateOptions()
	ifs, mfs := flag.NewFlagSet("import", flag.ContinueOnError), flag.NewFlagSet("migrate", flag.ContinueOnError)
	io.ownFlags(ifs)
	mo.ownFlags(mfs)
	return map[string]*flag.FlagSet{"import": ifs, "migrate": mfs}
}

// subcommandSections are the headings of the subcommands' sections of the
// manual, which "fuzzmin <subcommand> -help" prints.
var subcommandSections = map[string]string{
	"import":  "# Importing crashes",
	"migrate": "# Migrating entries",
}

// manualSection returns the section of the manual about a subcommand.
func manualSection(name string) string {
	m := Manual()
	i := strings.Index(m, "\n"+subcommandSections[name]+"\n")
	if i < 0 {
		return m
	}
	section := m[i+1:]
	if j := strings.Index(section, "\n# "); j >= 0 {
		section = section[:j+1]
	}
	return section
}
