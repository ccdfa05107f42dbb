package cli

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// TestDocs_Flags checks that every flag the README and docs/ name (as
// `-name`, or `-name=…` or `-name value` in a command) is a flag of some
// fuzzmin command: the manual is the one place flags are described, and the
// pages must not name one that does not exist.
func TestDocs_Flags(t *testing.T) {
	known := map[string]bool{"help": true, "h": true}
	for _, sc := range commands {
		if fs := sc.flagsOf(); fs != nil {
			fs.VisitAll(func(f *flag.Flag) { known[f.Name] = true })
		}
	}
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	flagRE := regexp.MustCompile("(?:^|[ `(])fuzzmin(?: [a-z]+)?((?: +-[a-zA-Z][\\w-]*(?:[= ][^ `]*)?)+)")
	nameRE := regexp.MustCompile(` -([a-zA-Z][\w-]*)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range flagRE.FindAllStringSubmatch(string(b), -1) {
			for _, n := range nameRE.FindAllStringSubmatch(m[1], -1) {
				if !known[n[1]] {
					t.Errorf("%s names -%s, which no fuzzmin command has: %q", filepath.Base(f), n[1], m[0])
				}
			}
		}
		for _, n := range regexp.MustCompile("`-([a-zA-Z][\\w-]*)[ =`]").FindAllStringSubmatch(string(b), -1) {
			if !known[n[1]] && !goTestFlag[n[1]] {
				t.Errorf("%s names -%s, which no fuzzmin command has", filepath.Base(f), n[1])
			}
		}
	}
}

// goTestFlag are the flags of the go command and of the project's own
// tests (-kill, -update, -long) and of go tool cover (-func, -html) that the
// pages name.
var goTestFlag = map[string]bool{"kill": true, "update": true, "fuzz": true, "fuzztime": true, "fuzzminimizetime": true, "run": true, "short": true, "bench": true,
	"benchtime": true, "cover": true, "covermode": true, "coverpkg": true, "exec": true, "merge": true, "mod": true, "replace": true, "require": true, "v": true, "count": true, "json": true, "func": true, "html": true, "parallel": true, "long": true, "ldflags": true}

// TestManual_Flags checks that the manual documents every flag and its
// default: a command's own flags in its section, the shared ones in
// Shared flags, which fuzzmin -help prints.
func TestManual_Flags(t *testing.T) {
	for _, sc := range commands {
		section := manualSection(sc.name)
		if section == Manual() {
			t.Errorf("the manual has no section %s", sc.section)
			continue
		}
		if fs := sc.flagsOf(); fs != nil {
			checkManual(t, section+manualSection(""), fs)
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
		if code := Main(args, &out, &errw); code != pipeline.ExitOK || errw.Len() > 0 {
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

func TestNotACommand(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"chek", `"chek" is neither a fuzzmin command nor a package; did you mean fuzzmin check?`},
		{"cmni", `"cmni" is neither a fuzzmin command nor a package; did you mean fuzzmin cmin?`},
		{"improt", `"improt" is neither a fuzzmin command nor a package; did you mean fuzzmin import?`},
		{"migrat", `"migrat" is neither a fuzzmin command nor a package; did you mean fuzzmin migrate?`},
		{"bogus", `"bogus" is neither a fuzzmin command nor a package (the nearest command is fuzzmin cover; fuzzmin help lists them all)`},
		{"zz", `"zz" is neither a fuzzmin command nor a package (the nearest command is fuzzmin fuzz; fuzzmin help lists them all)`},
		{"./check", ""}, {"example.com/x", ""}, {"x/y", ""}, {"", ""},
	} {
		if got := notACommand(tt.word); got != tt.want {
			t.Errorf("notACommand(%q) = %q, want %q", tt.word, got, tt.want)
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

// TestManual_SharedFlags checks that a flag three commands or more take
// with the same meaning is described once, in Shared flags, and that each
// command that takes it names it in its own list.
func TestManual_SharedFlags(t *testing.T) {
	m := Manual()
	shared := manualSection("")
	for _, name := range []string{"C", "tags", "json", "exec-timeout", "memory-limit", "race"} {
		if n := strings.Count(m, "\n\t-"+name+"\n") + strings.Count(m, "\n\t-"+name+" "); n != 1 {
			t.Errorf("the manual describes -%s %d times, want once", name, n)
		}
		if !strings.Contains(shared, "\n\t-"+name) {
			t.Errorf("fuzzmin -help does not describe the shared flag -%s", name)
		}
	}
	for _, sc := range commands {
		fs := sc.flagsOf()
		if fs == nil || sc.name == "" {
			continue
		}
		words := strings.Join(strings.Fields(manualSection(sc.name)), " ")
		if fs.Lookup("C") != nil && !strings.Contains(words, "It takes the shared flags -C") {
			t.Errorf("the section of %s does not name the shared flags it takes:\n%s", sc.name, words)
		}
	}
}
