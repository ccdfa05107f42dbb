package testscript_test

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/gotooltest"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fuzzmin/fuzzmin/internal/cli"
	"github.com/fuzzmin/fuzzmin/internal/vetcheck"
)

var update = flag.Bool("update", false, "rewrite the scripts' expected files from the actual output")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fuzzmin":     func() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) },
		"withshm":     func() { os.Exit(withShm(os.Args[1:])) },
		"fuzzmin-vet": vetcheck.Main,
	})
}

func TestScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("the scripts build and run test binaries with the go command")
	}
	modCache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOMODCACHE: %v", err)
	}
	// The release of the go command the scripts run (GOTOOLCHAIN=local),
	// as $GOVERSION: go1.26.8.
	goCmd := exec.Command("go", "env", "GOVERSION")
	goCmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	goVersion, err := goCmd.Output()
	if err != nil {
		t.Fatalf("go env GOVERSION: %v", err)
	}
	// fuzzmin's cache, shared by the scripts as GOCACHE is: the standard
	// library's templates are read once. (Each script's packages are its
	// own, and so are their binaries.)
	fuzzminCache := t.TempDir()
	p := testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Setup: func(e *testscript.Env) error {
			// A script is a module without requirements, as a rule:
			// nothing to download, no go.sum to keep, no workspace from
			// outside, and no network, even when a script names a package
			// that does not exist.
			e.Setenv("GOFLAGS", "-mod=mod")
			e.Setenv("GOWORK", "off")
			// A script whose module requires modules users have
			// (go-cmp, testify) sets GOPROXY=$PROXY and
			// GOMODCACHE=$MODCACHE: the module proxy this machine uses,
			// and its module cache, so that each is downloaded once.
			e.Setenv("PROXY", e.Getenv("GOPROXY"))
			e.Setenv("MODCACHE", strings.TrimSpace(string(modCache)))
			e.Setenv("GOPROXY", "off")
			e.Setenv("GOTOOLCHAIN", "local")
			// testscript sets GOTRACEBACK=system; fuzzmin's users mostly
			// run with the default, which the scripts use too.
			// traceback.txtar covers the other levels.
			e.Setenv("GOTRACEBACK", "single")
			e.Setenv("GOVERSION", strings.TrimSpace(string(goVersion)))
			e.Setenv("FUZZMINCACHE", fuzzminCache)
			return nil
		},
	}
	p.Condition = func(cond string) (bool, error) {
		switch cond {
		case "root": // permissions do not stop root
			return os.Geteuid() == 0, nil
		case "mount": // the script may mount file systems (tmpfs)
			return canMount(), nil
		case "race": // go test -race works here (cmd/internal/sys.RaceDetectorSupported, in part)
			switch runtime.GOOS + "/" + runtime.GOARCH {
			case "linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64", "windows/amd64", "freebsd/amd64":
				return true, nil
			}
			return false, nil
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	p.Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"usefuzzmin": cmdUseFuzzmin,
		"without":    cmdWithout,
		"tmpfs":      cmdTmpfs,
		"pin":        cmdPin,
		"sleep":      cmdSleep,
		"ls":         cmdLs,
		"status":     cmdStatus,
		"unhex":      cmdUnhex,
		"waitfile":   cmdWaitfile,
		"signal":     cmdSignal,
		"within":     cmdWithin,
	}
	if err := gotooltest.Setup(&p); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, p)
}

// cmdUseFuzzmin lets the script's module import this repository's
// packages (fuzzshrink), offline: "usefuzzmin" writes a go.work using the
// module in the current directory and this repository, points GOWORK at it,
// and takes the module cache of the machine, where the repository's own
// requirements already are.
func cmdUseFuzzmin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: usefuzzmin")
	}
	root, err := filepath.Abs("..")
	ts.Check(err)
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	ts.Check(err)
	work := ts.MkAbs("go.work")
	ts.Check(os.WriteFile(work, []byte("go 1.26.0\n\nuse (\n\t.\n\t"+root+"\n)\n"), 0o666))
	ts.Setenv("GOWORK", work)
	ts.Setenv("GOFLAGS", "") // -mod=mod is not allowed in workspace mode
	ts.Setenv("GOMODCACHE", strings.TrimSpace(string(out)))
}

// cmdWithout takes a program away from the script: "without git" drops
// from PATH every directory that holds an executable of that name, as on a
// machine without it, keeping the others (fuzzmin's and the go command's).
func cmdWithout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: without program")
	}
	var keep []string
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, args[0])); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			continue
		}
		keep = append(keep, dir)
	}
	ts.Setenv("PATH", strings.Join(keep, string(filepath.ListSeparator)))
}

// cmdLs lists a directory: "ls dir" prints the names of its entries, hidden
// ones included, sorted, one a line, with a slash after directories, so that
// a script can check that a directory holds exactly the files it expects
// (cmp stdout want) or nothing at all (! stdout .), on every system.
func cmdLs(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! ls")
	}
	if len(args) != 1 {
		ts.Fatalf("usage: ls dir")
	}
	out := ts.Stdout() // also when the directory is empty: stdout is then empty
	des, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, de := range des { // sorted by name
		name := de.Name()
		if de.IsDir() {
			name += "/"
		}
		fmt.Fprintln(out, name)
	}
}

// cmdUnhex writes a binary file from hex: "unhex in out" reads in, hex
// digits separated by white space, with comments from # to the end of a
// line, and writes the bytes to out, so that a script can hold a raw
// testcase and say what each of its bytes is for.
func cmdUnhex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unhex in out")
	}
	var digits strings.Builder
	for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
		line, _, _ = strings.Cut(line, "#")
		digits.WriteString(strings.Join(strings.Fields(line), ""))
	}
	data, err := hex.DecodeString(digits.String())
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), data, 0o666))
}

// cmdWithin is exec with a time limit: "within 20s prog args..." runs prog
// as exec does (stdout, stderr and ! as for exec) and then fails if it ran
// longer than the limit, for the phases whose speed is part of what they
// test. It does not stop the program: the limit is a check, not a kill.
func cmdWithin(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: within duration program [args...]")
	}
	limit, err := time.ParseDuration(args[0])
	ts.Check(err)
	start := time.Now()
	err = ts.Exec(args[1], args[2:]...)
	took := time.Since(start)
	switch {
	case err != nil && !neg:
		ts.Logf("[%v]", err)
		ts.Fatalf("unexpected command failure")
	case err == nil && neg:
		ts.Fatalf("unexpected command success")
	case err != nil:
		ts.Logf("[%v]", err)
	}
	if took > limit {
		ts.Fatalf("%s took %v, more than %v", args[1], took.Round(time.Millisecond), limit)
	}
}

// cmdStatus is exec that checks the exit status: "status 2 prog args..."
// runs prog as exec does and fails unless it exits with status 2, for the
// commands whose exit status is part of their contract (fuzzmin: 0 done,
// 1 some entry not minimized, 2 usage or build error), where "! exec"
// would accept any failure.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status code program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cmdSleep waits: "sleep duration". Signals sent in a row may reach a
// process as one; a script that sends two sleeps between them.
func cmdSleep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleep duration")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}

// cmdSignal sends a signal testscript's kill does not know: "signal HUP
// file" sends SIGHUP (or QUIT, TERM, INT) to the process whose id the file
// holds, as the test processes fuzzmin starts can write it (FUZZMIN_PID).
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal HUP|QUIT|TERM|INT pidfile")
	}
	sig, ok := map[string]os.Signal{"HUP": syscall.SIGHUP, "QUIT": syscall.SIGQUIT, "TERM": syscall.SIGTERM, "INT": syscall.SIGINT}[args[0]]
	if !ok {
		ts.Fatalf("signal: unknown signal %s", args[0])
	}
	// The code under test may have created the file and not yet written
	// the id (os.WriteFile), which waitfile does not wait for.
	var pid int
	var err error
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var data []byte
		if data, err = os.ReadFile(ts.MkAbs(args[1])); err == nil {
			pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	ts.Check(err)
	p, err := os.FindProcess(pid)
	ts.Check(err)
	ts.Check(p.Signal(sig))
}

// cmdWaitfile waits for a file to appear: "waitfile path [timeout]" polls
// until path exists, and fails after timeout (default 60s). With a
// background command (exec ... &name&) and kill, it lets a script
// interrupt fuzzmin at a chosen moment, which the code under test marks
// by creating the file.
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! waitfile")
	}
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile path [timeout]")
	}
	timeout := time.Minute
	if len(args) == 2 {
		var err error
		timeout, err = time.ParseDuration(args[1])
		ts.Check(err)
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear within %v", args[0], timeout)
		}
	}
}
