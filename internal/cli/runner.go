package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/session"
)

// A testBinary is a package's test binary and what running it needs.
type testBinary struct {
	path   string
	args   []string // go test's arguments for it
	modDir string   // the root of the package's module
	pkgDir string
	goroot string
	// timeout is the time one input may run before it counts as hanging.
	timeout time.Duration
	env     []string
	// ram is where the files written for every candidate go: a directory
	// in memory where the system has a tmpfs at /dev/shm, since on a disk
	// file system each costs ten times more than running the candidate.
	ram string
}

// A runner runs inputs through one fuzz target of a built test binary, as
// seed corpus entries of a private corpus directory: the binary runs in a
// mirror of the module whose package directory's testdata/fuzz/<Target>
// belongs to the runner, so the user's testdata never sees a candidate,
// while everything else the test reads through relative paths is the
// user's.
type runner struct {
	*testBinary
	work   string // the package directory in the mirror, the binary's working directory
	corpus string // work/testdata/fuzz/<Target>
	target string

	written int         // input files in corpus
	extra   []string    // more arguments for the test binary
	worker  *fuzzWorker // a test process in fuzz worker mode, if one runs (worker.go)
	// slowest is the longest a passing input has run: inputs that run
	// much longer hang (see limit). passed is how many have passed, and
	// spent the time they ran, for the oracle to tell what an input costs.
	slowest time.Duration
	passed  int
	spent   time.Duration
}

// How long an input may run before it counts as hanging, once inputs have
// passed: hangFactor times the slowest passing input, never below
// hangFloor, never above -exec-timeout. A hanging candidate then costs a
// fraction of -exec-timeout; the original was replayed, and the result is
// verified by go test, with the full limit.
const (
	hangFactor = 20
	hangFloor  = time.Second
)

// limit is the time an input may run before it counts as hanging.
func (r *runner) limit() time.Duration {
	if r.slowest == 0 {
		return r.timeout
	}
	return min(r.timeout, max(hangFloor, hangFactor*r.slowest))
}

// ran records that a passing input ran for d.
func (r *runner) ran(d time.Duration) {
	r.slowest = max(r.slowest, d)
	r.passed++
	r.spent += d
}

// runner mirrors the module, down to the package directory, into
// mirrorDir, and returns a runner of target there: a test that reads
// ../shared/data finds it there too. The private corpus directory is a link
// to a directory in b.ram.
func (b *testBinary) runner(target, mirrorDir string) (*runner, error) {
	modDir := b.modDir
	rel, err := filepath.Rel(modDir, b.pkgDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		modDir, rel = b.pkgDir, "."
	}
	var path []string
	if rel != "." {
		path = strings.Split(rel, string(filepath.Separator))
	}
	work := filepath.Join(mirrorDir, rel)
	if err := mirror(modDir, mirrorDir, append(path, "testdata", "fuzz", target)); err != nil {
		return nil, fmt.Errorf("mirroring %s: %w", modDir, err)
	}
	r := &runner{testBinary: b, work: work, corpus: filepath.Join(work, "testdata", "fuzz", target), target: target}
	ram, err := os.MkdirTemp(b.ram, "corpus-")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(r.corpus); err != nil {
		return nil, err
	}
	if err := os.Symlink(ram, r.corpus); err != nil {
		return nil, err
	}
	return r, nil
}

// mirror makes dst a directory of symbolic links to the entries of src,
// except along path (a list of names below src): those become real
// directories, mirrored the same way, and the last one is left empty.
func mirror(src, dst string, path []string) error {
	if err := os.MkdirAll(dst, 0o777); err != nil {
		return err
	}
	if len(path) == 0 {
		return nil
	}
	des, err := os.ReadDir(src)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, de := range des {
		if de.Name() == path[0] {
			continue
		}
		if err := os.Symlink(filepath.Join(src, de.Name()), filepath.Join(dst, de.Name())); err != nil {
			return err
		}
	}
	return mirror(filepath.Join(src, path[0]), filepath.Join(dst, path[0]), path[1:])
}

// writeInputs makes inputs the private corpus. It overwrites the files of
// the last batch in place and removes those it had beyond this one: cheaper
// than a fresh directory.
func (r *runner) writeInputs(inputs [][]byte) error {
	for i, in := range inputs {
		if err := os.WriteFile(filepath.Join(r.corpus, inputName(i)), in, 0o666); err != nil {
			return err
		}
	}
	for i := len(inputs); i < r.written; i++ {
		if err := os.Remove(filepath.Join(r.corpus, inputName(i))); err != nil {
			return err
		}
	}
	r.written = len(inputs)
	return nil
}

// inputName names input i of a run so that the toolchain, which runs a
// corpus in file name order, runs them in the order given.
func inputName(i int) string { return fmt.Sprintf("c%06d", i) }

// inputIndex maps the subtest name "<Target>/c000012" to 12.
func (r *runner) inputIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, r.target+"/c")
	if !ok || len(rest) != 6 {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil
}

// runResult is what one process made of a list of inputs.
type runResult struct {
	outcomes []signature    // one per input that ran, in order
	msgs     map[int]string // the user's messages of the failures among them, by input
	stale    string         // the toolchain refused the corpus: why
	stales   []string       // each file it refused, one line each
	tail     string         // the last lines of output, for messages
	wrapped  bool           // the target said it is wrapped by fuzzshrink (session.Probe)
}

// run runs inputs (encoded corpus files) in order in one process and
// returns the outcome of each input that ran. A failure with a message the
// user's code wrote gets shape(i, message) as its Text. It stops the
// process at the first outcome for which stop returns true, and at a crash
// or timeout (the input that crashed or hung is the last outcome).
func (r *runner) run(ctx context.Context, inputs [][]byte, shape func(i int, msg string) string, stop func(i int, sig signature) bool) (runResult, error) {
	if err := r.writeInputs(inputs); err != nil {
		return runResult{}, err
	}

	var (
		mu       sync.Mutex
		tail     lineTail
		res      runResult
		started  = time.Now() // when the current input started
		stopping bool
		timedOut bool
		proc     *testProcess
	)
	p := newOutputParser(r.inputIndex, r.goroot)
	res.msgs = map[int]string{}
	p.shape = func(i int, msg string) string {
		res.msgs[i] = msg
		return shape(i, msg)
	}
	mu.Lock() // proc is set before a line can stop it
	proc, err := r.startTest(append([]string{"-test.run=^" + r.target + "$/^c[0-9]+$", "-test.v=test2json", "-test.paniconexit0"}, r.extra...),
		session.Env+"="+session.Probe, func(line []byte) {
			mu.Lock()
			defer mu.Unlock()
			if ev, ok := session.ParseEvent(line); ok {
				res.wrapped = res.wrapped || ev.Action == session.ActionWrapped
				return
			}
			tail.add(line)
			before := p.current
			if i, sig := p.line(line); i >= 0 {
				if !sig.Failed() {
					r.ran(time.Since(started))
				}
				res.outcomes = append(res.outcomes, sig)
				if !stopping && stop(i, sig) {
					stopping = true
					proc.kill()
				}
			}
			if p.current != before {
				started = time.Now()
			}
		})
	mu.Unlock()
	if err != nil {
		return runResult{}, err
	}
	limit := r.limit()
	exit, err := proc.wait(ctx, limit/20+time.Millisecond, func() bool {
		mu.Lock()
		defer mu.Unlock()
		if p.current >= 0 && !stopping && time.Since(started) > limit {
			timedOut, stopping = true, true
		}
		return timedOut
	})
	if err != nil {
		return runResult{}, err
	}
	mu.Lock()
	defer mu.Unlock()
	if p.current >= 0 && !stopping {
		_, sig := p.end(exit)
		if !sig.Failed() {
			r.ran(time.Since(started))
		}
		res.outcomes = append(res.outcomes, sig)
	} else if timedOut {
		res.outcomes = append(res.outcomes, signature{Kind: kindTimeout})
	}
	res.stale, res.stales = p.stale, p.stales
	res.tail = tail.String()
	return res, nil
}

// never is the stop function of a run that runs all its inputs.
func never(int, signature) bool { return false }

// replayOne runs one input in a fresh process and returns how it fails,
// shaping a message with shape.
func (r *runner) replayOne(ctx context.Context, input []byte, shape func(msg string) string) (signature, error) {
	out, err := r.run(ctx, [][]byte{input}, func(_ int, msg string) string { return shape(msg) }, never)
	if err != nil {
		return signature{}, err
	}
	if len(out.outcomes) == 0 {
		return signature{}, fmt.Errorf("the test binary ran no input for %s; it said:\n%s", r.target, out.tail)
	}
	return out.outcomes[0], nil
}

// lineTail keeps the last lines of an output, without the testing
// package's framing bytes, for error messages.
type lineTail struct {
	lines [12]string
	n     int
}

func (t *lineTail) add(line []byte) {
	line = bytes.TrimPrefix(line, []byte{0x16})
	if len(line) > 200 {
		line = append(line[:200:200], "…"...)
	}
	t.lines[t.n%len(t.lines)] = "\t" + string(line)
	t.n++
}

func (t *lineTail) String() string {
	var b strings.Builder
	for i := max(0, t.n-len(t.lines)); i < t.n; i++ {
		b.WriteString(t.lines[i%len(t.lines)])
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// readLines calls f with each line read from r, without its newline. A line
// longer than 64 KiB is cut: only line starts matter to the parser.
func readLines(r io.Reader, f func([]byte)) {
	br := bufio.NewReaderSize(r, 64<<10)
	long := false
	for {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if !long {
				f(line)
			}
			long = true
			continue
		case len(line) > 0 && !long:
			f(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")))
		}
		long = false
		if err != nil {
			return
		}
	}
}
