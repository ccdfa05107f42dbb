package cli

import (
	"cmp"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"strings"
)

//go:embed manual.txt
var manualText string

// Manual returns fuzzmin's manual, which "fuzzmin help" prints:
// manual.txt with each command's flags, {{flags name}}, and the flags
// several commands share, {{shared flags}}, made from the flags themselves,
// so that their defaults are written in one place, the code. A flag that
// sharedBy commands or more take with the same meaning and default is shared:
// the manual describes it once, with the commands that take it, as cmd/go
// describes its build flags; each command's own list names it. The
// command's doc.go holds the same text as its package documentation, for
// go doc (a test keeps the two equal).
func Manual() string {
	text := manualText
	sets := map[string]*flag.FlagSet{}
	var names []string
	for _, sc := range commands {
		if fs := sc.flagsOf(); fs != nil {
			sets[sc.name], names = fs, append(names, sc.name)
		}
	}
	takers := flagTakers(sets, names)
	shared := func(f *flag.Flag) bool { return len(takers[variant(f)]) >= sharedBy }
	for _, name := range names {
		var b strings.Builder
		writeFlags(&b, sets[name], func(f *flag.Flag) bool { return !shared(f) })
		var common []string
		sets[name].VisitAll(func(f *flag.Flag) {
			if shared(f) {
				common = append(common, "-"+f.Name)
			}
		})
		if len(common) > 0 {
			b.WriteString("\n" + strings.Join(wrap("It takes the shared flags "+englishList(common)+" too (see Shared flags).", 75), "\n") + "\n")
		}
		text = strings.Replace(text, "{{flags "+name+"}}\n", b.String(), 1)
	}
	return strings.Replace(text, "{{shared flags}}\n", writeShared(sets, names, takers), 1)
}

// sharedBy is how many commands take a flag that the manual describes once,
// among the shared flags: fewer is clearer in their own lists.
const sharedBy = 3

// variant is a flag as the manual describes it: its name, its usage and
// its default.
func variant(f *flag.Flag) string { return f.Name + "\x00" + f.Usage + "\x00" + f.DefValue }

// flagTakers returns the commands that take each variant of a flag, in
// order, as the manual names them: fuzzmin, check, fuzz…
func flagTakers(sets map[string]*flag.FlagSet, names []string) map[string][]string {
	takers := map[string][]string{}
	for _, name := range names {
		sets[name].VisitAll(func(f *flag.Flag) {
			takers[variant(f)] = append(takers[variant(f)], cmp.Or(name, "fuzzmin"))
		})
	}
	return takers
}

// writeShared returns the flags sharedBy commands or more take, each variant
// once, in groups of the flags the same commands take.
func writeShared(sets map[string]*flag.FlagSet, names []string, takers map[string][]string) string {
	var groups []string // the commands of each group
	members := map[string]map[string]bool{}
	owner := map[string]*flag.FlagSet{}
	for _, name := range names {
		sets[name].VisitAll(func(f *flag.Flag) {
			cmds := takers[variant(f)]
			if len(cmds) < sharedBy || cmds[0] != cmp.Or(name, "fuzzmin") {
				return
			}
			key := englishList(cmds)
			if members[key] == nil {
				members[key] = map[string]bool{}
				groups = append(groups, key)
			}
			members[key][variant(f)], owner[key] = true, sets[name]
		})
	}
	var b strings.Builder
	for i, key := range groups {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Of %s:\n\n", key)
		writeFlags(&b, owner[key], func(f *flag.Flag) bool { return members[key][variant(f)] })
	}
	return b.String()
}

// englishList joins items as a sentence lists them: a, b and c.
func englishList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
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

// writeFlags writes the flags of fs that keep selects for the manual:
// each with its argument, its usage wrapped to the manual's width, and its
// default.
func writeFlags(w io.Writer, fs *flag.FlagSet, keep func(*flag.Flag) bool) {
	fs.VisitAll(func(f *flag.Flag) {
		if !keep(f) {
			return
		}
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
