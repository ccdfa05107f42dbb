package testscript_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// An actionStep is a step of the composite action in action.yml.
type actionStep struct {
	name, dir, run string
	env            map[string]string
}

// readAction reads the inputs' defaults and the steps of action.yml: the
// part of YAML that file is written in (keys, two-space indentation, and
// run: | blocks).
func readAction(t *testing.T, path string) (defaults map[string]string, steps []actionStep) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	defaults = map[string]string{}
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	value := func(l string) string {
		_, v, _ := strings.Cut(l, ":")
		return strings.Trim(strings.TrimSpace(v), `"`)
	}
	section, input := "", ""
	var step *actionStep
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case indent(l) == 0:
			section = strings.TrimSuffix(trimmed, ":")
		case section == "inputs" && indent(l) == 2:
			input = strings.TrimSuffix(trimmed, ":")
			defaults[input] = ""
		case section == "inputs" && indent(l) == 4 && strings.HasPrefix(trimmed, "default:"):
			defaults[input] = value(l)
		case section == "runs" && strings.HasPrefix(trimmed, "- name:"):
			steps = append(steps, actionStep{name: value(l), env: map[string]string{}})
			step = &steps[len(steps)-1]
		case step != nil && strings.HasPrefix(trimmed, "working-directory:"):
			step.dir = value(l)
		case step != nil && trimmed == "env:":
			for i+1 < len(lines) && indent(lines[i+1]) > indent(l) {
				i++
				k, v, _ := strings.Cut(strings.TrimSpace(lines[i]), ":")
				step.env[k] = strings.Trim(strings.TrimSpace(v), `"`)
			}
		case step != nil && trimmed == "run: |":
			var body []string
			for i+1 < len(lines) && (indent(lines[i+1]) > indent(l) || strings.TrimSpace(lines[i+1]) == "") {
				i++
				body = append(body, strings.TrimPrefix(lines[i], strings.Repeat(" ", indent(l)+2)))
			}
			step.run = strings.Join(body, "\n") + "\n"
		}
	}
	return defaults, steps
}

var inputRef = regexp.MustCompile(`\$\{\{ *inputs\.([a-z-]+) *\}\}`)

// runAction runs the action's steps as the runner runs a composite action:
// each run: with bash --noprofile --norc -eo pipefail, the runner's
// variables (GITHUB_ACTIONS, GITHUB_ACTION_PATH, GITHUB_WORKSPACE,
// RUNNER_TEMP, GITHUB_PATH) and the step's env with the inputs in it, in
// its working directory. It returns the output and the exit code of the
// first step that fails, or of the last.
func runAction(t *testing.T, workspace string, inputs map[string]string) (string, int) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	defaults, steps := readAction(t, filepath.Join(root, "action.yml"))
	if len(steps) == 0 {
		t.Fatal("action.yml has no steps")
	}
	expand := func(s string) string {
		return inputRef.ReplaceAllStringFunc(s, func(ref string) string {
			name := inputRef.FindStringSubmatch(ref)[1]
			if _, ok := defaults[name]; !ok {
				t.Fatalf("action.yml refers to input %s, which it does not declare", name)
			}
			if v, ok := inputs[name]; ok {
				return v
			}
			return defaults[name]
		})
	}
	temp := t.TempDir()
	ghPath := filepath.Join(temp, "github_path")
	var out strings.Builder
	for _, s := range steps {
		script := filepath.Join(temp, "step.sh")
		if err := os.WriteFile(script, []byte(s.run), 0o666); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = filepath.Join(workspace, expand(s.dir))
		cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=true", "GITHUB_ACTION_PATH="+root, "GITHUB_WORKSPACE="+workspace,
			"RUNNER_TEMP="+temp, "GITHUB_PATH="+ghPath, "GITHUB_STEP_SUMMARY="+filepath.Join(workspace, "step-summary.md"))
		for k, v := range s.env {
			cmd.Env = append(cmd.Env, k+"="+expand(v))
		}
		b, err := cmd.CombinedOutput()
		out.Write(b)
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return out.String(), ee.ExitCode()
			}
			t.Fatalf("step %q: %v", s.name, err)
		}
	}
	return out.String(), 0
}

// TestAction runs action.yml on a temporary module: check annotates a
// failing committed entry and fails; fuzz with a target fails on a shallow
// bug, with the minimized entry written, and passes on a target without
// one; fuzz without one runs the campaign, keeps the corpus, writes the
// coverage and the job summary.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fuzzmin and runs go test -fuzz")
	}
	mod := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/a\n\ngo 1.26\n",
		"a_test.go": `package a

import (
	"strings"
	"testing"
)

func FuzzBig(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) {
		if n > 1000 {
			t.Fatalf("too big: %d", n)
		}
	})
}

func FuzzFind(f *testing.F) {
	f.Add("hello")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range s {
			if r >= 'A' && r <= 'Z' {
				t.Fatal("found a capital")
			}
		}
	})
}

func FuzzBang(f *testing.F) {
	f.Add("ok")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, "!") {
			t.Fatal("bang")
		}
	})
}

func FuzzNever(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {})
}
`,
		"testdata/fuzz/FuzzBig/committed": "go test fuzz v1\nint(123456)\n",
	}
	for name, body := range files {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
	}

	out, code := runAction(t, mod, map[string]string{"command": "check"})
	if code != 1 || !regexp.MustCompile(`(?m)^::error file=testdata/fuzz/FuzzBig/committed,line=1::fails: fail: too big: 123456 at a_test\.go:11$`).MatchString(out) {
		t.Errorf("check: exit %d, want 1 with an annotation of the failing entry:\n%s", code, out)
	}

	out, code = runAction(t, mod, map[string]string{"command": "fuzz", "target": "^FuzzFind$", "fuzztime": "60s"})
	if code != 1 || !strings.Contains(out, "go test -fuzz found 1 new failure; the entries to commit: testdata") {
		t.Errorf("fuzz on a shallow bug: exit %d, want 1 with the entry written:\n%s", code, out)
	}
	if des, _ := os.ReadDir(filepath.Join(mod, "testdata", "fuzz", "FuzzFind")); len(des) != 1 {
		t.Errorf("fuzz wrote %d entries of FuzzFind, want 1", len(des))
	}

	out, code = runAction(t, mod, map[string]string{"command": "fuzz", "target": "^FuzzNever$", "fuzztime": "20x"})
	if code != 0 || !strings.Contains(out, "go test -fuzz found no failure in 20x") {
		t.Errorf("fuzz without a bug: exit %d, want 0:\n%s", code, out)
	}

	// A module in a subdirectory of the repository (working-directory):
	// annotations name files from the root of the work space, where
	// GitHub places them.
	ws := t.TempDir()
	for name, body := range files {
		path := filepath.Join(ws, "services", "a", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	out, code = runAction(t, ws, map[string]string{"command": "check", "working-directory": "services/a"})
	if code != 1 || !regexp.MustCompile(`(?m)^::error file=services/a/testdata/fuzz/FuzzBig/committed,line=1::fails: `).MatchString(out) {
		t.Errorf("check in working-directory services/a: exit %d, want 1 with an annotation of services/a/testdata/fuzz/FuzzBig/committed:\n%s", code, out)
	}

	// Without a target, the campaign: every target under one budget, the
	// generated corpora kept, the coverage written, the job summary.
	out, code = runAction(t, mod, map[string]string{"command": "fuzz", "fuzztime": "10s", "corpus": "kept", "coverage": "cov"})
	if code != 1 || !regexp.MustCompile(`(?m)^fuzzmin: fuzzing found \d+ new failures?; the entries to commit: .*testdata/fuzz/FuzzBang/`).MatchString(out) {
		t.Errorf("fuzz without a target: exit %d, want 1 with the new failures named:\n%s", code, out)
	}
	for _, name := range []string{"FuzzBig", "FuzzFind", "FuzzBang", "FuzzNever"} {
		if !regexp.MustCompile(`(?m)^example\.com/a\.` + name + ` `).MatchString(out) {
			t.Errorf("the campaign's report has no line of %s:\n%s", name, out)
		}
	}
	summary, err := os.ReadFile(filepath.Join(mod, "step-summary.md"))
	if err != nil || !strings.Contains(string(summary), "### fuzzmin fuzz: 4 targets, ") {
		t.Errorf("the job summary: %v\n%s", err, summary)
	}
	if des, err := os.ReadDir(filepath.Join(mod, "kept", "example.com", "a", "FuzzFind")); err != nil || len(des) == 0 {
		t.Errorf("the kept corpus of FuzzFind: %d entries, %v", len(des), err)
	}
	for _, name := range []string{"cover.out", "cover.html"} {
		if fi, err := os.Stat(filepath.Join(mod, "cov", name)); err != nil || fi.Size() == 0 {
			t.Errorf("coverage: %s: %v", name, err)
		}
	}
}
