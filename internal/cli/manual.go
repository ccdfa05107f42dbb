package cli

import (
	_ "embed"
	"flag"
	"fmt"
	"io"
	"strings"
)

//go:embed manual.txt
var manualText string

// Manual returns fuzzmin's manual, which "fuzzmin help" prints:
// manual.txt with each command's flags, {{flags name}}, made from the flags
// themselves, so that their defaults are written in one place, the code.
// The command's doc.go holds the same text as its package documentation,
// for go doc (a test keeps the two equal).
func Manual() string {
	text := manualText
	for _, sc := range commands {
		if sc.flags == nil {
			continue
		}
		var b strings.Builder
		writeFlags(&b, sc.flags())
		text = strings.Replace(text, "{{flags "+sc.name+"}}\n", b.String(), 1)
	}
	return text
}

// importFlags and migrateFlags are the flags import and migrate have of
// their own, without those they share with the command, which the manual
// describes once.
func importFlags() *flag.FlagSet {
	o := defaultImportOptions()
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	o.ownFlags(fs)
	return fs
}

func migrateFlags() *flag.FlagSet {
	o := defaultMigrateOptions()
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	o.ownFlags(fs)
	return fs
}

// manualSection returns what -help prints for the subcommand name: its
// section of the manual; for the command itself (""), the manual without
// the subcommands' sections, and where to find them.
func manualSection(name string) string {
	m := Manual()
	sections := map[string][2]int{} // heading → its section's span in m
	for _, sc := range commands {
		if sc.section == "" {
			continue
		}
		i := strings.Index(m, "\n"+sc.section+"\n")
		if i < 0 {
			continue
		}
		j := strings.Index(m[i+1:], "\n# ")
		if j < 0 {
			j = len(m) - i - 1
		}
		sections[sc.name] = [2]int{i + 1, i + 1 + j + 1}
	}
	if name != "" {
		if s, ok := sections[name]; ok {
			return m[s[0]:s[1]]
		}
		return m
	}
	var b strings.Builder
	last := 0
	for _, sc := range commands {
		if s, ok := sections[sc.name]; ok && s[0] >= last {
			b.WriteString(m[last:s[0]])
			last = s[1]
		}
	}
	b.WriteString(m[last:])
	fmt.Fprintf(&b, "\nEach of %s has a section of its own: fuzzmin <command> -help prints it, and fuzzmin help the whole manual.\n",
		strings.Join(commandNames()[:len(commandNames())-1], ", "))
	return b.String()
}

// writeFlags writes the flags section of the manual: each flag with its
// argument, its usage wrapped to the manual's width, and its default.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "\t-%s", f.Name)
		if arg != "" {
			fmt.Fprintf(w, " %s", arg)
		}
		fmt.Fprintln(w)
		if def := defaultText(f); def != "" {
			usage += " The default is " + def + "."
		}
		for _, line := range wrap(usage, 64) {
			fmt.Fprintf(w, "\t\t%s\n", line)
		}
	})
}

// defaultText spells a flag's default for the manual, or "" for the zero
// value of a bool or a string, which goes without saying.
func defaultText(f *flag.Flag) string {
	switch def := f.DefValue; {
	case f.Name == "p":
		return "GOMAXPROCS" // the machine's, not the one the manual was made on
	case def == "" || def == "false":
		return ""
	case def == ".": // a package
		return `"."`
	case strings.HasSuffix(def, "m0s"): // 2m0s reads 2m
		return strings.TrimSuffix(def, "0s")
	default:
		return def
	}
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
