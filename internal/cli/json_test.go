package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// jsonEvent is the schema of -json's events as docs/json.md documents it.
type jsonEvent struct {
	Time    time.Time
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
	// search-pass, accept
	Pass  string
	Round int
	Runs  int
	Value string
	// summary
	Counts map[string]int
	Exit   *int
	// finding
	Path, Level, Message string
	Line                 int
	// result
	Status, Signature, Stop, Draws, Removed, Note, Error, Rerun string
	Before, After                                               int
	Others                                                      []struct {
		Signature string
		Count     int
	}
	Explanation *struct {
		Runs int
		Args []struct {
			Free        bool
			Unexplained bool
			Tried       int
			Legend      string
			Positions   []struct {
				At    int
				Class string
				Tried int
			}
			Fields []struct {
				Name  string
				Free  bool
				Tried int
			}
		}
		Smaller, Summary string
	}
}

// documentedActions returns the actions of the table of docs/json.md,
// after checking that the manual names each of them.
func documentedActions(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(string(b), -1) {
		actions = append(actions, m[1])
		if !strings.Contains(manualText, `"`+m[1]+`"`) {
			t.Errorf("the manual does not name the action %q of docs/json.md", m[1])
		}
	}
	if len(actions) < 10 {
		t.Fatalf("docs/json.md lists %d actions: %q; is its table still there?", len(actions), actions)
	}
	return actions
}

// TestJSON_Schema runs fuzzmin -json -v on a failing entry and on one that
// passes, decodes every line with the documented schema (a field it does
// not have is an error), and feeds the events to what a go test -json
// consumer counts: tests run, passed, failed or skipped, of which fuzzmin's
// own events must make none.
func TestJSON_Schema(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	testbintest.WriteModule(t, dir, "example.com/j", map[string]string{"j_test.go": `package j

import (
	"strings"
	"testing"
)

func FuzzJ(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string, n int) {
		if strings.Contains(s, "=") && n > 9 {
			t.Fatalf("%q and %d", s, n)
		}
	})
}
`})
	for _, e := range [][]any{{"key=value; other=thing", 1234}, {"passes", 1}} {
		b, _ := encoding.Marshal(e...)
		if _, err := corpus.WriteFile(corpus.SeedCorpus(dir, "FuzzJ"), b); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	if code := Main([]string{"-C", dir, "-json", "-v", "-n", "."}, &out, &out); code != 0 {
		t.Fatalf("fuzzmin exited %d:\n%s", code, out.String())
	}
	documented := documentedActions(t)
	explained := 0 // results whose explanation has its two arguments
	actions := map[string]int{}
	goTest := map[string]int{} // what a go test -json consumer counts
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var ev jsonEvent
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		if !slices.Contains(documented, ev.Action) {
			t.Errorf("undocumented action %q: %s", ev.Action, sc.Text())
		}
		actions[ev.Action]++
		if ev.Action == "result" && ev.Explanation != nil && len(ev.Explanation.Args) == 2 {
			explained++
		}
		switch ev.Action {
		case "start", "run", "pause", "cont", "pass", "fail", "skip", "bench":
			goTest[ev.Action]++
		}
	}
	for _, a := range []string{"build", "entry", "search-pass", "accept", "report", "result", "summary"} {
		if actions[a] == 0 {
			t.Errorf("no %s event: %v", a, actions)
		}
	}
	if len(goTest) > 0 {
		t.Errorf("a go test -json consumer counts %v from fuzzmin's events", goTest)
	}
	if explained != 1 {
		t.Errorf("%d results with an explanation of both arguments, want 1 (the failing entry's)", explained)
	}
}
