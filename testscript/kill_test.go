package testscript_test

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

var killRuns = flag.Int("kill", 0, "run TestKillSafety with this many interrupted runs (60 is the acceptance run)")

// killCommands are the runs the kill test interrupts, in turn: each writes
// or removes corpus files its own way.
var killCommands = [][]string{
	{"./..."},
	{"import", "-run=FuzzA", "../crash"},
	{"migrate", "-run=FuzzM", "-arg=@1", `-arg=string("")`},
	{"cmin", "-fuzzcache=../fc", "-run=FuzzA"},
	{"check", "-minimal", "./..."},
	{"fuzz", "-fuzztime=5s", "./..."},
}

// TestKillSafety interrupts fuzzmin at random moments with SIGINT, SIGTERM,
// SIGHUP, SIGQUIT or SIGKILL, in each of its commands that write (minimize,
// import, migrate, cmin, fuzz) and in check, then lets a normal run of each
// finish, and checks what
// design.md promises: no failing input is lost, every file left in
// testdata or the fuzz cache is a corpus file, the failing ones fail, the
// module holds nothing it did not (testdata/fuzz holds only the targets'
// directories, after every run but one SIGKILL ended, and at the end), and
// no temporary directory of fuzzmin or of the go command is left behind. It is slow (a minute or more), so it
// runs only when asked:
//
//	go test ./testscript -run KillSafety -kill=60
func TestKillSafety(t *testing.T) {
	if *killRuns == 0 {
		t.Skip("run with -kill=N")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "fuzzmin")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/fuzzmin").CombinedOutput(); err != nil {
		t.Fatalf("building fuzzmin: %v\n%s", err, out)
	}
	writeFiles(t, work, killModule)
	mod := filepath.Join(work, "mod")
	tmp := filepath.Join(work, "tmp") // fuzzmin's TMPDIR: what is left there is a stray
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "FUZZMINCACHE="+filepath.Join(work, "cache"), "TMPDIR="+tmp, "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	signals := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGKILL}
	counts := map[string]int{}
	for i := range *killRuns {
		restoreOriginals(t, work) // so that every run has work to be interrupted in
		before := listEntries(mod)
		args := killCommands[i%len(killCommands)]
		sig := signals[rng.IntN(len(signals))]
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = mod, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wait := 3 * time.Second
		if args[0] == "fuzz" {
			// Past the budget, so that some interrupts land in the
			// campaign's coverage and report.
			wait = 8 * time.Second
		}
		time.Sleep(time.Duration(rng.Int64N(int64(wait))))
		cmd.Process.Signal(sig)
		cmd.Wait()
		counts[fmt.Sprintf("%s %v", args[0], sig)]++
		when := fmt.Sprintf("after run %d (fuzzmin %s, %v)", i, strings.Join(args, " "), sig)
		checkCorpus(t, work, when)
		checkNamed(t, mod, before, out.String(), when)
		if sig != syscall.SIGKILL {
			// A run that could clean up did. (What a SIGKILL left, the
			// next run that writes the corpus removes.)
			checkNoTemporary(t, mod, when, cmd.Process.Pid)
		}
	}
	t.Logf("interrupted runs: %v", counts)
	// The normal runs: migrate first, for go test refuses FuzzM's stale
	// entries until then.
	for _, k := range []int{2, 0, 1, 3} {
		args := killCommands[k]
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = mod, env
		if out, err := cmd.CombinedOutput(); err != nil && args[0] != "import" { // import: the entry may be there already
			t.Fatalf("the normal run of fuzzmin %s after the kills: %v\n%s", strings.Join(args, " "), err, out)
		}
		checkCorpus(t, work, "after the normal run of fuzzmin "+strings.Join(args, " "))
	}
	checkNoTemporary(t, mod, "after the normal runs", 0)
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

// checkCorpus checks that every file of the corpus directories and of the
// fuzz cache is a corpus file (no temporary file, no half-written file),
// that each target still has a failing entry and the cache its failing
// one, that each of FuzzM's entries is there in its old form or in its new
// one, and that the module holds no file outside testdata it did not hold.
func checkCorpus(t *testing.T, work, when string) {
	t.Helper()
	mod := filepath.Join(work, "mod")
	for _, dir := range []string{"mod/testdata/fuzz/FuzzA", "mod/testdata/fuzz/FuzzB", "mod/testdata/fuzz/FuzzM", "fc/example.com/kill/FuzzA"} {
		des, err := os.ReadDir(filepath.Join(work, dir))
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		failing := 0
		for _, de := range des {
			data, err := os.ReadFile(filepath.Join(work, dir, de.Name()))
			if err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			vals, err := encoding.Unmarshal(data)
			if err != nil {
				t.Fatalf("%s: %s/%s is not a corpus file: %v", when, dir, de.Name(), err)
			}
			if n, ok := vals[0].(int); ok && n > 1000 || strings.Contains(fmt.Sprint(vals...), "!") {
				failing++
			}
		}
		if failing == 0 && !strings.HasSuffix(dir, "FuzzM") {
			t.Fatalf("%s: %s has no failing entry left: %v", when, dir, des)
		}
	}
	for _, name := range []string{"m1", "m2"} {
		_, errOld := os.Stat(filepath.Join(mod, "testdata", "fuzz", "FuzzM", name))
		if _, errNew := os.Stat(filepath.Join(mod, "testdata", "fuzz", "FuzzM", migratedName[name])); errOld != nil && errNew != nil {
			t.Fatalf("%s: FuzzM/%s is gone, and so is its migrated entry %s", when, name, migratedName[name])
		}
	}
	filepath.WalkDir(mod, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(mod, path)
		if err != nil || d.IsDir() || strings.HasPrefix(filepath.ToSlash(rel), "testdata/") {
			return err
		}
		if _, ok := killModule["mod/"+filepath.ToSlash(rel)]; !ok {
			t.Errorf("%s: a stray file in the module: %s", when, rel)
		}
		return nil
	})
}

// listEntries returns the entries of FuzzA and FuzzB, as target/name.
func listEntries(mod string) map[string]bool {
	list := map[string]bool{}
	for _, target := range []string{"FuzzA", "FuzzB"} {
		des, _ := os.ReadDir(filepath.Join(mod, "testdata", "fuzz", target))
		for _, de := range des {
			list[target+"/"+de.Name()] = true
		}
	}
	return list
}

// checkNamed checks that every entry of FuzzA and FuzzB that the run
// wrote (that before does not list) is minimal (FuzzA's int(1001) and string(""), FuzzB's "!") or
// named in its output: an input left as it was, or the smallest value
// found before an interrupt.
func checkNamed(t *testing.T, mod string, before map[string]bool, out, when string) {
	t.Helper()
	minimal := map[string]bool{
		"go test fuzz v1\nint(1001)\nstring(\"\")\n": true,
		"go test fuzz v1\nstring(\"!\")\n":           true,
	}
	for _, target := range []string{"FuzzA", "FuzzB"} {
		dir := filepath.Join(mod, "testdata", "fuzz", target)
		des, _ := os.ReadDir(dir)
		for _, de := range des {
			if before[target+"/"+de.Name()] {
				continue
			}
			data, _ := os.ReadFile(filepath.Join(dir, de.Name()))
			if !minimal[string(data)] && !strings.Contains(out, de.Name()) {
				t.Errorf("%s: %s/%s is not minimal and the run did not name it:\n%s\n--- the run's output:\n%s", when, target, de.Name(), data, out)
			}
		}
	}
}

// checkNoTemporary checks that the module's testdata/fuzz holds nothing
// but the targets' directories: no file a write left beside them; with a
// process id, no file that process left (corpus.WriteFile names its
// temporary files .fuzzmin-<target>-<hash>.tmp<pid>-<random>).
func checkNoTemporary(t *testing.T, mod, when string, pid int) {
	t.Helper()
	des, err := os.ReadDir(filepath.Join(mod, "testdata", "fuzz"))
	if err != nil {
		t.Fatalf("%s: %v", when, err)
	}
	for _, de := range des {
		if !de.IsDir() && (pid == 0 || strings.Contains(de.Name(), fmt.Sprintf(".tmp%d-", pid))) {
			t.Errorf("%s: a stray file in testdata/fuzz: %s", when, de.Name())
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

// restoreOriginals puts the unminimized entries and the unmigrated ones
// back under their names, and the fuzz cache's entries.
func restoreOriginals(t *testing.T, work string) {
	t.Helper()
	files := map[string]string{}
	for name, data := range killModule {
		if strings.HasPrefix(name, "mod/testdata/") || strings.HasPrefix(name, "fc/") {
			files[name] = data
		}
	}
	writeFiles(t, work, files)
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

// killModule is what the kill test works on: a module of three targets
// whose candidates take a few milliseconds each, so that runs last long
// enough to be interrupted in every phase; FuzzM's entries need migrating
// (its signature gained a string); a crash to import; and a fuzz cache of
// FuzzA's for cmin.
var killModule = map[string]string{
	"mod/go.mod": "module example.com/kill\n\ngo 1.26\n",
	"mod/x.go": `package kill

// Big reports whether n is too big; its branches give cmin coverage to
// weigh entries by.
func Big(n int, s string) bool {
	switch {
	case n > 1000:
		return true
	case s == "":
		return false
	case s[0] == 'a':
		return false
	}
	return false
}
`,
	"mod/x_test.go": `package kill

import (
	"strings"
	"testing"
	"time"
)

func FuzzA(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, s string) {
		time.Sleep(2 * time.Millisecond)
		if Big(n, s) {
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

func FuzzM(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, s string) {})
}
`,
	"mod/testdata/fuzz/FuzzA/a1":      "go test fuzz v1\nint(987654321)\nstring(\"some text that does not matter at all\")\n",
	"mod/testdata/fuzz/FuzzA/a2":      "go test fuzz v1\nint(55555)\nstring(\"more text\")\n",
	"mod/testdata/fuzz/FuzzA/passing": "go test fuzz v1\nint(3)\nstring(\"\")\n",
	"mod/testdata/fuzz/FuzzB/b1":      "go test fuzz v1\nstring(\"a long line with a bang! somewhere in the middle of it\")\n",
	"mod/testdata/fuzz/FuzzM/m1":      "go test fuzz v1\nint(1)\n",
	"mod/testdata/fuzz/FuzzM/m2":      "go test fuzz v1\nint(2)\n",
	"crash":                           "go test fuzz v1\nint(4242424242)\nstring(\"an imported crash with some text in it\")\n",
	"fc/example.com/kill/FuzzA/c1":    "go test fuzz v1\nint(1)\nstring(\"\")\n",
	"fc/example.com/kill/FuzzA/c2":    "go test fuzz v1\nint(2)\nstring(\"a\")\n",
	"fc/example.com/kill/FuzzA/c3":    "go test fuzz v1\nint(3)\nstring(\"b\")\n",
	"fc/example.com/kill/FuzzA/c4":    "go test fuzz v1\nint(123456)\nstring(\"c\")\n",
}

// migratedName is the name of the migrated entry of each of FuzzM's: the
// toolchain's name of its new contents.
var migratedName = map[string]string{
	"m1": corpus.Name([]byte("go test fuzz v1\nint(1)\nstring(\"\")\n")),
	"m2": corpus.Name([]byte("go test fuzz v1\nint(2)\nstring(\"\")\n")),
}
