package testbin

import (
	"context"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/session"
)

// The toolchain's fuzz worker runs one input per call (a warmup fuzz
// call), and a call is a round trip between two processes: some 40 µs,
// more than a fast target takes. So fuzzmin adds to the test binaries it
// builds (go test -overlay: nothing is written into the module) a batch
// worker of its own for each fuzz target FuzzX: package hook, as a package
// of the module, and a test file in the package with a fuzz test
// Fuzz_fuzzmin_FuzzX that calls hook.Serve with FuzzX. Started as a fuzz
// worker, it runs FuzzX with its own testing.F, and the fuzz function on
// the candidates fuzzmin sends, many per call. It gets the function where
// the toolchain's worker does: the testing package hands it to its deps'
// RunFuzzWorker, which the hook replaces; it is the testing package's run,
// which runs each input with a T of its own and reports a panic or
// t.Fatal as the toolchain's worker reports it. The testing package's
// insides it touches (testing.F's fstate.deps and name, the testDeps
// interface) are checked, by reflection, as the worker starts: a binary
// whose testing package differs refuses, and candidates run in the
// toolchain's worker. The package is compiled once per module directory
// and toolchain, and then found in the build cache.
//
// The batch worker's protocol is fuzzmin's own. Its descriptors are the
// toolchain worker's: 3 the calls, 4 the answers, 5 a file both map into
// memory. A call is the number of candidates in the memory, 4 bytes
// little-endian; the memory holds, from the start, the index of the
// candidate running and when it started (Unix nanoseconds, written by the
// worker before each), the time each candidate of the call ran (8 bytes
// each, written after it), and the candidates, each a 4-byte length and a
// tuple (session.AppendTuple). The worker runs them in order until one
// fails, and answers with its kind of answer, how many candidates ran and
// the length of the output of the failed one, 4 bytes each, and that
// output. Its first answer says that it serves, or why it cannot. A
// worker that dies or hangs leaves in the memory the candidate it ran.
// (One difference from the toolchain's worker: a candidate that blocks
// every goroutine ends the batch worker, which has no goroutine waiting
// on its coordinator, with the runtime's "all goroutines are asleep"; it
// is then judged in a process, where it ends so too.)

// hookEnv, set to 1, tells the hook's fuzz tests that fuzzmin runs them.
const hookEnv = "FUZZMIN_BATCH"

// The kinds of answer, as the hook numbers them. The hook has its own
// copies of these numbers, of the memory's layout and of the tuple's tags
// (it imports nothing of fuzzmin's: it is compiled in the user's module);
// the batch tests run both ends, every tag included.
const (
	batchPassed  = iota // every candidate of the call passed
	batchFailed         // the last candidate run failed, with this output
	batchBroken         // the call was not understood
	batchReady          // the first answer: the worker serves
	batchRefused        // the first answer: it cannot, and why
)

// The shared memory of a batch worker.
const (
	batchRunningAt = 0  // the index of the candidate running
	batchStartedAt = 8  // when it started, in Unix nanoseconds
	batchTimesAt   = 16 // the time each candidate ran, then the candidates
)

//go:embed hook/hook.go
var hookSource []byte

//go:embed hook/fuzzon.go
var fuzzOnSource []byte

//go:embed hook/dict.go
var dictSource []byte

//go:embed hook/hang.go
var hangSource []byte

//go:embed hook/crash.go
var crashSource []byte

//go:embed hook/shim.go
var shimSource []byte

// fuzzOnEnv is the hook's FuzzOnEnv: the directory where a fuzz test
// fuzzed past its failures records them (FuzzOutcome.Found).
const fuzzOnEnv = "FUZZMIN_FUZZ_ON"

// variantPrefix is the hook's VariantPrefix: the file of the variant a
// worker runs.
const variantPrefix = "variant-"

// hangEnv is the hook's HangEnv: the most an input may run in a worker
// that fuzzes past failures (FuzzSlice.Hang).
const hangEnv = "FUZZMIN_FUZZ_HANG"

// memEnv is the hook's MemEnv: the most resident memory a worker that
// fuzzes past failures may reach (FuzzSlice.MemLimit).
const memEnv = "FUZZMIN_FUZZ_MEM"

// shimEnv is the hook's ShimEnv: set to 1 where the worker protocol was
// checked (Toolchain.Worker), each worker that fuzzes past failures is a
// shim that goes on past a crash of the worker that runs its inputs.
const shimEnv = "FUZZMIN_FUZZ_SHIM"

// crashPrefix is the hook's CrashPrefix: the files of an input that ended
// its worker, which the hook's coordinator went on past.
const crashPrefix = "crash"

// fatalPrefix is the hook's fatalPrefix: the file a worker's runtime
// writes its crash report to, which the hook's coordinator reads.
const fatalPrefix = "fatal-"

// slowestFile is the hook's file of the slowest passing run its workers
// have seen, which stays in the recording directory from turn to turn.
const slowestFile = "slowest.ns"

// HookName is the name of the hook's fuzz test for target.
func HookName(target string) string { return "Fuzz_fuzzmin_" + target }

// A HookTarget is a fuzz target to add a batch worker for: its name, the
// package clause of its file, and whether that is the external test
// package.
type HookTarget struct {
	Name, Package string
	External      bool
}

// The hook's files: the package, in a directory of the module's root, and
// a test file in the package directory for the package's tests and one
// for its external tests. All are named by hookName.
const (
	hookName  = "zz_fuzzmin_hook"
	hookFile  = hookName + "_test.go"
	hookXFile = hookName + "_x_test.go"
)

// WriteHooks writes into dir the hook: package hook as a package of the
// module whose root is modDir and path modPath, a test file for the
// package in pkgDir with a fuzz test per target that serves it, and an
// overlay that adds them to the module; and it returns go test's -overlay
// flag.
func WriteHooks(dir, modDir, modPath, pkgDir string, targets []HookTarget) (string, error) {
	files := map[string][]byte{
		filepath.Join(modDir, hookName, "hook.go"):   hookSource,
		filepath.Join(modDir, hookName, "fuzzon.go"): fuzzOnSource,
		filepath.Join(modDir, hookName, "dict.go"):   dictSource,
		filepath.Join(modDir, hookName, "hang.go"):   hangSource,
		filepath.Join(modDir, hookName, "crash.go"):  crashSource,
		filepath.Join(modDir, hookName, "shim.go"):   shimSource,
	}
	for _, t := range targets {
		path := filepath.Join(pkgDir, hookFile)
		if t.External {
			path = filepath.Join(pkgDir, hookXFile)
		}
		if files[path] == nil {
			files[path] = fmt.Appendf(nil, "// Code generated by fuzzmin: batch workers (internal/testbin/hook). DO NOT EDIT.\n\n"+
				"package %s\n\nimport (\n\t\"testing\"\n\n\tfuzzminhook %q\n)\n", t.Package, modPath+"/"+hookName)
		}
		files[path] = fmt.Appendf(files[path], "\nfunc %s(f *testing.F) { fuzzminhook.Serve(f, %q, %s) }\n", HookName(t.Name), t.Name, t.Name)
	}
	overlay := struct{ Replace map[string]string }{map[string]string{}}
	for i, path := range slices.Sorted(maps.Keys(files)) {
		if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s exists, or cannot be looked at: the hook cannot be added", path)
		}
		file := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(path)))
		if err := os.WriteFile(file, files[path], 0o666); err != nil {
			return "", err
		}
		overlay.Replace[path] = file
	}
	b, err := json.Marshal(overlay)
	if err != nil {
		return "", err
	}
	file := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(file, b, 0o666); err != nil {
		return "", err
	}
	return "-overlay=" + file, nil
}

// HookBroke reports whether the output of a failed build names a file of
// the hook: without it, the package may build.
func HookBroke(output string) bool { return strings.Contains(output, hookName) }

// hello reads a batch worker's first answer, for at most limit.
func (w *fuzzWorker) hello(limit time.Duration) error {
	end := time.Now().Add(limit)
	kind, _, msg, err := w.answer(context.Background(), func() time.Time { return end })
	switch {
	case err != nil:
		return err
	case kind == batchRefused:
		return fmt.Errorf("the batch worker cannot serve: %s", msg)
	case kind != batchReady:
		return fmt.Errorf("the batch worker's first answer is not understood (%d)", kind)
	}
	return nil
}

// answer waits for a batch worker's answer until due().
func (w *fuzzWorker) answer(ctx context.Context, due func() time.Time) (kind, n int, msg string, err error) {
	err = w.await(ctx, due, func(deadline time.Time) error {
		if err := w.fill(12, deadline); err != nil {
			return err
		}
		return w.fill(12+int(binary.LittleEndian.Uint32(w.unread[8:])), deadline)
	})
	if err != nil {
		return 0, 0, "", err
	}
	kind = int(binary.LittleEndian.Uint32(w.unread))
	n = int(binary.LittleEndian.Uint32(w.unread[4:]))
	end := 12 + int(binary.LittleEndian.Uint32(w.unread[8:]))
	msg = string(w.unread[12:end])
	w.unread = w.unread[end:]
	return kind, n, msg, nil
}

// batchSpan is about the longest a call to a batch worker should run, by
// the time inputs have taken: where runners share a batch, one runs on
// past the first failure found by another until its call ends.
const batchSpan = 5 * time.Millisecond

// runBatch runs inputs (corpus files) in order in the runner's batch
// worker, as many as a call takes, until one fails. An error says that
// the input after those run could not be judged there.
func (r *Runner) runBatch(ctx context.Context, inputs [][]byte, limit time.Duration) (ran, error) {
	w := r.worker
	most := len(inputs)
	if r.passed == 0 {
		most = min(most, 4)
	} else if mean := r.spent / time.Duration(r.passed); mean > 0 {
		most = min(most, max(1, int(batchSpan/mean)))
	}
	var tuples [][]byte
	size := batchTimesAt
	for _, in := range inputs[:most] {
		vals, err := encoding.Unmarshal(in)
		if err != nil {
			break // the toolchain's worker, or a process, says what it makes of it
		}
		t, err := session.AppendTuple(nil, vals)
		if err != nil || size+8+4+len(t) > len(w.mem) {
			break
		}
		tuples = append(tuples, t)
		size += 8 + 4 + len(t)
	}
	if len(tuples) == 0 {
		return ran{}, errors.New("the input is not one the batch worker takes")
	}
	n := len(tuples)
	at := batchTimesAt + 8*n
	for _, t := range tuples {
		binary.LittleEndian.PutUint32(w.mem[at:], uint32(len(t)))
		at += 4 + copy(w.mem[at+4:], t)
	}
	running := (*atomic.Int64)(unsafe.Pointer(&w.mem[batchRunningAt]))
	started := (*atomic.Int64)(unsafe.Pointer(&w.mem[batchStartedAt]))
	running.Store(0)
	started.Store(time.Now().UnixNano())
	var call [4]byte
	binary.LittleEndian.PutUint32(call[:], uint32(n))
	if _, err := w.calls.Write(call[:]); err != nil {
		return ran{}, errWorkerLost
	}
	kind, k, msg, err := w.answer(ctx, func() time.Time { return time.Unix(0, started.Load()).Add(limit) })
	if err != nil {
		return ran{times: w.times(int(running.Load()))}, err
	}
	switch {
	case kind == batchPassed && k == n:
		return ran{times: w.times(n)}, nil
	case kind == batchFailed && k >= 1 && k <= n:
		return ran{times: w.times(k - 1), failed: true, out: msg}, nil
	case kind == batchBroken && k >= 0 && k < n:
		r.hookErr = fmt.Errorf("the batch worker did not understand a call: %s", msg)
		return ran{times: w.times(k)}, r.hookErr
	}
	r.hookErr = fmt.Errorf("the batch worker's answer is not understood (%d, %d of %d)", kind, k, n)
	return ran{}, r.hookErr
}

// times returns the times the first n candidates of the last call ran.
func (w *fuzzWorker) times(n int) []time.Duration {
	ts := make([]time.Duration, n)
	for i := range ts {
		ts[i] = time.Duration(binary.LittleEndian.Uint64(w.mem[batchTimesAt+8*i:]))
	}
	return ts
}
