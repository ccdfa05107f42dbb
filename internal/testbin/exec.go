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
	"syscall"
	"time"
)

// Each package's test binary is linked once, by the go test run that also
// checks the results at the end (linking is most of the time fuzzmin spends
// on a small entry). fuzzmin starts
//
//	go test -vet=off -count=1 -timeout=0 -exec='<fuzzmin> __exec <ctl>' -run=<targets> <package>
//
// go test builds the test binary and runs, in the package directory, the
// exec wrapper (fuzzmin __exec <ctl> <binary> <args…>), which writes the
// binary's path into the control directory ctl and waits. fuzzmin searches
// with that binary, and when the package is done writes the checks to run:
// the wrapper runs the binary once per check, with go test's arguments but
// the -test.run of that check, records each run's output and exit status
// in ctl (its output also reaches go test), and exits with the status of
// the last run that failed. So the final check of every written entry is a
// run of the test binary by go test, in the package's directory, with go
// test's environment and arguments.

// ExecArg is the hidden first argument that makes fuzzmin the exec wrapper.
const ExecArg = "__exec"

// The files of the control directory.
const (
	ctlBinary = "binary.json" // from the wrapper: execReady
	ctlChecks = "checks.json" // from the command: the checks to run, a []execCheck
)

// execReady is what the wrapper says once go test has run it.
type execReady struct {
	Binary string   `json:"binary"`
	Args   []string `json:"args"` // go test's arguments for the binary
}

// A Check is one run of the test binary in the final check: the entries of
// one target that one process can run (the entries that fail with t.Error
// or t.Fatal share a process; one that panics, exits, hangs or dies ends
// its process and gets its own).
type Check struct {
	Target  string        `json:"target"`
	Names   []string      `json:"names"`
	Timeout time.Duration `json:"timeout"`
}

// A CheckOutput is the output and exit status of a check's run.
type CheckOutput struct {
	Out  []byte
	Exit int
}

// A Build is the go test run of one package: it has built the test binary,
// and runs the final checks when told which (Finish).
type Build struct {
	Binary string   // the test binary
	Args   []string // go test's arguments for it
	cmd    *exec.Cmd
	ctl    string
	out    bytes.Buffer // go test's own output
	exited chan error
}

// StartBuild starts the go test run of a package and waits until its test
// binary is built. goCmd makes a go command with the given arguments, run
// as the user's; flags are go test's flags for the package (-tags) and its
// arguments. A build that fails ends it; the error, a *BuildError, then
// holds go test's output. ctl is a directory for the files of the link
// between fuzzmin and its exec wrapper.
func StartBuild(ctx context.Context, goCmd func(args ...string) *exec.Cmd, ctl string, targets, flags []string) (*Build, error) {
	self, err := selfPath()
	if err != nil {
		return nil, err
	}
	s := &Build{ctl: ctl, exited: make(chan error, 1)}
	args := []string{"test", "-vet=off", "-count=1", "-timeout=0",
		"-exec=" + quoteField(self) + " " + ExecArg + " " + quoteField(ctl),
		"-run=^(" + strings.Join(targets, "|") + ")$"}
	s.cmd = goCmd(append(args, flags...)...)
	s.cmd.Env = append(s.cmd.Env, "FUZZMIN_PID="+strconv.Itoa(os.Getpid()))
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

// Finish runs the checks through go test, or none, and returns the output
// of each. It ends the go test run.
func (s *Build) Finish(ctx context.Context, checks []Check) ([]CheckOutput, error) {
	b, err := json.Marshal(checks)
	if err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(s.ctl, ctlChecks), b); err != nil {
		return nil, err
	}
	select {
	case <-s.exited:
	case <-ctx.Done():
		<-s.exited
		return nil, ctx.Err()
	}
	outs := make([]CheckOutput, len(checks))
	for i := range checks {
		out, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprint("out-", i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the final check: %v\n%s", err, s.out.String())
		}
		code, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprint("exit-", i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the final check: %v\n%s", err, s.out.String())
		}
		outs[i].Out = out
		outs[i].Exit, _ = strconv.Atoi(string(code))
	}
	return outs, nil
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
	parent, _ := strconv.Atoi(os.Getenv("FUZZMIN_PID"))
	var checks []Check
	for {
		b, err := os.ReadFile(filepath.Join(ctl, ctlChecks))
		if err == nil && json.Unmarshal(b, &checks) == nil {
			break
		}
		if parent > 0 && !alive(parent) {
			return 1 // fuzzmin is gone: nobody will say what to run
		}
		time.Sleep(10 * time.Millisecond)
	}
	code := 0
	for i, ch := range checks {
		run := "-test.run=^" + ch.Target + "$/^(" + joinNames(ch.Names) + ")$"
		cmd := exec.Command(bin, checkArgs(binArgs, run, ch.Timeout)...)
		var out bytes.Buffer
		cmd.Stdout = io.MultiWriter(&out, stdout)
		cmd.Stderr = cmd.Stdout
		cmd.WaitDelay = orphanGrace // a child it left may hold the output open
		// In a process group of its own, so that what it leaves running
		// can be ended; it dies with the wrapper.
		setProcessGroup(cmd)
		dieWithParent(cmd, syscall.SIGKILL)
		exit := 0
		err := cmd.Run()
		killProcessGroup(cmd)
		if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
			exit = -1
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				exit = ee.ExitCode()
			}
		}
		if exit != 0 {
			code = max(exit, 1)
		}
		os.WriteFile(filepath.Join(ctl, fmt.Sprint("out-", i)), out.Bytes(), 0o666)
		writeFileAtomic(filepath.Join(ctl, fmt.Sprint("exit-", i)), []byte(strconv.Itoa(exit)))
	}
	return code
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
