package testbin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// A testProcess is a test binary started by a runner, whose output goes to
// a callback line by line.
type testProcess struct {
	cmd      *exec.Cmd
	pr       *os.File
	readDone chan struct{}
}

// startTest starts the test binary with args and one more environment
// variable, in the runner's working directory and a process group of its
// own, and calls line from another goroutine with each line of its output:
// stdout and stderr together, in the order written.
func (r *Runner) startTest(args []string, env string, line func([]byte)) (*testProcess, error) {
	cmd := exec.Command(r.Path, args...)
	cmd.Dir = r.work
	cmd.Env = append(r.Env, env, commandEnv())
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGKILL)
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return nil, fmt.Errorf("running the test binary: %w", err)
	}
	p := &testProcess{cmd: cmd, pr: pr, readDone: make(chan struct{})}
	go func() {
		defer close(p.readDone)
		readLines(pr, line)
	}()
	return p, nil
}

// kill kills the process and all it started.
func (p *testProcess) kill() { killProcessGroup(p.cmd) }

// wait waits for the process to end and its output to be read, calling
// hung every interval meanwhile: if it returns true, the process is killed.
// It returns the exit code, -1 if the process was killed. If ctx is done
// first, it kills the process and returns ctx.Err().
//
// The output ends when every process holding the pipe has closed it: a
// child the test started and left running (a server, a sleep) may hold it
// long after the test process is gone. So once the test process has
// exited, its process group is killed, and the output is read for at most
// orphanGrace more.
func (p *testProcess) wait(ctx context.Context, interval time.Duration, hung func() bool) (int, error) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	defer p.pr.Close()
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = p.cmd.Wait()
		close(exited)
	}()
	var grace <-chan time.Time
	for waiting := exited; ; {
		select {
		case <-p.readDone:
			<-exited
			var ee *exec.ExitError
			if errors.As(waitErr, &ee) {
				return ee.ExitCode(), nil
			}
			return 0, waitErr
		case <-waiting:
			p.kill() // what it left running
			grace, waiting = time.After(orphanGrace), nil
		case <-grace:
			p.pr.Close() // ends readLines, and so readDone
			grace = nil
		case <-ctx.Done():
			p.kill()
			p.pr.Close()
			<-p.readDone
			<-exited
			return -1, ctx.Err()
		case <-tick.C:
			if hung() {
				p.kill()
			}
		}
	}
}

// orphanGrace is how long the output of a test process that has exited is
// read, once what it left running is killed.
const orphanGrace = time.Second

// memPoll is how often a process's memory is read against the limit
// (Binary.MemLimit): a process that allocates a gigabyte a second grows
// by 20 MB past it at most.
const memPoll = 20 * time.Millisecond

// GoCommand returns a go command run in dir with env. Canceling ctx
// interrupts the go command and what it runs, as Ctrl-C in a terminal
// would, so that it removes its temporary files; it is killed if it has
// not ended 10 seconds later, and interrupted if fuzzmin dies.
func GoCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := goCommand(ctx, dir, env, args...)
	cmd.Cancel = func() error { return interruptProcessGroup(cmd) }
	return cmd
}

// GoFuzzCommand is GoCommand for a go test -fuzz run. Its cancel
// interrupts the test binary that coordinates the fuzzing, and the go
// command, but not the fuzz workers: a worker interrupted in the middle of
// an input before the coordinator knows it is stopping is taken for one
// that crashed, and its input is written as a failing entry (the toolchain
// spares only a worker that waits for input, internal/fuzz/worker.go). The
// coordinator stops its workers itself. Where the coordinator cannot be
// found (not Linux, or still building), the whole group is interrupted, as
// a terminal's ^C does.
func GoFuzzCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := goCommand(ctx, dir, env, args...)
	cmd.Cancel = func() error {
		pids := fuzzCoordinators(cmd.Process.Pid)
		if len(pids) == 0 {
			return interruptProcessGroup(cmd)
		}
		for _, pid := range pids {
			if p, err := os.FindProcess(pid); err == nil {
				p.Signal(os.Interrupt)
			}
		}
		return cmd.Process.Signal(os.Interrupt)
	}
	return cmd
}

func goCommand(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = env
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGINT)
	cmd.WaitDelay = 10 * time.Second
	return cmd
}
