package cli

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmeFlagSections are the sections of the README whose flag tables
// list a flag set: the command's flags, and each subcommand's own.
func readmeFlagSections() map[string]*flag.FlagSet {
	o := defaultOptions(modeMinimize)
	cmin := defaultOptions(modeCmin)
	return map[string]*flag.FlagSet{
		"Flags": o.flagSet(),
		"Distilling the generated corpus: `fuzzmin cmin`": cmin.flagSet(),
		"Importing crashes":                          importFlags(),
		"Migrating entries after a signature change": migrateFlags(),
	}
}

// TestReadme_Flags checks that each flag table of the README lists every
// flag of its command or subcommand, with its argument and default as the
// code has them, and no other flag. (The manual is made from the flags
// themselves.)
func TestReadme_Flags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sets := readmeFlagSections()
	for _, section := range regexp.MustCompile("(?m)^## ").Split(string(b), -1)[1:] {
		title, body, _ := strings.Cut(section, "\n")
		rows := map[string]string{} // flag name → row
		for _, m := range regexp.MustCompile("(?m)^\\| `-([a-zA-Z-]+)( [a-z/]+)?` \\|(.*)$").FindAllStringSubmatch(body, -1) {
			rows[m[1]] = m[0]
		}
		fs := sets[title]
		if fs == nil {
			for name := range rows {
				t.Errorf("README: %s: a row for -%s, in a section without flags", title, name)
			}
			continue
		}
		delete(sets, title)
		fs.VisitAll(func(f *flag.Flag) {
			row, ok := rows[f.Name]
			if !ok {
				t.Errorf("README: %s: no row for -%s", title, f.Name)
				return
			}
			delete(rows, f.Name)
			if arg, _ := flag.UnquoteUsage(f); arg != "" && !strings.HasPrefix(row, "| `-"+f.Name+" "+arg+"`") {
				t.Errorf("README: %s: -%s: want the argument %q: %s", title, f.Name, arg, row)
			}
			if def := defaultText(f); def != "" && !strings.Contains(row, "default "+def) {
				t.Errorf("README: %s: -%s: want its default, %s: %s", title, f.Name, def, row)
			}
		})
		for name := range rows {
			t.Errorf("README: %s: a row for -%s, which is no flag", title, name)
		}
	}
	for title := range sets {
		t.Errorf("README: no section %q", title)
	}
}

// TestManual_Flags checks that the manual documents every flag and its
// default, the subcommands' own flags in their sections.
func TestManual_Flags(t *testing.T) {
	for _, sc := range commands {
		section := manualSection(sc.name)
		if section == Manual() {
			t.Errorf("the manual has no section %s", sc.section)
			continue
		}
		if sc.flags != nil {
			checkManual(t, section, sc.flags())
		}
	}
}

// TestHelp checks what each command's -help prints: its own section, or
// for the command itself the overview without the others' sections.
func TestHelp(t *testing.T) {
	for _, sc := range commands {
		var out, errw strings.Builder
		args := []string{"-help"}
		if sc.name == "help" {
			args = nil
		}
		if sc.name != "" {
			args = append([]string{sc.name}, args...)
		}
		if code := Main(args, &out, &errw); code != exitOK || errw.Len() > 0 {
			t.Errorf("fuzzmin %v: exit %d, %s", args, code, errw.String())
			continue
		}
		got := out.String()
		switch {
		case sc.name == "help":
			if got != Manual() {
				t.Errorf("fuzzmin help does not print the manual")
			}
		case sc.name == "":
			for _, other := range commands[1:] {
				if strings.Contains(got, "\n"+other.section+"\n") {
					t.Errorf("fuzzmin -help prints the section %s", other.section)
				}
			}
			if !strings.Contains(got, "\n# Flags\n") || !strings.Contains(got, "\n# Exit status\n") {
				t.Errorf("fuzzmin -help lacks the command's own sections:\n%s", got)
			}
		case !strings.HasPrefix(got, sc.section+"\n") || strings.Count(got, "\n# ") > 0:
			t.Errorf("fuzzmin %s -help prints more or less than its section:\n%s", sc.name, got)
		}
	}
}

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"chek", "check"}, {"cmni", "cmin"}, {"improt", "import"}, {"migrat", "migrate"},
		{"./check", ""}, {"example.com/x", ""}, {"zz", ""}, {"strings", ""},
	} {
		got := didYouMean(tt.word)
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasSuffix(got, "did you mean fuzzmin "+tt.want+"?") {
			t.Errorf("didYouMean(%q) = %q, want a suggestion of %q", tt.word, got, tt.want)
		}
	}
}

func checkManual(t *testing.T, m string, fs *flag.FlagSet) {
	t.Helper()
	words := strings.Join(strings.Fields(m), " ") // as wrapped or not
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(m, "\n\t-"+f.Name+"\n") && !strings.Contains(m, "\n\t-"+f.Name+" ") {
			t.Errorf("the manual does not document -%s (%s)", f.Name, fs.Name())
		}
		if def := defaultText(f); def != "" && !strings.Contains(words, "The default is "+def+".") {
			t.Errorf("the manual does not give the default of -%s (%s), %s", f.Name, fs.Name(), def)
		}
	})
}

// TestSubcommands_SharedFlags checks that the flags a subcommand shares with
// the command are flags of the command, so that "which mean what they mean
// above" holds.
func TestSubcommands_SharedFlags(t *testing.T) {
	o := defaultOptions(modeMinimize)
	all := o.flagSet()
	for _, name := range append(append([]string{}, importShared...), migrateShared...) {
		if all.Lookup(name) == nil {
			t.Errorf("-%s is shared, but the command has no such flag", name)
		}
	}
	for _, m := range []string{"import", "migrate"} {
		section := strings.Join(strings.Fields(manualSection(m)), " ")
		shared := importShared
		if m == "migrate" {
			shared = migrateShared
		}
		for _, name := range shared {
			if !strings.Contains(section, "-"+name+",") && !strings.Contains(section, "-"+name+" ") {
				t.Errorf("the manual's section on %s does not name the shared flag -%s", m, name)
			}
		}
	}
}
