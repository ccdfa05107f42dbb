package testbin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// Candidates of a native fuzz target run, when they can, inside one test
// process that stays up: the test binary's fuzz worker mode
// (-test.fuzzworker), which go test -fuzz runs inputs in, and in which its
// own minimizer shrinks them. A worker takes calls from its parent as JSON
// over two pipes (its file descriptors 3 and 4) and reads each input, a
// corpus file, from a file both map into memory (descriptor 5) behind a
// small header. A "warmup" fuzz call runs the input once, as is, and
// answers with the output of the run if it failed: a t.Error, t.Fatal or
// panic is reported as the failed test's output (the panic as a t.Error
// with the stack), and the process lives on. A fatal error, os.Exit or a
// hang ends it.
//
// That is thousands of candidates per second where a process per batch
// runs hundreds, and it needs no cooperation from the test. Nothing of it
// is trusted blindly: the original must fail in the worker exactly as in a
// process of its own, or the entry's search runs candidates in processes
// as before; a candidate the worker cannot judge (it died, hung, or
// answered in a way not understood) is run again in a process, which
// judges it; and the result is checked by go test as always (see
// entry.go, which searches again without the worker if the check
// disagrees).

// The messages of the worker protocol, mirrors of the toolchain's types of
// the same names (internal/fuzz/worker.go: call, pingArgs, fuzzArgs,
// fuzzResponse; mem.go: sharedMemHeader), with the fields fuzzmin uses.
// protocol.go checks them against the source of the toolchain that built
// the test binary before any worker starts.

// A call has one non-nil member.
type call struct {
	Ping *pingArgs `json:",omitempty"`
	Fuzz *fuzzArgs `json:",omitempty"`
}

type pingArgs struct{}

type fuzzArgs struct {
	Timeout time.Duration
	Limit   int64
	Warmup  bool
}

type fuzzResponse struct {
	Count       int64  // the inputs run: 1 for a warmup call
	Err         string // the output of the failed run
	InternalErr string
}

// sharedMemHeader is the header of the shared memory; the input follows it.
type sharedMemHeader struct {
	count              int64
	valueLen           int
	randState, randInc uint64
	rawInMem           bool
}

const memHeaderSize = int(unsafe.Sizeof(sharedMemHeader{}))

// A fuzzWorker is a running test process in fuzz worker mode: the
// toolchain's, or the batch worker of fuzzmin's hook (batch.go).
type fuzzWorker struct {
	cmd    *exec.Cmd
	batch  bool          // the hook's batch worker
	calls  *os.File      // our end of its descriptor 3
	resps  *os.File      // our end of its descriptor 4, read with deadlines
	buf    []byte        // what resps is read into
	unread []byte        // of buf, what was read past the last answer
	dead   chan struct{} // closed when the process has exited
	mem    []byte
	size   int   // the largest input the memory holds
	limit  int64 // Binary.MemLimit: past it, the worker is lost
}

// errWorkerLost says that a worker died or hung on an input: the input is
// judged in a process of its own. errWorkerHung is the second.
var (
	errWorkerLost = errors.New("the fuzz worker process ended")
	errWorkerHung = fmt.Errorf("%w: the input ran past its limit", errWorkerLost)
)

// startWorker starts a fuzz worker for the runner's target whose memory
// holds inputs of up to size bytes: the hook's batch worker if the binary
// has one that serves, the toolchain's otherwise.
func (r *Runner) startWorker(size int) (*fuzzWorker, error) {
	if ok, why := r.Toolchain.Worker(); !ok {
		return nil, errors.New(why)
	}
	if r.Hooked && r.hookErr == nil {
		w, err := r.launchWorker(size, true)
		if err == nil {
			return w, nil
		}
		if noRoom(err) {
			return nil, err
		}
		// The toolchain's worker may serve where the hook does not.
		r.hookErr = err
		r.note("fuzzmin: %s: candidates run one per call in the toolchain's fuzz worker: %v", r.Target, err)
	}
	return r.launchWorker(size, false)
}

// launchWorker starts a fuzz worker, a batch worker if batch, and waits
// until it serves.
func (r *Runner) launchWorker(size int, batch bool) (w *fuzzWorker, err error) {
	memSize := memHeaderSize + size
	if batch {
		// Room for several inputs: an input's tuple is never much longer
		// than its corpus file.
		memSize = batchTimesAt + 12 + 2*size
	}
	f, err := r.sharedFile(int64(memSize))
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name()) // the processes keep it open
	defer f.Close()
	mem, err := mapShared(f, memSize)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			unmap(mem)
		}
	}()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	// The worker's ends are closed here once it has them: a worker that
	// ends then ends its answers.
	theirs := []*os.File{inR, outW}
	defer func() {
		for _, f := range theirs {
			f.Close()
		}
		if err != nil {
			inW.Close()
			outR.Close()
		}
	}()
	target, env := r.Target, commandEnv()
	if batch {
		target = HookName(r.Target)
	}
	cache := filepath.Join(r.RAM, "fuzzcache")
	cmd := exec.Command(r.Path, "-test.fuzzworker", "-test.run=^$", "-test.fuzz=^"+target+"$",
		"-test.fuzzcachedir="+cache, "-test.paniconexit0")
	cmd.Dir, cmd.Env = r.work, append(r.Env, env)
	if batch {
		cmd.Env = append(cmd.Env, hookEnv+"=1")
	}
	cmd.ExtraFiles = []*os.File{inR, outW, f}
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGKILL)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the test binary as a fuzz worker: %w", err)
	}
	inR.Close()
	outW.Close()
	theirs = nil
	w = &fuzzWorker{cmd: cmd, batch: batch, calls: inW, resps: outR,
		dead: make(chan struct{}), mem: mem, size: size, limit: r.MemLimit}
	go func() {
		cmd.Wait()
		close(w.dead)
	}()
	if batch {
		err = w.hello(r.Timeout)
	} else {
		_, err = w.call(context.Background(), pingCall, r.Timeout)
	}
	if err != nil {
		w.close()
		return nil, fmt.Errorf("the test binary did not answer as a fuzz worker: %w", err)
	}
	return w, nil
}

// The calls fuzzmin makes, as the worker reads them: one JSON value a line.
var (
	pingCall   = encodeCall(call{Ping: &pingArgs{}})
	warmupCall = encodeCall(call{Fuzz: &fuzzArgs{Warmup: true}})
)

func encodeCall(c call) []byte {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// call makes a call of the toolchain's worker and waits for its answer,
// for at most limit.
func (w *fuzzWorker) call(ctx context.Context, c []byte, limit time.Duration) (fuzzResponse, error) {
	if _, err := w.calls.Write(c); err != nil {
		return fuzzResponse{}, errWorkerLost
	}
	end := time.Now().Add(limit)
	var line []byte
	err := w.await(ctx, func() time.Time { return end }, func(deadline time.Time) (err error) {
		line, err = w.readLine(deadline)
		return err
	})
	if err != nil {
		return fuzzResponse{}, err
	}
	var resp fuzzResponse
	if err := json.Unmarshal(line, &resp); err != nil {
		return resp, fmt.Errorf("the fuzz worker's answer is not understood: %v", err)
	}
	if resp.InternalErr != "" {
		return resp, errors.New(resp.InternalErr)
	}
	return resp, nil
}

// await waits for the answer to a call, which read reads, waiting until a
// deadline at most, until due(), when the input running counts as
// hanging. The answer is read here, not by a goroutine of its own: a
// call costs two wake-ups, one in each process, and a fast target runs
// tens of thousands of them a second. A call that does not end with an
// answer leaves the worker in a state not known; the caller ends it.
func (w *fuzzWorker) await(ctx context.Context, due func() time.Time, read func(deadline time.Time) error) error {
	if ctx.Done() != nil {
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() {
			w.resps.SetReadDeadline(time.Now())
			close(fired)
		})
		defer func() {
			if !stop() {
				<-fired // its deadline must not outlive this call
			}
		}()
	}
	for {
		// The memory limit, if any, is read every memPoll.
		next := due()
		if poll := time.Now().Add(memPoll); w.limit > 0 && poll.Before(next) {
			next = poll
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		err := read(next)
		switch {
		case err == nil:
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case !errors.Is(err, os.ErrDeadlineExceeded):
			return errWorkerLost
		case !time.Now().Before(due()):
			return errWorkerHung
		case w.limit > 0 && rss(w.cmd.Process.Pid) > w.limit:
			// The input runs again in a process, which the limit judges
			// (Runner.Run).
			return errWorkerLost
		}
	}
}

// fill reads the worker's answers until n bytes are unread, waiting until
// deadline at most.
func (w *fuzzWorker) fill(n int, deadline time.Time) error {
	if err := w.resps.SetReadDeadline(deadline); err != nil {
		return err
	}
	for len(w.unread) < n {
		if len(w.unread) == 0 {
			w.unread = w.buf[:0]
		}
		if cap(w.unread)-len(w.unread) < max(1024, n-len(w.unread)) {
			w.buf = append(make([]byte, 0, 2*cap(w.buf)+n+4096), w.unread...)
			w.unread = w.buf
		}
		k, err := w.resps.Read(w.unread[len(w.unread):cap(w.unread)])
		w.unread = w.unread[:len(w.unread)+k]
		if err != nil && len(w.unread) < n {
			return err
		}
	}
	return nil
}

// readLine reads the worker's next answer, a line, waiting until
// deadline at most. The line is good until the next read.
func (w *fuzzWorker) readLine(deadline time.Time) ([]byte, error) {
	for {
		if i := bytes.IndexByte(w.unread, '\n'); i >= 0 {
			line := w.unread[:i]
			w.unread = w.unread[i+1:]
			return line, nil
		}
		if err := w.fill(len(w.unread)+1, deadline); err != nil {
			return nil, err
		}
	}
}

// run runs one input (a corpus file) in the toolchain's worker and
// returns the output of its run if it failed, "" if it passed. A worker
// that says it ran another number of inputs than one is not understood.
func (w *fuzzWorker) run(ctx context.Context, input []byte, limit time.Duration) (string, error) {
	h := (*sharedMemHeader)(unsafe.Pointer(&w.mem[0]))
	h.count, h.valueLen = 0, len(input)
	copy(w.mem[memHeaderSize:], input)
	resp, err := w.call(ctx, warmupCall, limit)
	if err == nil && resp.Count != 1 {
		err = fmt.Errorf("the fuzz worker ran %d inputs for one", resp.Count)
	}
	return resp.Err, err
}

// close ends the worker, which has nothing to save, and waits for it, for
// a while: a process the kernel cannot end at once (stuck paging in a
// machine out of memory) is left to end on its own.
func (w *fuzzWorker) close() {
	w.calls.Close()
	w.resps.Close()
	killProcessGroup(w.cmd)
	select {
	case <-w.dead:
		unmap(w.mem)
	case <-time.After(workerGrace):
		// The mapping stays: the process may still touch its pages.
	}
}

// workerGrace is how long closing a worker waits for it to end.
const workerGrace = 10 * time.Second

// A ran is what a worker made of the inputs of a call: the time each of
// those that passed ran, in order, and whether the input after them failed,
// with its output.
type ran struct {
	times  []time.Duration
	failed bool
	out    string
}

// runInputs runs inputs in order in the runner's worker, starting one if
// needed, until one fails: in a batch worker as many as a call takes, in
// the toolchain's the first. An error says that the worker could not
// judge the input after those it ran; the worker is then ended.
func (r *Runner) runInputs(ctx context.Context, inputs [][]byte, limit time.Duration) (ran, error) {
	if r.worker != nil && len(inputs[0]) > r.worker.size {
		r.closeWorker()
	}
	if r.worker == nil {
		if r.workerRoom != nil {
			return ran{}, r.workerRoom
		}
		w, err := r.startWorker(max(workerMem, 2*len(inputs[0])))
		if err != nil {
			if noRoom(err) {
				r.workerRoom = err // no second try
			}
			return ran{}, err
		}
		r.worker = w
	}
	if r.worker.batch {
		res, err := r.runBatch(ctx, inputs, limit)
		if err != nil {
			r.closeWorker()
		}
		return res, err
	}
	start := time.Now()
	out, err := r.worker.run(ctx, inputs[0], limit)
	if err != nil {
		// Even one the context ended: its answer would be taken for the
		// next call's.
		r.closeWorker()
		return ran{}, err
	}
	if out != "" {
		return ran{failed: true, out: out}, nil
	}
	return ran{times: []time.Duration{time.Since(start)}}, nil
}

// workerMem is the least memory a worker gets for its inputs.
const workerMem = 64 << 10

// RunInWorker runs inputs in order, as Run does, in the runner's fuzz
// worker, starting one if needed. An input the worker cannot judge, and
// those after it, run in a process (Run), which judges them; so do all
// inputs if no worker starts.
func (r *Runner) RunInWorker(ctx context.Context, inputs [][]byte, j Judge) (Result, error) {
	res := Result{Msgs: map[int]string{}}
	for i := 0; i < len(inputs); {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		limit := j.limit(r)
		got, err := r.runInputs(ctx, inputs[i:], limit)
		for _, d := range got.times {
			r.ran(d)
			res.Outcomes = append(res.Outcomes, failure.Signature{})
			if j.stop(i, failure.Signature{}) {
				return res, nil
			}
			i++
		}
		if err == context.Canceled || err == context.DeadlineExceeded {
			return res, err
		}
		if errors.Is(err, errWorkerHung) && r.cutting(j, limit) {
			// Cut by the time slice: it passes, and the inputs after it
			// run in a new worker.
			r.cuts++
			res.Outcomes = append(res.Outcomes, failure.Signature{})
			if j.stop(i, failure.Signature{}) {
				return res, nil
			}
			i++
			continue
		}
		if err != nil {
			return r.runRest(ctx, res, inputs, j)
		}
		if !got.failed {
			continue
		}
		sig, msg, err := r.workerFailure(got.out)
		if err != nil {
			return r.runRest(ctx, res, inputs, j)
		}
		if sig.Kind == failure.Fail || msg != "" {
			res.Msgs[i] = msg
			sig.Text = j.shape(i, sig, msg)
		}
		res.Outcomes = append(res.Outcomes, sig)
		if j.stop(i, sig) {
			break
		}
		i++
	}
	return res, nil
}

// judgeInWorker runs one input in the runner's worker, starting one if
// needed, and tells how it failed and the user's message, to be shaped.
// An error says that the worker could not judge it; the worker is then
// ended.
func (r *Runner) judgeInWorker(ctx context.Context, in []byte, limit time.Duration) (failure.Signature, string, error) {
	got, err := r.runInputs(ctx, [][]byte{in}, limit)
	if err != nil || !got.failed {
		return failure.Signature{}, "", err
	}
	return r.workerFailure(got.out)
}

// workerFailure reads a failure from the output of its run in the
// runner's worker. If it cannot, it ends the worker.
func (r *Runner) workerFailure(out string) (failure.Signature, string, error) {
	sig, msg, ok := workerFailure(out, r.Toolchain.GOROOT)
	if !ok {
		r.closeWorker()
		return failure.Signature{}, "", errors.New("the fuzz worker's report of a failure is not understood")
	}
	// The worker runs inputs as the target itself, not as its subtests:
	// the running test's name is a value, as the output parser has it.
	return sig, strings.ReplaceAll(msg, r.Target, "…"), nil
}

// WorkerAgrees reports whether the candidates of an entry may run in the
// runner's fuzz worker: the toolchain's protocol was verified, and the
// worker judges the failing original as a process of its own did (want,
// its message shaped by j) and, if passing is not nil, a passing input as
// passing, each as one input run. If not, it says why.
func (r *Runner) WorkerAgrees(ctx context.Context, original []byte, want failure.Signature, j Judge, passing []byte) (bool, string) {
	if ok, why := r.Toolchain.Worker(); !ok {
		return false, why
	}
	if passing != nil {
		sig, _, err := r.judgeInWorker(ctx, passing, r.Timeout)
		switch {
		case err != nil:
			return false, fmt.Sprintf("the fuzz worker did not run a passing input: %v", err)
		case sig.Failed():
			return false, fmt.Sprintf("in the fuzz worker, an input that passes in a process fails with %v", sig)
		}
	}
	sig, msg, err := r.judgeInWorker(ctx, original, r.Timeout)
	if err != nil {
		return false, fmt.Sprintf("the fuzz worker did not run the entry: %v", err)
	}
	if sig.Kind == failure.Fail || msg != "" {
		sig.Text = j.shape(0, sig, msg)
	}
	if sig != want {
		return false, fmt.Sprintf("in the fuzz worker the entry fails with %v, in a process with %v", sig, want)
	}
	return true, ""
}

// runRest runs the inputs after those res has the outcomes of in a
// process, and adds what it made of them to res.
func (r *Runner) runRest(ctx context.Context, res Result, inputs [][]byte, j Judge) (Result, error) {
	i := len(res.Outcomes)
	rest, err := r.Run(ctx, inputs[i:], j.from(i))
	for k, msg := range rest.Msgs {
		res.Msgs[i+k] = msg
	}
	res.Outcomes = append(res.Outcomes, rest.Outcomes...)
	res.Stale, res.Stales, res.Tail = rest.Stale, rest.Stales, rest.Tail
	return res, err
}

// InBatches reports whether the runner's fuzz worker is a batch worker,
// which runs many candidates per call.
func (r *Runner) InBatches() bool { return r.worker != nil && r.worker.batch }

// Close ends the runner's fuzz worker, if it has one.
func (r *Runner) Close() { r.closeWorker() }

func (r *Runner) closeWorker() {
	if r.worker != nil {
		r.worker.close()
		r.worker = nil
	}
}

// workerFailure reads how a run failed from the output the worker gave for
// it, as the output parser reads a failure from a process's output: a
// panic by its message and the first frame of the user's code below it, a
// t.Error or t.Fatal by its last log entry (failure.LastLog). msg is the
// user's message, to be shaped: the last log entry's, or a panic's if it is of the user's
// value. It returns ok false if it cannot tell.
func workerFailure(out, goroot string) (sig failure.Signature, msg string, ok bool) {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "--- FAIL: ") {
		return failure.Signature{}, "", false
	}
	// A panic is reported as a log line of the testing package's, "panic:
	// " and the first line of the message, and then the stack, indented as
	// the line's continuation.
	for g := 1; g < len(lines); g++ {
		if !goroutineRE.MatchString(lines[g]) {
			continue
		}
		for k := g - 1; k > 0; k-- {
			m := logPosRE.FindStringSubmatchIndex(lines[k])
			if m == nil {
				continue
			}
			text, isPanic := strings.CutPrefix(lines[k][m[1]:], "panic: ")
			if !isPanic {
				break
			}
			sig = failure.Signature{Kind: failure.Panic, Text: failure.PanicText(text)}
			if failure.UserPanic(text) {
				msg = text
			}
			sig.Pos = panicPos(lines[g+1:], goroot)
			return sig, msg, true
		}
		return failure.Signature{}, "", false // runtime.Goexit, or what we do not know
	}
	logPos, logMsg := failure.LastLog(strings.Join(lines[1:], "\n"))
	return failure.Signature{Kind: failure.Fail, Pos: logPos}, logMsg, true
}

var goroutineRE = regexp.MustCompile(`^\s+goroutine \d+ \[running\]:$`)

// panicPos returns the position of the first frame of the user's code
// below the panic in a stack, as the output parser finds it.
func panicPos(stack []string, goroot string) string {
	fn, below := "", false
	for _, l := range stack {
		l = strings.TrimPrefix(l, "        ") // the indentation of a log line's continuation
		switch {
		case !below:
			below = strings.HasPrefix(l, "panic(")
		case !strings.HasPrefix(l, "\t"):
			fn = l
		default:
			if m := framePath.FindStringSubmatch(l); m != nil && failure.UserFrame(goroot, fn, m[1]) {
				return filepath.Base(m[1]) + ":" + m[2]
			}
		}
	}
	return ""
}
