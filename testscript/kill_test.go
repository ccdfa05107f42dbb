package testscript_test

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

var killRuns = flag.Int("kill", 0, "run TestKillSafety with this many interrupted runs (50 is the acceptance run)")

// TestKillSafety interrupts fuzzmin at random moments, half the time with
// SIGINT and half with SIGKILL, then lets a normal run finish, and checks
// what design.md promises: no failing input is lost, every file left in
// testdata is a corpus file that fails, and no temporary directory of
// fuzzmin or of the go command is left behind. It is slow (a minute or
// more), so it runs only when asked:
//
//	go test ./testscript -run KillSafety -kill=50
func TestKillSafety(t *testing.T) {
	if *killRuns == 0 {
		t.Skip("run with -kill=N")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "fuzzmin")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/fuzzmin").CombinedOutput(); err != nil {
		t.Fatalf("building fuzzmin: %v\n%s", err, out)
	}
	mod := filepath.Join(work, "mod")
	writeFiles(t, mod, killModule)
	tmp := filepath.Join(work, "tmp") // fuzzmin's TMPDIR: what is left there is a stray
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TMPDIR="+tmp, "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range *killRuns {
		restoreOriginals(t, mod) // so that every run has work to be interrupted in
		cmd := exec.Command(bin, "./...")
		cmd.Dir, cmd.Env = mod, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Millisecond)
		sig := syscall.SIGINT
		if i%2 == 1 {
			sig = syscall.SIGKILL
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		checkCorpus(t, mod, fmt.Sprintf("after run %d (%v)", i, sig))
	}
	cmd := exec.Command(bin, "./...")
	cmd.Dir, cmd.Env = mod, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the normal run after the kills: %v\n%s", err, out)
	}
	checkCorpus(t, mod, "after the normal run")
	checkFailing(t, mod, env)
	strays, _ := os.ReadDir(tmp)
	for _, de := range strays {
		t.Errorf("left in TMPDIR: %s", de.Name())
	}
	// In /dev/shm, shared with whatever else runs: a directory of fuzzmin's
	// whose lock nobody holds is a stray.
	shm, _ := os.ReadDir("/dev/shm")
	for _, de := range shm {
		if !strings.HasPrefix(de.Name(), "fuzzmin-") {
			continue
		}
		f, err := os.Open(filepath.Join("/dev/shm", de.Name(), ".fuzzmin-lock"))
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			t.Errorf("left in /dev/shm: %s", de.Name())
		}
		f.Close()
	}
}

// checkCorpus checks that every file of the corpus directories is a corpus
// file (no temporary file, no half-written file) and that each target still
// has an entry.
func checkCorpus(t *testing.T, mod, when string) {
	t.Helper()
	for _, target := range []string{"FuzzA", "FuzzB"} {
		dir := filepath.Join(mod, "testdata", "fuzz", target)
		des, err := os.ReadDir(dir)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		failing := 0
		for _, de := range des {
			data, err := os.ReadFile(filepath.Join(dir, de.Name()))
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			if _, err := encoding.Unmarshal(data); err != nil {
				t.Fatalf("%s: %s/%s is not a corpus file: %v", when, target, de.Name(), err)
			}
			if de.Name() != "passing" {
				failing++
			}
		}
		if failing == 0 {
			t.Fatalf("%s: %s has no failing entry left: %v", when, target, des)
		}
	}
}

// checkFailing checks with go test that every entry but "passing" fails
// with its target's bug.
func checkFailing(t *testing.T, mod string, env []string) {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run=Fuzz", ".")
	cmd.Dir, cmd.Env = mod, env
	out, _ := cmd.CombinedOutput()
	for _, target := range []string{"FuzzA", "FuzzB"} {
		des, _ := os.ReadDir(filepath.Join(mod, "testdata", "fuzz", target))
		for _, de := range des {
			verdict := "FAIL"
			if de.Name() == "passing" {
				verdict = "PASS"
			}
			re := regexp.MustCompile(`--- ` + verdict + `: ` + target + `/` + regexp.QuoteMeta(de.Name()) + ` `)
			if !re.Match(out) {
				t.Errorf("%s/%s: want %s under go test:\n%s", target, de.Name(), verdict, out)
			}
		}
	}
}

// restoreOriginals puts the unminimized entries back under their names.
func restoreOriginals(t *testing.T, mod string) {
	t.Helper()
	files := map[string]string{}
	for name, data := range killModule {
		if strings.HasPrefix(name, "testdata/") {
			files[name] = data
		}
	}
	writeFiles(t, mod, files)
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// killModule is the module the kill test minimizes: two targets whose
// candidates take a few milliseconds each, so that runs last long enough to
// be interrupted in every phase.
var killModule = map[string]string{
	"go.mod": "module example.com/kill\n\ngo 1.26\n",
	"x_test.go": `package kill

import (
	"strings"
	"testing"
	"time"
)

func FuzzA(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, s string) {
		time.Sleep(2 * time.Millisecond)
		if n > 1000 {
			t.Fatalf("big %d", n)
		}
	})
}

func FuzzB(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		time.Sleep(2 * time.Millisecond)
		if strings.Contains(s, "!") {
			panic("bang")
		}
	})
}
`,
	"testdata/fuzz/FuzzA/a1":      "go test fuzz v1\nint(987654321)\nstring(\"some text that does not matter at all\")\n",
	"testdata/fuzz/FuzzA/a2":      "go test fuzz v1\nint(55555)\nstring(\"more text\")\n",
	"testdata/fuzz/FuzzA/passing": "go test fuzz v1\nint(3)\nstring(\"\")\n",
	"testdata/fuzz/FuzzB/b1":      "go test fuzz v1\nstring(\"a long line with a bang! somewhere in the middle of it\")\n",
}
