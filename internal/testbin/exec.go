package testbin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/session"
)

// Each package's test binary is linked once, by the go test run that also
// checks the results (linking is most of the time fuzzmin spends on a
// small entry). fuzzmin starts
//
//	go test -vet=off -count=1 -timeout=0 -exec='<fuzzmin> __exec <ctl>' -run=<targets> <package>
//
// go test builds the test binary and runs, in the package directory, the
// exec wrapper (fuzzmin __exec <ctl> <binary> <args…>), which writes the
// binary's path into the control directory ctl and waits. fuzzmin searches
// with that binary, and as each result is written asks the wrapper to
// check it: a batch of checks, checks-<n>.json, which the wrapper runs one
// process each, with go test's arguments but the -test.run of the check,
// recording each run's output and exit status in ctl (its output also
// reaches go test) and then done-<n>. When the package is done, the file
// end ends the wrapper, which exits with the status of the last run that
// failed. So the check of every written entry is a run of the test binary
// by go test, in the package's directory, with go test's environment and
// arguments.

// ExecArg is the hidden first argument that makes fuzzmin the exec wrapper.
const ExecArg = "__exec"

// The files of the control directory; n numbers the batches from 0.
const (
	ctlBinary = "binary.json"    // from the wrapper: execReady
	ctlChecks = "checks-%d.json" // from the command: a batch of checks to run, a []Check
	ctlDone   = "done-%d"        // from the wrapper: the batch ran; out-<n>-<i> and exit-<n>-<i> hold each check's run
	ctlEnd    = "end"            // from the command: no more batches
)

// execReady is what the wrapper says once go test has run it.
type execReady struct {
	Binary string   `json:"binary"`
	Args   []string `json:"args"` // go test's arguments for the binary
}

// A Check is one run of the test binary by go test: entries of one target
// that one process can run (entries that fail with t.Error or t.Fatal may
// share a process; one that panics, exits, hangs or dies ends its process
// and needs its own).
type Check struct {
	Target  string        `json:"target"`
	Names   []string      `json:"names"`
	Timeout time.Duration `json:"timeout"`
	// Run, if set, is the -test.run of the check instead of Target and
	// Names: a target's f.Add seeds (^FuzzX$/^seed#), a test (^TestX$).
	Run string `json:"run,omitempty"`
	// Env is added to go test's environment for the check's run.
	Env []string `json:"env,omitempty"`
	// MemLimit, if not 0, bounds the test process's resident memory as
	// Binary.MemLimit does candidates': the check judges as the search did.
	MemLimit int64 `json:"memLimit,omitempty"`
}

// exitMemory is the exit status a check reports for a test process the
// memory limit killed.
const exitMemory = -2

// A CheckOutput is the output and exit status of a check's run.
type CheckOutput struct {
	Out  []byte
	Exit int
}

// A Build is the go test run of one package: it has built the test binary,
// runs checks when told which (Check), and ends when told (Finish).
type Build struct {
	Binary string   // the test binary
	Args   []string // go test's arguments for it
	cmd    *exec.Cmd
	ctl    string
	out    bytes.Buffer // go test's own output
	exited chan error
	batch  int   // batches asked for
	err    error // why go test cannot check any more
}

// StartBuild starts the go test run of a package and waits until its test
// binary is built. goCmd makes a go command with the given arguments, run
// as the user's; flags are go test's flags for the package (-tags) and its
// arguments. A build that fails ends it; the error, a *BuildError, then
// holds go test's output. ctl is a directory for the files of the link
// between fuzzmin and its exec wrapper. out, if not "", is where go test
// writes the binary (-o), and skips the link if the binary there is up to
// date. Once built, the run lives as long as the context of its go
// command, not ctx: ctx only ends the build.
func StartBuild(ctx context.Context, goCmd func(args ...string) *exec.Cmd, ctl, out string, targets, flags []string) (*Build, error) {
	self, err := selfPath()
	if err != nil {
		return nil, err
	}
	s := &Build{ctl: ctl, exited: make(chan error, 1)}
	args := []string{"test", "-vet=off", "-count=1", "-timeout=0",
		"-exec=" + quoteField(self) + " " + ExecArg + " " + quoteField(ctl),
		"-run=^(" + strings.Join(targets, "|") + ")$"}
	if out != "" {
		args = append(args, "-o", out)
	}
	s.cmd = goCmd(append(args, flags...)...)
	s.cmd.Env = append(s.cmd.Env, commandEnv())
	s.cmd.Stdout, s.cmd.Stderr = &s.out, &s.out
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.exited <- s.cmd.Wait() }()
	for {
		select {
		case err := <-s.exited:
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, &BuildError{Output: strings.TrimSpace(s.out.String()), err: err}
		case <-ctx.Done():
			if s.cmd.Cancel != nil {
				s.cmd.Cancel()
			} else {
				s.cmd.Process.Kill()
			}
			<-s.exited
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
		var ready execReady
		b, err := os.ReadFile(filepath.Join(ctl, ctlBinary))
		if err == nil && json.Unmarshal(b, &ready) == nil {
			s.Binary, s.Args = ready.Binary, ready.Args
			return s, nil
		}
	}
}

// A BuildError is go test failing before it ran the test binary.
type BuildError struct {
	Output string // go test's
	err    error
}

func (e *BuildError) Error() string { return e.Output }

func (e *BuildError) Unwrap() error { return e.err }

// Check runs the checks through go test and returns the output of each.
func (s *Build) Check(ctx context.Context, checks []Check) ([]CheckOutput, error) {
	if s.err != nil {
		return nil, s.err
	}
	n := s.batch
	s.batch++
	b, err := json.Marshal(checks)
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(s.ctl, fmt.Sprintf(ctlChecks, n)), b); err != nil {
		return nil, err
	}
	done := filepath.Join(s.ctl, fmt.Sprintf(ctlDone, n))
	for {
		if _, err := os.Stat(done); err == nil {
			break
		}
		select {
		case err := <-s.exited:
			s.err = fmt.Errorf("go test ended before it ran the check (%v):\n%s", err, s.out.String())
			s.exited <- err // for Finish
			return nil, s.err
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	outs := make([]CheckOutput, len(checks))
	for i := range checks {
		out, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprintf("out-%d-%d", n, i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the check: %v", err)
		}
		code, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprintf("exit-%d-%d", n, i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the check: %v", err)
		}
		outs[i].Out = out
		outs[i].Exit, _ = strconv.Atoi(string(code))
	}
	return outs, nil
}

// finishGrace is how long go test may take to end once told to: the exec
// wrapper ends at once, and go test prints its summary and exits.
const finishGrace = 30 * time.Second

// Finish ends the go test run, and waits for it: for finishGrace at most,
// after which it ends the run's processes, which a test left running may
// keep alive.
func (s *Build) Finish(ctx context.Context) error {
	if err := writeFileAtomic(filepath.Join(s.ctl, ctlEnd), nil); err != nil {
		return err
	}
	t := time.NewTimer(finishGrace)
	defer t.Stop()
	select {
	case <-s.exited:
		return nil
	case <-ctx.Done():
	case <-t.C:
	}
	killProcessGroup(s.cmd)
	<-s.exited // Wait gives up on the output after the command's WaitDelay
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("go test did not end within %v of the last check; its processes were ended", finishGrace)
}

// RunExecWrapper is fuzzmin as go test's -exec program (see above). args
// are the control directory, the test binary and go test's arguments. It
// returns the exit code.
func RunExecWrapper(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintf(stderr, "fuzzmin %s: want a control directory and a test binary\n", ExecArg)
		return 2
	}
	ctl, bin, binArgs := args[0], args[1], args[2:]
	b, _ := json.Marshal(execReady{Binary: bin, Args: binArgs})
	if err := writeFileAtomic(filepath.Join(ctl, ctlBinary), b); err != nil {
		fmt.Fprintf(stderr, "fuzzmin %s: %v\n", ExecArg, err)
		return 1
	}
	parent, _ := strconv.Atoi(os.Getenv(session.CommandEnv))
	code := 0
	for n := 0; ; n++ {
		checks, ok := awaitChecks(ctl, n, parent)
		if !ok {
			return code
		}
		for i, ch := range checks {
			exit, out := runCheck(bin, binArgs, ch, stdout)
			if exit != 0 {
				code = max(exit, 1)
			}
			os.WriteFile(filepath.Join(ctl, fmt.Sprintf("out-%d-%d", n, i)), out, 0o666)
			writeFileAtomic(filepath.Join(ctl, fmt.Sprintf("exit-%d-%d", n, i)), []byte(strconv.Itoa(exit)))
		}
		writeFileAtomic(filepath.Join(ctl, fmt.Sprintf(ctlDone, n)), nil)
	}
}

// awaitChecks waits for batch n of checks, and returns false if the run
// ends instead: fuzzmin said so, or is gone, and nobody will say what to
// run.
func awaitChecks(ctl string, n, parent int) ([]Check, bool) {
	for {
		var checks []Check
		b, err := os.ReadFile(filepath.Join(ctl, fmt.Sprintf(ctlChecks, n)))
		if err == nil && json.Unmarshal(b, &checks) == nil {
			return checks, true
		}
		if _, err := os.Stat(filepath.Join(ctl, ctlEnd)); err == nil {
			return nil, false
		}
		if parent > 0 && !alive(parent) {
			return nil, false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// runCheck runs the test binary on one check and returns its exit status
// (-1 if it died) and output, which also goes to stdout.
func runCheck(bin string, binArgs []string, ch Check, stdout io.Writer) (int, []byte) {
	run := "-test.run=^" + ch.Target + "$/^(" + joinNames(ch.Names) + ")$"
	if ch.Run != "" {
		run = "-test.run=" + ch.Run
	}
	cmd := exec.Command(bin, checkArgs(binArgs, run, ch.Timeout)...)
	if len(ch.Env) > 0 {
		cmd.Env = append(os.Environ(), ch.Env...)
	}
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(&out, stdout)
	cmd.Stderr = cmd.Stdout
	cmd.WaitDelay = orphanGrace // a child it left may hold the output open
	// In a process group of its own, so that what it leaves running can be
	// ended; it dies with the wrapper.
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGKILL)
	var overLimit atomic.Bool
	err := cmd.Start()
	if err == nil {
		if ch.MemLimit > 0 {
			stop := make(chan struct{})
			defer close(stop)
			go func() {
				tick := time.NewTicker(memPoll)
				defer tick.Stop()
				for {
					select {
					case <-stop:
						return
					case <-tick.C:
						if rss(cmd.Process.Pid) > ch.MemLimit {
							overLimit.Store(true)
							killProcessGroup(cmd)
							return
						}
					}
				}
			}()
		}
		err = cmd.Wait()
	}
	killProcessGroup(cmd)
	exit := 0
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		exit = -1
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			exit = ee.ExitCode()
		}
	}
	if overLimit.Load() {
		exit = exitMemory
	}
	return exit, out.Bytes()
}

// checkArgs returns go test's arguments for the binary with run and
// timeout in place of its own -test.run and -test.timeout, and the framing
// of test2json, which the parser reads.
func checkArgs(args []string, run string, timeout time.Duration) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-test.run=") && !strings.HasPrefix(a, "-test.timeout=") && !strings.HasPrefix(a, "-test.v=") {
			out = append(out, a)
		}
	}
	return append(out, run, "-test.timeout="+timeout.String(), "-test.v=test2json")
}

// selfPath returns the path of the fuzzmin command, as it was started (not
// resolved through links, which a testscript or a multi-call binary may
// use to tell commands apart).
func selfPath() (string, error) {
	if filepath.IsAbs(os.Args[0]) {
		return os.Args[0], nil
	}
	if p, err := exec.LookPath(os.Args[0]); err == nil {
		return filepath.Abs(p)
	}
	return os.Executable()
}

// quoteField quotes a word for go test's -exec, which splits its value
// into words by Go's quoting rules.
func quoteField(s string) string {
	if !strings.ContainsAny(s, " \t\n'\"\\") {
		return s
	}
	return strconv.Quote(s)
}

// writeFileAtomic writes a file that a reader polling for it must never
// see half written.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o666); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// commandEnv is session.CommandEnv for a process this command starts.
func commandEnv() string { return session.CommandEnv + "=" + strconv.Itoa(os.Getpid()) }
