package cli

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

// execArg is the hidden first argument that makes fuzzmin the exec wrapper.
const execArg = "__exec"

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

// An execCheck is one run of the test binary in the final check: the
// entries of one target that one process can run (the entries that fail
// with t.Error or t.Fatal share a process; one that panics, exits, hangs
// or dies ends its process and gets its own).
type execCheck struct {
	Target  string        `json:"target"`
	Names   []string      `json:"names"`
	Timeout time.Duration `json:"timeout"`
}

// checkOutput is the output and exit status of a check's run.
type checkOutput struct {
	out  []byte
	exit int
}

// An execSession is the go test run of one package.
type execSession struct {
	cmd    *exec.Cmd
	ctl    string
	ready  execReady
	out    bytes.Buffer // go test's own output
	exited chan error
}

// startExec starts the go test run of p and waits until its test binary is
// built. A build that fails ends it; the error then holds go test's output.
func (c *command) startExec(ctx context.Context, p *pkg, ctl string, targets []string) (*execSession, error) {
	self, err := selfPath()
	if err != nil {
		return nil, err
	}
	s := &execSession{ctl: ctl, exited: make(chan error, 1)}
	args := []string{"test", "-vet=off", "-count=1", "-timeout=0",
		"-exec=" + quoteField(self) + " " + execArg + " " + quoteField(ctl),
		"-run=^(" + strings.Join(targets, "|") + ")$"}
	args = append(append(args, c.tagsFlag()...), p.Args...)
	s.cmd = c.goCommand(ctx, args...)
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
			return nil, &buildError{out: strings.TrimSpace(s.out.String()), err: err}
		case <-time.After(10 * time.Millisecond):
		}
		b, err := os.ReadFile(filepath.Join(ctl, ctlBinary))
		if err == nil && json.Unmarshal(b, &s.ready) == nil {
			return s, nil
		}
	}
}

// A buildError is go test failing before it ran the test binary.
type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.out }

// finish runs the checks through go test, or none, and returns the output
// of each. It ends the go test run.
func (s *execSession) finish(ctx context.Context, checks []execCheck) ([]checkOutput, error) {
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
	outs := make([]checkOutput, len(checks))
	for i := range checks {
		out, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprint("out-", i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the final check: %v\n%s", err, s.out.String())
		}
		code, err := os.ReadFile(filepath.Join(s.ctl, fmt.Sprint("exit-", i)))
		if err != nil {
			return nil, fmt.Errorf("go test did not run the final check: %v\n%s", err, s.out.String())
		}
		outs[i].out = out
		outs[i].exit, _ = strconv.Atoi(string(code))
	}
	return outs, nil
}

// runExecWrapper is fuzzmin as go test's -exec program (see above). args
// are the control directory, the test binary and go test's arguments.
func runExecWrapper(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintf(stderr, "fuzzmin %s: want a control directory and a test binary\n", execArg)
		return exitUsage
	}
	ctl, bin, binArgs := args[0], args[1], args[2:]
	b, _ := json.Marshal(execReady{Binary: bin, Args: binArgs})
	if err := writeFileAtomic(filepath.Join(ctl, ctlBinary), b); err != nil {
		fmt.Fprintf(stderr, "fuzzmin %s: %v\n", execArg, err)
		return exitFailure
	}
	parent, _ := strconv.Atoi(os.Getenv("FUZZMIN_PID"))
	var checks []execCheck
	for {
		b, err := os.ReadFile(filepath.Join(ctl, ctlChecks))
		if err == nil && json.Unmarshal(b, &checks) == nil {
			break
		}
		if parent > 0 && !alive(parent) {
			return exitFailure // fuzzmin is gone: nobody will say what to run
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
		exit := 0
		if err := cmd.Run(); err != nil {
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
