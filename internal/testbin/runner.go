package testbin

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

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/session"
)

// A Binary is a package's test binary and what running it needs.
type Binary struct {
	Path      string
	Args      []string // go test's arguments for it
	ModDir    string   // the root of the package's module
	PkgDir    string
	Toolchain *Toolchain // the release that built it
	// Timeout is the time one input may run before it counts as hanging.
	Timeout time.Duration
	// MemLimit, if not 0, is the resident memory in bytes a test process
	// may reach: past it, it is killed, and the input it ran fails as out
	// of memory, so that a candidate that allocates gigabytes takes
	// neither fuzzmin nor the machine down (as libFuzzer's -rss_limit_mb).
	MemLimit int64
	Env      []string
	// RAM is where the files written for every candidate go: a directory
	// in memory where the system has a tmpfs at /dev/shm, since on a disk
	// file system each costs ten times more than running the candidate.
	RAM string
	// Disk is where they go when RAM has no room for them (room.go); ""
	// or RAM: nowhere else.
	Disk string
	// Note, if not nil, tells the user of such a move (under -v).
	Note func(msg string)
	// Hooked says that the binary was built with the hook (WriteHooks):
	// its fuzz targets' candidates may run in batch workers.
	Hooked bool
	// Dict, if set, is the file of the package's literals (WriteDict)
	// that its targets, fuzzed past their failures, try beside the
	// toolchain's mutations.
	Dict string
}

// A Runner runs inputs through one fuzz target of a built test binary, as
// seed corpus entries of a private corpus directory: the binary runs in a
// mirror of the module whose package directory's testdata/fuzz/<Target>
// belongs to the runner, so the user's testdata never sees a candidate,
// while everything else the test reads through relative paths is the
// user's.
type Runner struct {
	*Binary
	Target string

	work    string      // the package directory in the mirror, the binary's working directory
	corpus  string      // work/testdata/fuzz/<Target>, a link to private
	private string      // the runner's own directory in RAM
	written int         // input files in corpus
	inputs  [][]byte    // what they hold
	worker  *fuzzWorker // a test process in fuzz worker mode, if one runs (worker.go)
	// workerRoom says that no file system had room for a worker's
	// memory: candidates run in processes.
	workerRoom error
	// hookErr says why the binary's batch worker does not serve: its
	// candidates run in the toolchain's worker.
	hookErr error
	// slowest is the longest a passing input has run: inputs that run
	// much longer hang (see limit). passed is how many have passed, and
	// spent the time they ran, for the oracle to tell what an input costs.
	slowest time.Duration
	passed  int
	spent   time.Duration
	// slow is the time of the passing inputs that ran past the slice
	// (sliceAt), and slowN how many; cuts is how many inputs the slice
	// cut.
	slow  time.Duration
	slowN int
	cuts  int
}

// How long an input may run before it counts as hanging, once inputs have
// passed: hangFactor times the slowest passing input, never below
// hangFloor, never above -exec-timeout (Timeout). The original is replayed,
// and the result of a search confirmed, with that limit. While a search
// looks for a smaller input that hangs, a candidate counts as hanging after
// ShortLimit: searchFactor times the slowest passing input, never below
// searchFloor, so that a hanging candidate costs a few hundredths of a
// second, not one; one that was only slow shows when the result is
// confirmed.
const (
	hangFactor   = 20
	hangFloor    = time.Second
	searchFactor = 4
	searchFloor  = 50 * time.Millisecond
)

// Limit is the time an input may run before it counts as hanging, never
// less than floor (see Judge.Floor).
func (r *Runner) Limit(floor time.Duration) time.Duration {
	if r.slowest == 0 {
		return r.Timeout
	}
	return min(r.Timeout, max(hangFloor, hangFactor*r.slowest, floor))
}

// ShortLimit is the limit of a search for a smaller input that hangs, from
// the inputs that passed on r, never more than Limit(floor).
func (r *Runner) ShortLimit(floor time.Duration) time.Duration {
	if r.slowest == 0 {
		return r.Timeout
	}
	return min(r.Limit(floor), max(searchFloor, searchFactor*r.slowest))
}

// A search's time slice. Some inputs run far longer than most and pass: a
// decoder that allocates the gigabytes a garbled length asks for before it
// finds the input short. They may take a quarter of the time passing
// inputs take (and a second at least); past that, an input that runs
// sliceFactor times the typical passing input, and sliceFloor at least,
// is cut, and counts as passing: the search does not take it, and its
// candidates go on at the speed of the target. Only a search's candidates
// are sliced (Judge.Slice), and not a hang's.
const (
	sliceFactor = 20
	sliceFloor  = 20 * time.Millisecond
	sliceShare  = 4
	sliceMin    = time.Second
)

// sliceAt is the time past which a passing input is slow: sliceFactor
// times the mean of those that were not, never below sliceFloor; 0 before
// any has passed.
func (r *Runner) sliceAt() time.Duration {
	n := r.passed - r.slowN
	if n == 0 {
		return 0
	}
	return max(sliceFloor, sliceFactor*(r.spent-r.slow)/time.Duration(n))
}

// sliced reports whether the slow inputs have taken their share: inputs
// are then cut at sliceAt.
func (r *Runner) sliced() bool { return r.slow >= sliceMin && r.slow*sliceShare > r.spent }

// cutting reports whether an input run with limit under j is cut by the
// slice, not judged hanging, when it runs past it.
func (r *Runner) cutting(j Judge, limit time.Duration) bool {
	return j.Slice && j.Limit == 0 && limit < r.Limit(j.Floor)
}

// Cuts is how many inputs the time slice has cut.
func (r *Runner) Cuts() int { return r.cuts }

// Cost tells how many inputs have passed and the time they ran in all.
func (r *Runner) Cost() (passed int, spent time.Duration) { return r.passed, r.spent }

// Learn takes what o's passing inputs taught about how long one runs.
func (r *Runner) Learn(o *Runner) { r.LearnSlowest(o.slowest) }

// LearnSlowest takes d as the time a passing input ran, for the hang
// limit: what the runs of another process of the binary taught.
func (r *Runner) LearnSlowest(d time.Duration) { r.slowest = max(r.slowest, d) }

// ran records that a passing input ran for d.
func (r *Runner) ran(d time.Duration) {
	if at := r.sliceAt(); at > 0 && d > at {
		r.slow += d
		r.slowN++
	}
	r.slowest = max(r.slowest, d)
	r.passed++
	r.spent += d
}

// Runner mirrors the module, down to the package directory, into
// mirrorDir, and returns a runner of target there: a test that reads
// ../shared/data finds it there too. The private corpus directory is a link
// to a directory in b.RAM.
func (b *Binary) Runner(target, mirrorDir string) (*Runner, error) {
	work, err := b.mirrorFor(target, mirrorDir)
	if err != nil {
		return nil, err
	}
	r := &Runner{Binary: b, work: work, corpus: filepath.Join(work, "testdata", "fuzz", target), Target: target}
	ram, err := os.MkdirTemp(b.RAM, "corpus-")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(r.corpus); err != nil {
		return nil, err
	}
	if err := os.Symlink(ram, r.corpus); err != nil {
		return nil, err
	}
	r.private = ram
	return r, nil
}

// mirrorFor mirrors the module of b, down to its package directory, into
// mirrorDir, with an empty seed corpus directory of target, and returns
// the package directory's mirror: the working directory of target's runs.
// A package outside its module's directory is mirrored alone.
func (b *Binary) mirrorFor(target, mirrorDir string) (string, error) {
	modDir := b.ModDir
	rel, err := filepath.Rel(modDir, b.PkgDir)
	if err != nil || strings.HasPrefix(rel, "..") {
		modDir, rel = b.PkgDir, "."
	}
	var path []string
	if rel != "." {
		path = strings.Split(rel, string(filepath.Separator))
	}
	if err := mirror(modDir, mirrorDir, append(path, "testdata", "fuzz", target)); err != nil {
		return "", fmt.Errorf("mirroring %s: %w", modDir, err)
	}
	return filepath.Join(mirrorDir, rel), nil
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
// the last batch in place, or leaves those that already hold the input,
// and removes those it had beyond this one: cheaper than a fresh
// directory, and nothing to write when a batch runs again.
func (r *Runner) writeInputs(inputs [][]byte) error {
	for i, in := range inputs {
		if i < len(r.inputs) && bytes.Equal(r.inputs[i], in) {
			continue
		}
		if err := os.WriteFile(filepath.Join(r.corpus, InputName(i)), in, 0o666); err != nil {
			r.inputs = nil // what the files hold is not known
			if noRoom(err) && r.toDisk() {
				return r.writeInputs(inputs)
			}
			return fmt.Errorf("writing the candidates into %s: %w", r.private, err)
		}
	}
	for i := len(inputs); i < r.written; i++ {
		if err := os.Remove(filepath.Join(r.corpus, InputName(i))); err != nil {
			return err
		}
	}
	r.written = len(inputs)
	if len(r.inputs) > len(inputs) {
		r.inputs = r.inputs[:len(inputs)]
	}
	for i, in := range inputs {
		if i == len(r.inputs) {
			r.inputs = append(r.inputs, nil)
		}
		r.inputs[i] = append(r.inputs[i][:0], in...) // a copy: the caller may reuse its buffers
	}
	return nil
}

// InputName names input i of a run so that the toolchain, which runs a
// corpus in file name order, runs them in the order given.
func InputName(i int) string { return fmt.Sprintf("c%06d", i) }

// inputIndex maps the subtest name "<Target>/c000012" to 12.
func (r *Runner) inputIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, r.Target+"/c")
	if !ok || len(rest) != 6 {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil
}

// A Judge says how a run judges its inputs. It travels with each call, as
// the toolchain's coordinator passes a fuzz worker its limits with each
// call: runs with different limits may share a runner.
type Judge struct {
	// Shape turns the message of a failure of input i, written by the
	// user's code (a t.Error's, or a panic's of a string or an error),
	// into the Text of its signature sig, which has its Kind and Pos; nil
	// leaves the Text empty.
	Shape func(i int, sig failure.Signature, msg string) string
	// Stop says, given the outcome of input i, whether to run no more; nil
	// runs all the inputs.
	Stop func(i int, sig failure.Signature) bool
	// Limit is the time an input may run before it counts as hanging; 0
	// is the runner's Limit(Floor).
	Limit time.Duration
	// Floor is the least limit once inputs have passed: the inputs of an
	// entry whose original was seen to be slow, not hanging, get
	// Timeout.
	Floor time.Duration
	// args are more arguments for the test process of the call
	// (CoverProfile's profile).
	args []string
	// Slice, with no Limit, cuts an input that runs past the search's time
	// slice, once slow inputs have taken it, and counts it as passing
	// (see sliceAt): for the candidates of a search for a failure that is
	// not a hang.
	Slice bool
}

func (j Judge) shape(i int, sig failure.Signature, msg string) string {
	if j.Shape == nil {
		return ""
	}
	return j.Shape(i, sig, msg)
}

func (j Judge) stop(i int, sig failure.Signature) bool { return j.Stop != nil && j.Stop(i, sig) }

func (j Judge) limit(r *Runner) time.Duration {
	if j.Limit > 0 {
		return j.Limit
	}
	if j.Slice && r.sliced() {
		return min(r.Limit(j.Floor), r.sliceAt())
	}
	return r.Limit(j.Floor)
}

// from returns the judge of the inputs from the k-th on, as the inputs of
// a run of their own.
func (j Judge) from(k int) Judge {
	out := j
	if j.Shape != nil {
		out.Shape = func(i int, sig failure.Signature, msg string) string { return j.Shape(k+i, sig, msg) }
	}
	if j.Stop != nil {
		out.Stop = func(i int, sig failure.Signature) bool { return j.Stop(k+i, sig) }
	}
	return out
}

// A Result is what one process made of a list of inputs.
type Result struct {
	Outcomes []failure.Signature // one per input that ran, in order
	Msgs     map[int]string      // the user's messages of the failures among them, by input
	Stale    string              // the toolchain refused the corpus: why
	Stales   []string            // each file it refused, one line each
	Tail     string              // the last lines of output, for messages
	Wrapped  bool                // the target said it is wrapped by fuzzshrink (session.Probe)
}

// Run runs inputs (encoded corpus files) in order in one process and
// returns the outcome of each input that ran, as j judges them: a failure
// with a message the user's code wrote gets j.Shape(i, message) as its
// Text, an input that runs longer than j's limit hangs. It stops the
// process at the first outcome for which j.Stop returns true, and at a
// crash or timeout (the input that crashed or hung is the last outcome).
func (r *Runner) Run(ctx context.Context, inputs [][]byte, j Judge) (Result, error) {
	if err := r.writeInputs(inputs); err != nil {
		return Result{}, err
	}

	var (
		mu       sync.Mutex
		tail     lineTail
		res      Result
		started  = time.Now() // when the current input started
		stopping bool
		timedOut bool
		memOut   bool
		raced    bool // an input raced: the outcomes after it do not count
		proc     *testProcess
	)
	p := newOutputParser(r.inputIndex, r.Toolchain)
	res.Msgs = map[int]string{}
	p.shape = func(i int, sig failure.Signature, msg string) string {
		res.Msgs[i] = msg
		return j.shape(i, sig, msg)
	}
	mu.Lock() // proc is set before a line can stop it
	proc, err := r.startTest(append([]string{"-test.run=^" + r.Target + "$/^c[0-9]+$", "-test.v=test2json", "-test.paniconexit0"}, j.args...),
		session.Env+"="+session.Probe, func(line []byte) {
			mu.Lock()
			defer mu.Unlock()
			if ev, ok := session.ParseEvent(line); ok {
				res.Wrapped = res.Wrapped || ev.Action == session.ActionWrapped
				return
			}
			tail.add(line)
			before := p.current
			if i, sig := p.line(line); i >= 0 && !raced {
				if !sig.Failed() {
					r.ran(time.Since(started))
				}
				res.Outcomes = append(res.Outcomes, sig)
				// The race detector reports a race once a process: the
				// inputs after one run in a process of their own, and
				// what this one says of them does not count.
				raced = sig.Kind == failure.Race
				if !stopping && (j.stop(i, sig) || raced) {
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
		return Result{}, err
	}
	limit := j.limit(r)
	cutting := r.cutting(j, limit)
	interval := limit/20 + time.Millisecond
	if r.MemLimit > 0 {
		interval = min(interval, memPoll)
	}
	exit, err := proc.wait(ctx, interval, func() bool {
		mu.Lock()
		defer mu.Unlock()
		mem := int64(0)
		if r.MemLimit > 0 {
			mem = rss(proc.cmd.Process.Pid)
		}
		switch ran := time.Since(started); {
		case p.current < 0 || stopping:
		case r.MemLimit > 0 && mem > r.MemLimit:
			memOut, stopping = true, true
		case ran > limit && !(r.MemLimit > 0 && mem > r.MemLimit/2 && ran < r.Timeout):
			// A process past half the memory limit when its time is up
			// is allocating its way out of memory on a slow machine,
			// not hanging: it has until -exec-timeout to get there.
			timedOut, stopping = true, true
		}
		return timedOut || memOut
	})
	if err != nil {
		return Result{}, err
	}
	mu.Lock()
	defer mu.Unlock()
	if p.current >= 0 && !stopping {
		_, sig := p.end(exit)
		if !sig.Failed() {
			r.ran(time.Since(started))
		}
		res.Outcomes = append(res.Outcomes, sig)
	} else if timedOut && cutting {
		r.cuts++
		res.Outcomes = append(res.Outcomes, failure.Signature{})
	} else if timedOut {
		res.Outcomes = append(res.Outcomes, failure.Signature{Kind: failure.Timeout})
	} else if memOut {
		res.Outcomes = append(res.Outcomes, failure.Signature{Kind: failure.Memory})
	}
	res.Stale, res.Stales = p.stale, p.stales
	res.Tail = tail.String()
	return res, nil
}

// ReplayOne runs one input in a fresh process and returns how it fails, as
// j judges it.
func (r *Runner) ReplayOne(ctx context.Context, input []byte, j Judge) (failure.Signature, error) {
	out, err := r.Run(ctx, [][]byte{input}, j)
	if err != nil {
		return failure.Signature{}, err
	}
	if len(out.Outcomes) == 0 {
		return failure.Signature{}, fmt.Errorf("the test binary ran no input for %s; it said:\n%s", r.Target, out.Tail)
	}
	return out.Outcomes[0], nil
}

// lineTail keeps the last lines of an output, without the testing
// package's framing bytes, for error messages.
type lineTail struct {
	lines [12]string
	n     int
}

func (t *lineTail) add(line []byte) {
	line = plain(line)
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

// plain returns output as a person reads it: without the testing
// package's framing and error markers, with the test's own text unescaped.
func plain(out []byte) []byte {
	if bytes.IndexAny(out, "\x0e\x0f\x16\x1b") < 0 {
		return out
	}
	b := make([]byte, 0, len(out))
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == markEscape && i+1 < len(out):
			i++
			b = append(b, out[i])
		case c == markFraming && (i == 0 || out[i-1] == '\n'):
		case c != markErrBegin && c != markErrEnd:
			b = append(b, c)
		}
	}
	return b
}

// Refused maps the inputs of a run that the toolchain named in its
// complaints (Result.Stales, as in `"testdata/fuzz/FuzzX/c000003":
// mismatched types …`) to the complaint.
func (r *Runner) Refused(lines []string) map[int]string {
	out := map[int]string{}
	for _, l := range lines {
		_, rest, ok := strings.Cut(l, `"testdata/fuzz/`+r.Target+"/")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, `"`)
		if i, ok := r.inputIndex(r.Target + "/" + name); ok {
			out[i] = l
		}
	}
	return out
}
