//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"reflect"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// Serve makes f, a fuzz test run in fuzz worker mode, a batch worker of
// target, the fuzz test of that name: target runs with f, and its fuzz
// function runs the candidates fuzzmin sends, many per call, until fuzzmin
// closes the calls' pipe. Run by go test -fuzz with FuzzOnEnv set, it
// fuzzes target past its failures instead (fuzzOn). Outside a run of
// fuzzmin's it skips.
func Serve(f *testing.F, name string, target func(*testing.F)) {
	if dir := os.Getenv(FuzzOnEnv); dir != "" {
		if err := fuzzOn(f, name, dir); err != nil {
			f.Fatalf("fuzzmin cannot fuzz past failures: %v", err)
		}
		target(f)
		return
	}
	if os.Getenv("FUZZMIN_BATCH") != "1" {
		f.Skip("a batch worker of fuzzmin's, run by fuzzmin alone")
	}
	w := &worker{calls: os.NewFile(3, "fuzzmin_calls"), answers: os.NewFile(4, "fuzzmin_answers")}
	if err := w.install(f, name, os.NewFile(5, "fuzzmin_mem")); err != nil {
		w.answer(refused, 0, err.Error())
		return
	}
	target(f)
}

// The kinds of answer.
const (
	passed  = iota // every candidate of the call passed
	failed         // the last candidate run failed, with this output
	broken         // the call was not understood
	ready          // the first answer: the worker serves
	refused        // the first answer: it cannot, and why
)

// The shared memory: the candidate running and when it started (Unix
// nanoseconds), the time each candidate of the call ran, and the
// candidates, each a 4-byte length and a tuple of values.
const (
	runningAt = 0
	startedAt = 8
	timesAt   = 16
)

type worker struct {
	calls, answers *os.File
	mem            []byte
	head           [12]byte
}

// corpusEntry is the testing package's corpusEntry, an alias of
// this struct type.
type corpusEntry = struct {
	Parent     string
	Path       string
	Data       []byte
	Values     []interface{}
	Generation int
	IsSeed     bool
}

// testDeps has the methods of the testing package's testDeps.
type testDeps interface {
	ImportPath() string
	ModulePath() string
	MatchString(pat, str string) (bool, error)
	SetPanicOnExit0(bool)
	StartCPUProfile(io.Writer) error
	StopCPUProfile()
	StartTestLog(io.Writer)
	StopTestLog() error
	WriteProfileTo(string, io.Writer, int) error
	CoordinateFuzzing(time.Duration, int64, time.Duration, int64, int, []corpusEntry, []reflect.Type, string, string) error
	RunFuzzWorker(func(corpusEntry) error) error
	ReadCorpus(string, []reflect.Type) ([]corpusEntry, error)
	CheckCorpus([]interface{}, []reflect.Type) error
	ResetCoverage()
	SnapshotCoverage()
	InitRuntimeCoverage() (mode string, tearDown func(coverprofile string, gocoverdir string) (string, error), snapcov func() float64)
}

// ourDeps are the testing package's own but for RunFuzzWorker, which
// serves fuzzmin's calls.
type ourDeps struct {
	testDeps
	serve func(run func(corpusEntry) error) error
}

func (d ourDeps) RunFuzzWorker(run func(corpusEntry) error) error { return d.serve(run) }

// replaceDeps puts deps of its own in place of the testing package's in
// f's fuzz state, and names f as target name, as its output names it
// there. Every step checks that the testing package is the one known,
// and nothing changes unless all of them pass: proto, a value of the type
// ours makes, must have the methods of the package's deps, and ours, run
// after the checks and before anything is set, makes the deps from the
// package's own and f's value, or refuses.
func replaceDeps(f *testing.F, name string, proto testDeps, ours func(own testDeps, fv reflect.Value) (testDeps, error)) error {
	fv := reflect.ValueOf(f).Elem()
	state := fv.FieldByName("fstate")
	if state.Kind() != reflect.Ptr || state.IsNil() || state.Elem().Kind() != reflect.Struct {
		return errors.New("testing.F has no fuzz state (fstate)")
	}
	theirs := state.Elem().FieldByName("deps")
	if theirs.Kind() != reflect.Interface {
		return errors.New("the testing package's fuzz state has no deps")
	}
	theirs = settable(theirs)
	own, ok := theirs.Interface().(testDeps)
	if !ok || !reflect.TypeOf(proto).Implements(theirs.Type()) {
		return errors.New("the testing package's deps have methods not known")
	}
	fname := fv.FieldByName("name")
	if fname.Kind() != reflect.String {
		return errors.New("testing.F has no name")
	}
	deps, err := ours(own, fv)
	if err != nil {
		return err
	}
	theirs.Set(reflect.ValueOf(deps))
	settable(fname).SetString(name)
	return nil
}

// install puts the worker in place of the testing package's fuzz worker,
// which serves the toolchain's coordinator, and names f as the target.
func (w *worker) install(f *testing.F, name string, memFile *os.File) error {
	return replaceDeps(f, name, ourDeps{}, func(own testDeps, _ reflect.Value) (testDeps, error) {
		info, err := memFile.Stat()
		if err != nil {
			return nil, err
		}
		w.mem, err = syscall.Mmap(int(memFile.Fd()), 0, int(info.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_FILE|syscall.MAP_SHARED)
		if err != nil {
			return nil, err
		}
		return ourDeps{own, w.serve}, nil
	})
}

func settable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// serve answers calls until fuzzmin closes their pipe. A call is the
// number of candidates in the memory, 4 bytes; run runs one as the fuzz
// function's input, with a T of its own.
func (w *worker) serve(run func(corpusEntry) error) error {
	if err := w.answer(ready, 0, ""); err != nil {
		return err
	}
	var n [4]byte
	for {
		if _, err := io.ReadFull(w.calls, n[:]); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		kind, ran, msg := w.run(run, int(binary.LittleEndian.Uint32(n[:])))
		if err := w.answer(kind, ran, msg); err != nil {
			return err
		}
	}
}

// run runs n candidates in order, until one fails, and returns the kind
// of answer, how many ran and the output of one that failed.
func (w *worker) run(run func(corpusEntry) error, n int) (kind, ran int, msg string) {
	mem := w.mem
	at := timesAt + 8*n
	for i := 0; i < n; i++ {
		if at+4 > len(mem) {
			return broken, i, "candidates past the end of the memory"
		}
		end := at + 4 + int(binary.LittleEndian.Uint32(mem[at:]))
		if end > len(mem) || end < at {
			return broken, i, "candidates past the end of the memory"
		}
		vals, err := values(mem[at+4 : end])
		if err != nil {
			return broken, i, err.Error()
		}
		at = end
		start := time.Now()
		(*atomic.Int64)(unsafe.Pointer(&mem[startedAt])).Store(start.UnixNano())
		(*atomic.Int64)(unsafe.Pointer(&mem[runningAt])).Store(int64(i))
		err = run(corpusEntry{Values: vals})
		binary.LittleEndian.PutUint64(mem[timesAt+8*i:], uint64(time.Since(start)))
		if err != nil {
			return failed, i + 1, err.Error()
		}
	}
	return passed, n, ""
}

// answer writes an answer: its kind, how many candidates ran, the length
// of the message, 4 bytes each, and the message.
func (w *worker) answer(kind, ran int, msg string) error {
	b := w.head[:0]
	b = binary.LittleEndian.AppendUint32(b, uint32(kind))
	b = binary.LittleEndian.AppendUint32(b, uint32(ran))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(msg)))
	_, err := w.answers.Write(append(b, msg...))
	return err
}

// values reads a tuple of values: each a tag of its type, then the
// uvarint length and the bytes of a string or []byte, or 8 little-endian
// bytes: a bool as 0 or 1, an integer sign-extended, a float's IEEE bits.
func values(b []byte) ([]interface{}, error) {
	var vals []interface{}
	for len(b) > 0 {
		tag := b[0]
		b = b[1:]
		if tag == 1 || tag == 2 {
			n, w := binary.Uvarint(b)
			if w <= 0 || uint64(len(b)-w) < n {
				return nil, errors.New("a truncated tuple")
			}
			data := b[w : w+int(n)]
			b = b[w+int(n):]
			if tag == 1 {
				vals = append(vals, string(data))
			} else {
				vals = append(vals, append([]byte{}, data...))
			}
			continue
		}
		if len(b) < 8 {
			return nil, errors.New("a truncated tuple")
		}
		u := binary.LittleEndian.Uint64(b)
		b = b[8:]
		var v interface{}
		switch tag {
		case 3:
			v = u != 0
		case 4:
			v = int(u)
		case 5:
			v = int8(u)
		case 6:
			v = int16(u)
		case 7:
			v = int32(u)
		case 8:
			v = int64(u)
		case 9:
			v = uint(u)
		case 10:
			v = uint8(u)
		case 11:
			v = uint16(u)
		case 12:
			v = uint32(u)
		case 13:
			v = u
		case 14:
			v = math.Float32frombits(uint32(u))
		case 15:
			v = math.Float64frombits(u)
		default:
			return nil, errors.New("a tuple with an unknown tag")
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// appendValues appends vals to b as the tuple values reads.
func appendValues(b []byte, vals []interface{}) []byte {
	for _, v := range vals {
		var u uint64
		tag := byte(0)
		switch t := v.(type) {
		case string:
			b = append(binary.AppendUvarint(append(b, 1), uint64(len(t))), t...)
			continue
		case []byte:
			b = append(binary.AppendUvarint(append(b, 2), uint64(len(t))), t...)
			continue
		case bool:
			if t {
				u = 1
			}
			tag = 3
		case int:
			tag, u = 4, uint64(t)
		case int8:
			tag, u = 5, uint64(t)
		case int16:
			tag, u = 6, uint64(t)
		case int32:
			tag, u = 7, uint64(t)
		case int64:
			tag, u = 8, uint64(t)
		case uint:
			tag, u = 9, uint64(t)
		case uint8:
			tag, u = 10, uint64(t)
		case uint16:
			tag, u = 11, uint64(t)
		case uint32:
			tag, u = 12, uint64(t)
		case uint64:
			tag, u = 13, t
		case float32:
			tag, u = 14, uint64(math.Float32bits(t))
		case float64:
			tag, u = 15, math.Float64bits(t)
		default:
			continue // not a type a fuzz target takes
		}
		b = binary.LittleEndian.AppendUint64(append(b, tag), u)
	}
	return b
}
