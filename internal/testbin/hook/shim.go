//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
	"unsafe"
)

// A worker that fuzzes past failures can be a shim, so that an input that
// ends its process (an exit, a fatal error of the runtime, a hang the
// watchdog ended) costs a process start, not a stop of the coordinator.
// The process the toolchain's coordinator starts as its worker does not
// run inputs: it starts the worker that does (the child: the same binary,
// arguments and shared memory), passes the coordinator's calls to it and
// its answers back. When the child ends in the middle of a call, the shim
// records the input it was running, which the child writes to the input
// log before it runs each (inputLog), as a crash of its kind (crashes);
// answers the call as if every input had passed with no new coverage (a
// minimization, as if it had kept the whole input, which the shim puts
// back in the shared memory); and starts another child for the next
// call. The coordinator never sees its worker end: it neither stops nor
// replays its corpus.
//
// The shim reads and writes the calls and answers of the toolchain's
// worker protocol (internal/fuzz/worker.go) and the header of its shared
// memory (mem.go) through the mirrors below, which fuzzmin checks against
// the source of the toolchain that built the binary before it sets ShimEnv
// (testbin's checkProtocol). The child ending outside an input, or by a
// signal the toolchain does not take for a crash (internal/fuzz's
// isCrashSignal), ends the shim the same way: the coordinator then does
// what it does with a worker that ended so.

// ShimEnv, set to 1, makes each worker of a run that fuzzes past failures
// a shim.
const ShimEnv = "FUZZMIN_FUZZ_SHIM"

// childEnv marks the worker a shim started.
const childEnv = "FUZZMIN_FUZZ_CHILD"

// logFD is the descriptor of the input log in the child, after the
// toolchain's three (internal/fuzz/sys_posix.go: getWorkerComm).
const logFD = 6

// minimizeArgs is internal/fuzz's, as far as the shim reads it.
type minimizeArgs struct {
	KeepCoverage []byte
}

// fuzzResponse and minimizeResponse are internal/fuzz's, as far as the
// shim answers for a child that ended.
type fuzzResponse struct {
	TotalDuration time.Duration
	Count         int64
}

type minimizeResponse struct {
	WroteToMem   bool
	CoverageData []byte
	Duration     time.Duration
	Count        int64
}

// sharedMemHeader is internal/fuzz's, field for field: the input follows
// it in the shared memory.
type sharedMemHeader struct {
	count              int64
	valueLen           int
	randState, randInc uint64
	rawInMem           bool
}

// call is a call of the coordinator's, as far as the shim reads it. The
// coordinator writes a call as a line of JSON (json.Encoder) of every
// field, in order, one of them set: {"Ping":null,"Fuzz":{…},"Minimize":null}.
// The shim tells them apart by the line's ends, and decodes only a call to
// minimize, which is small; a call to fuzz holds the coordinator's
// coverage, kilobytes a call.
type call struct {
	Ping, Fuzz *struct{}
	Minimize   *minimizeArgs
}

// readCall reads what line holds.
func readCall(line []byte) (call, error) {
	var c call
	var err error
	line = bytes.TrimSuffix(line, []byte("\n"))
	switch {
	case bytes.HasPrefix(line, []byte(`{"Ping":null,"Fuzz":{`)) && bytes.HasSuffix(line, []byte(`},"Minimize":null}`)):
		c.Fuzz = &struct{}{}
	case bytes.HasPrefix(line, []byte(`{"Ping":{`)) && bytes.HasSuffix(line, []byte(`},"Fuzz":null,"Minimize":null}`)):
		c.Ping = &struct{}{}
	case bytes.HasPrefix(line, []byte(`{"Ping":null,"Fuzz":null,"Minimize":{`)):
		err = json.Unmarshal(line, &c)
	default:
		err = errors.New("no call")
	}
	if err != nil {
		return c, fmt.Errorf("a call of the coordinator's not understood: %v", err)
	}
	return c, nil
}

type shim struct {
	calls, answers *os.File // the coordinator's pipes (3 and 4)
	mem            *os.File // the shared memory (5)
	log            *os.File // the input log, unlinked
	crashes        *crashes

	child   *exec.Cmd
	toChild *os.File
	answer  *bufio.Reader // the child's answers
	exited  chan error
}

// serveShim serves the coordinator as a shim until it closes the calls'
// pipe. It reports false, having served nothing, if it could not start a
// child: the worker then runs the inputs itself.
func serveShim(dir string) (bool, error) {
	log, err := os.CreateTemp("", "fuzzmin-input-*")
	if err != nil {
		return false, nil
	}
	os.Remove(log.Name()) // the children have it open; nothing is left behind
	defer log.Close()
	if err := log.Truncate(64 << 10); err != nil {
		return false, nil
	}
	s := &shim{
		calls:   os.NewFile(3, "fuzz_in"),
		answers: os.NewFile(4, "fuzz_out"),
		mem:     os.NewFile(5, "fuzz_mem"),
		log:     log,
		crashes: newCrashes(dir),
	}
	if err := s.start(); err != nil {
		return false, nil
	}
	return true, s.serve()
}

// start starts a child, which takes the calls of the next call on.
func (s *shim) start() error {
	callsR, callsW, err := os.Pipe()
	if err != nil {
		return err
	}
	answersR, answersW, err := os.Pipe()
	if err != nil {
		callsR.Close()
		callsW.Close()
		return err
	}
	exe, err := os.Executable() // os.Args[0] may be relative to a directory the target left
	if err != nil {
		exe = os.Args[0]
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.ExtraFiles = []*os.File{callsR, answersW, s.mem, s.log}
	err = cmd.Start()
	callsR.Close()
	answersW.Close()
	if err != nil {
		callsW.Close()
		answersR.Close()
		return err
	}
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		// A process the child started may hold its end of the pipe.
		answersR.Close()
		exited <- err
	}()
	s.child, s.toChild, s.answer, s.exited = cmd, callsW, bufio.NewReaderSize(answersR, 64<<10), exited
	return nil
}

// stop closes the child's calls, as the coordinator closes the shim's,
// and waits for it to end, a second at most before it is killed.
func (s *shim) stop() {
	s.toChild.Close()
	select {
	case <-s.exited:
	case <-time.After(time.Second):
		s.child.Process.Kill()
		<-s.exited
	}
}

// serve passes calls to the child and its answers back, each a line.
func (s *shim) serve() error {
	calls := bufio.NewReaderSize(s.calls, 64<<10)
	for {
		line, err := calls.ReadBytes('\n')
		if err != nil {
			s.stop()
			if err == io.EOF && len(line) == 0 {
				return nil
			}
			return err
		}
		c, err := readCall(line)
		if err != nil {
			s.stop()
			return err
		}
		var value []byte // the input the coordinator put in the memory
		if c.Minimize != nil {
			value = s.value()
		}
		s.log.WriteAt(make([]byte, 8), 0) // no input run yet
		start := time.Now()
		answer, err := s.call(line)
		if err != nil {
			if answer, err = s.ended(c, value, time.Since(start)); err != nil {
				return err
			}
			answer = append(answer, '\n')
		}
		if _, err := s.answers.Write(answer); err != nil {
			s.stop()
			return err
		}
	}
}

// call passes a call's line to the child and returns its answer's; an
// error if the child ended first.
func (s *shim) call(line []byte) ([]byte, error) {
	if _, err := s.toChild.Write(line); err != nil {
		return nil, err
	}
	return s.answer.ReadBytes('\n')
}

// ended records the input of a child that ended during a call, starts
// another and returns the answer to the call: as if every input had
// passed, with no new coverage. A child that ended outside an input, or
// was ended by a signal that is no crash, ends the shim the same way.
func (s *shim) ended(c call, value []byte, took time.Duration) ([]byte, error) {
	pid := s.child.Process.Pid
	s.toChild.Close()
	var err error
	select {
	case err = <-s.exited:
	case <-time.After(time.Second):
		// Its answers' pipe closed, yet it runs: it is not serving.
		s.child.Process.Kill()
		err = <-s.exited
	}
	report := filepath.Join(s.crashes.dir, fmt.Sprintf("%s%d", fatalPrefix, pid))
	vals := s.running()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || vals == nil || signaled(ee) {
		os.Remove(report)
		endAs(ee)
		return nil, fmt.Errorf("the fuzz worker ended outside an input: %v", err)
	}
	data, merr := marshal(vals)
	if merr == nil {
		msg := "fuzzing process hung or terminated unexpectedly: " + err.Error()
		s.crashes.keep(data, s.crashes.kind(msg, []string{report}), nil)
	}
	os.Remove(report)
	if c.Minimize != nil {
		// The child left the memory holding a candidate's raw bytes,
		// where the next call reads the input.
		if err := s.restore(value); err != nil {
			return nil, fmt.Errorf("putting the input back in the shared memory: %v", err)
		}
	}
	if err := s.start(); err != nil {
		return nil, fmt.Errorf("starting a fuzz worker again: %v", err)
	}
	count := s.count()
	switch {
	case c.Minimize != nil && c.Minimize.KeepCoverage != nil:
		// The input the coordinator gave, as if it were the smallest
		// that keeps its coverage.
		return json.Marshal(minimizeResponse{WroteToMem: true, CoverageData: c.Minimize.KeepCoverage, Duration: took, Count: count})
	case c.Minimize != nil:
		return json.Marshal(minimizeResponse{Duration: took, Count: count})
	case c.Fuzz != nil:
		return json.Marshal(fuzzResponse{TotalDuration: took, Count: count})
	}
	return nil, errors.New("the fuzz worker ended in a ping")
}

// signaled reports whether a child was ended by a signal the toolchain
// does not take for a crash of its input (internal/fuzz's isCrashSignal).
func signaled(ee *exec.ExitError) bool {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return false
	}
	switch ws.Signal() {
	case syscall.SIGILL, syscall.SIGTRAP, syscall.SIGABRT, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGSEGV, syscall.SIGPIPE:
		return false
	}
	return true
}

// endAs ends the shim as its child ended: by the same signal, or with the
// same exit status.
func endAs(ee *exec.ExitError) {
	if ee == nil {
		return
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		syscall.Kill(os.Getpid(), ws.Signal())
		time.Sleep(time.Second) // the signal's default ends the process
	}
	os.Exit(ee.ExitCode())
}

// The layout of the shared memory's header.
var (
	memCount    = int64(unsafe.Offsetof(sharedMemHeader{}.count))
	memValueLen = int64(unsafe.Offsetof(sharedMemHeader{}.valueLen))
	memRawInMem = int64(unsafe.Offsetof(sharedMemHeader{}.rawInMem))
	memValue    = int64(unsafe.Sizeof(sharedMemHeader{}))
)

// count returns the inputs run in the call, as the memory counts them.
func (s *shim) count() int64 {
	var b [8]byte
	s.mem.ReadAt(b[:], memCount)
	return int64(binary.NativeEndian.Uint64(b[:]))
}

// value returns the input in the memory.
func (s *shim) value() []byte {
	var b [8]byte
	if _, err := s.mem.ReadAt(b[:], memValueLen); err != nil {
		return nil
	}
	n := binary.NativeEndian.Uint64(b[:])
	if info, err := s.mem.Stat(); err != nil || n > uint64(info.Size()) {
		return nil
	}
	v := make([]byte, n)
	if _, err := s.mem.ReadAt(v, memValue); err != nil {
		return nil
	}
	return v
}

// restore puts value back in the memory, which a child that ended while
// it minimized left holding a candidate's raw bytes.
func (s *shim) restore(value []byte) error {
	if value == nil {
		return errors.New("no input to restore")
	}
	if _, err := s.mem.WriteAt(value, memValue); err != nil {
		return err
	}
	var b [8]byte
	binary.NativeEndian.PutUint64(b[:], uint64(len(value)))
	if _, err := s.mem.WriteAt(b[:], memValueLen); err != nil {
		return err
	}
	_, err := s.mem.WriteAt([]byte{0}, memRawInMem)
	return err
}

// running returns the input the child was running, from the input log;
// nil if it ran none in the call.
func (s *shim) running() []interface{} {
	var b [8]byte
	if _, err := s.log.ReadAt(b[:], 0); err != nil {
		return nil
	}
	n := binary.LittleEndian.Uint64(b[:])
	if n == 0 || n > 1<<31 {
		return nil
	}
	data := make([]byte, n)
	if _, err := s.log.ReadAt(data, 8); err != nil {
		return nil
	}
	vals, err := values(data)
	if err != nil {
		return nil
	}
	return vals
}

// An inputLog is a child's: before each input runs, its values, as the
// batch worker's tuples (values), after their length, 8 bytes little-endian.
type inputLog struct {
	f   *os.File
	m   []byte
	buf []byte
}

// openInputLog maps the input log a shim gave the child; nil if it gave
// none.
func openInputLog() *inputLog {
	if os.Getenv(childEnv) == "" {
		return nil
	}
	l := &inputLog{f: os.NewFile(logFD, "fuzzmin_input")}
	if l.f == nil || l.grow(0) != nil {
		return nil
	}
	return l
}

// grow maps the log, n bytes at least.
func (l *inputLog) grow(n int) error {
	info, err := l.f.Stat()
	if err != nil {
		return err
	}
	size := int(info.Size())
	if size < n {
		size = 2 * n
		if err := l.f.Truncate(int64(size)); err != nil {
			return err
		}
	}
	if l.m != nil {
		syscall.Munmap(l.m)
	}
	l.m, err = syscall.Mmap(int(l.f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_FILE|syscall.MAP_SHARED)
	return err
}

// put writes vals as the input running.
func (l *inputLog) put(vals []interface{}) {
	l.buf = appendValues(l.buf[:0], vals)
	if len(l.m) < 8 {
		return // a log that could not grow: the shim ends with a child that ends
	}
	if 8+len(l.buf) > len(l.m) {
		binary.LittleEndian.PutUint64(l.m, 0) // none, should it not grow
		if l.grow(8+len(l.buf)) != nil {
			l.m = nil
			return
		}
	}
	copy(l.m[8:], l.buf)
	binary.LittleEndian.PutUint64(l.m, uint64(len(l.buf)))
}
