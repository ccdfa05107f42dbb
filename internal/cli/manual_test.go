package cli

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReadme_Flags checks that the README's flag table lists every flag,
// with its argument and default as the code has them, and no other flag.
// (The manual is made from the flags themselves.)
func TestReadme_Flags(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // flag name → row
	for _, m := range regexp.MustCompile("(?m)^\\| `-([a-zA-Z-]+)( [a-z/]+)?` \\|(.*)$").FindAllStringSubmatch(string(b), -1) {
		rows[m[1]] = m[0]
	}
	o := defaultOptions(modeMinimize)
	fs := o.flagSet()
	fs.VisitAll(func(f *flag.Flag) {
		row, ok := rows[f.Name]
		if !ok {
			t.Errorf("README: no row for -%s", f.Name)
			return
		}
		delete(rows, f.Name)
		if arg, _ := flag.UnquoteUsage(f); arg != "" && !strings.HasPrefix(row, "| `-"+f.Name+" "+arg+"`") {
			t.Errorf("README: -%s: want the argument %q: %s", f.Name, arg, row)
		}
		if def := defaultText(f); def != "" && !strings.Contains(row, "default "+def) {
			t.Errorf("README: -%s: want its default, %s: %s", f.Name, def, row)
		}
	})
	for name := range rows {
		t.Errorf("README: a row for -%s, which is no flag", name)
	}
}

// TestManual_Flags checks that the manual documents every flag and its
// default.
func TestManual_Flags(t *testing.T) {
	m := Manual()
	words := strings.Join(strings.Fields(m), " ") // as wrapped or not
	for _, md := range []mode{modeMinimize, modeCheck, modeCmin} {
		testManualFlags(t, m, words, md)
	}
}

func testManualFlags(t *testing.T, m, words string, md mode) {
	o := defaultOptions(md)
	o.flagSet().VisitAll(func(f *flag.Flag) {
		if !strings.Contains(m, "\n\t-"+f.Name+"\n") && !strings.Contains(m, "\n\t-"+f.Name+" ") {
			t.Errorf("the manual does not document -%s", f.Name)
		}
		if def := defaultText(f); def != "" && !strings.Contains(words, "The default is "+def+".") {
			t.Errorf("the manual does not give the default of -%s, %s", f.Name, def)
		}
	})
}
