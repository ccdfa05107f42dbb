//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzOnEnv names the directory where a fuzz test run by fuzzOn records
// the failing inputs it fuzzes past.
const FuzzOnEnv = "FUZZMIN_FUZZ_ON"

// maxKeys bounds the failures a worker records: past it, a failure of a
// new kind is counted in the file "more" alone.
const maxKeys = 64

// maxTextsAt bounds the kinds of one position: past it, a new text there
// is most likely a value the masking missed (a word of the input), and
// the kinds of that position that are not yet recorded are one kind, so
// that they do not take the places of failures elsewhere.
const maxTextsAt = 8

// fuzzOn makes f, run by go test -fuzz (as its coordinator or one of its
// workers), fuzz target, the fuzz test of that name, past its failures:
// the coordinator and its output name the target, its corpora are the
// target's; and in a worker, an input whose run fails (a panic, t.Fatal,
// t.Error) is recorded in dir and counts as passing, with no coverage, so
// that the coordinator neither stops nor keeps it. What ends the worker
// process (an exit, a fatal error of the runtime, a hang) stops the
// toolchain's coordinator, which onDeps.CoordinateFuzzing runs again.
//
// For each kind of failure (its first line, digits aside, and the first
// position of the stack outside the runtime and the testing package) the
// worker keeps the smallest input seen (by the size of its values), in
// dir/<kind>-<pid>.input as a go test fuzz v1 file, how many inputs
// failed so, in .count, written when the count reaches a power of two
// and when the worker ends, and when the first did, in .first (Unix nanoseconds).
func fuzzOn(f *testing.F, name, dir string) error {
	return replaceDeps(f, name, onDeps{}, func(own testDeps, fv reflect.Value) (testDeps, error) {
		failed := fv.FieldByName("failed") // of the embedded common
		if failed.Kind() != reflect.Bool {
			return nil, errors.New("testing.F has no failed mark")
		}
		d, err := readDict(os.Getenv(DictEnv))
		if err != nil {
			return nil, err
		}
		hang, err := time.ParseDuration(os.Getenv(HangEnv))
		if err != nil || hang <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive duration", HangEnv, os.Getenv(HangEnv))
		}
		var mem int64
		if v := os.Getenv(MemEnv); v != "" {
			if mem, err = strconv.ParseInt(v, 10, 64); err != nil || mem < 0 {
				return nil, fmt.Errorf("%s=%q: want a number of bytes", MemEnv, v)
			}
		}
		rec := &recorder{dir: dir, seen: map[string]*record{}, texts: map[string]int{}}
		return onDeps{own, rec, settable(failed), d, &running{dir: dir}, &watchdog{dir: dir, max: hang, mem: mem}, newCrashes(dir)}, nil
	})
}

// onDeps are the testing package's own but for RunFuzzWorker, whose runs
// fuzz past failures.
type onDeps struct {
	testDeps
	rec     *recorder
	failed  reflect.Value // the F's failed mark, which a failed run sets
	dict    *dict
	varied  *running
	hang    *watchdog
	crashes *crashes // the coordinator's
}

// RunFuzzWorker runs the worker of the testing package, whose runs fuzz
// past failures, and runs now and then a variant of an input (dict.vary)
// before it: the input's own run comes last, so that the coverage the
// worker reports is the input's. With ShimEnv set, the worker is a shim
// that starts the worker that runs the inputs (shim.go), unless it cannot.
func (d onDeps) RunFuzzWorker(run func(corpusEntry) error) error {
	if os.Getenv(ShimEnv) == "1" && os.Getenv(childEnv) == "" {
		if served, err := serveShim(d.rec.dir); served {
			return err
		}
	}
	// The counts written on the way are powers of two; the worker's
	// last are written when its coordinator ends it.
	defer d.rec.flush()
	reportCrashes(d.rec.dir)
	d.hang.start()
	log := openInputLog()
	return d.testDeps.RunFuzzWorker(func(e corpusEntry) error {
		if vals := d.dict.vary(e.Values); vals != nil {
			// A variant that ends the process (an exit, a hang) ends it
			// while the toolchain names e: the input log, or else the
			// variant's file, says it was the variant.
			if log != nil {
				log.put(vals)
			} else {
				d.varied.start(vals)
			}
			err := d.hang.run(run, corpusEntry{Values: vals})
			d.varied.done()
			if err != nil {
				d.rec.record(vals, err.Error())
				d.failed.SetBool(false)
			}
		}
		if log != nil {
			log.put(e.Values)
		}
		err := d.hang.run(run, e)
		if err == nil {
			return nil
		}
		d.rec.record(e.Values, err.Error())
		// No coverage: the coordinator keeps no failing input.
		d.testDeps.ResetCoverage()
		d.testDeps.SnapshotCoverage()
		d.failed.SetBool(false)
		return nil
	})
}

type recorder struct {
	dir   string
	mu    sync.Mutex
	seen  map[string]*record
	texts map[string]int // the kinds recorded at each position
	more  int
}

type record struct {
	path        string
	size, count int // size: rawSize of the input kept
}

func (r *recorder) record(vals []interface{}, out string) {
	pos, text := failureKey(out)
	key, size := pos+"\n"+text, rawSize(vals)
	r.mu.Lock()
	defer r.mu.Unlock()
	rec := r.seen[key]
	if rec == nil && r.texts[pos] >= maxTextsAt {
		key = pos + "\n…"
		rec = r.seen[key]
	}
	if rec == nil {
		if len(r.seen) >= maxKeys {
			r.more++
			if r.more&(r.more-1) == 0 {
				writeAtomic(filepath.Join(r.dir, fmt.Sprintf("more-%d.count", os.Getpid())), []byte(strconv.Itoa(r.more)))
			}
			return
		}
		sum := sha256.Sum256([]byte(key))
		rec = &record{path: filepath.Join(r.dir, fmt.Sprintf("%x-%d", sum[:8], os.Getpid()))}
		r.seen[key] = rec
		r.texts[pos]++
		writeAtomic(rec.path+".first", []byte(strconv.FormatInt(time.Now().UnixNano(), 10)))
	}
	rec.count++
	// Marshaled only when it is kept: most failing inputs are repeats.
	if rec.size == 0 || size < rec.size {
		// Kept once written: a write that fails is tried again by the
		// next input of its kind.
		if data, err := marshal(vals); err == nil && writeAtomic(rec.path+".input", data) == nil {
			rec.size = size
		}
	}
	if rec.count&(rec.count-1) == 0 {
		writeAtomic(rec.path+".count", []byte(strconv.Itoa(rec.count)))
	}
}

// flush writes each count that changed since it was last written.
func (r *recorder) flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.more&(r.more-1) != 0 {
		writeAtomic(filepath.Join(r.dir, fmt.Sprintf("more-%d.count", os.Getpid())), []byte(strconv.Itoa(r.more)))
	}
	for _, rec := range r.seen {
		if rec.count&(rec.count-1) != 0 {
			writeAtomic(rec.path+".count", []byte(strconv.Itoa(rec.count)))
		}
	}
}

// rawSize is the size of values as a target takes them: the bytes of its
// strings and byte slices, 8 for any other value.
func rawSize(vals []interface{}) int {
	n := 1 // no input is of size 0: rec.size 0 is none kept yet
	for _, v := range vals {
		switch t := v.(type) {
		case string:
			n += len(t)
		case []byte:
			n += len(t)
		default:
			n += 8
		}
	}
	return n
}

// failureKey is the kind of a failure's output: where it happened, the
// first position of its stack outside the runtime and the testing package
// or else the position its first line starts with, and its text, the
// first line (past the testing package's "--- FAIL:" lines) with its
// numbers and quoted values aside.
func failureKey(out string) (pos, text string) {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--- FAIL:") && !strings.HasPrefix(t, "=== ") {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "", ""
	}
	first := strings.TrimSpace(lines[0])
	if i := strings.Index(first, ".go:"); i >= 0 && !strings.Contains(first[:i], " ") {
		if j := strings.Index(first[i:], ": "); j >= 0 {
			pos, first = first[:i+j], first[i+j+2:]
		}
	}
	var b strings.Builder
	for i := 0; i < len(first); i++ {
		switch c := first[i]; {
		case c == '"':
			// A quoted value (%q), whatever it holds.
			for i++; i < len(first) && first[i] != '"'; i++ {
				if first[i] == '\\' {
					i++
				}
			}
			b.WriteString(`""`)
		case c < '0' || c > '9':
			b.WriteByte(c)
		case i == 0 || first[i-1] < '0' || first[i-1] > '9':
			b.WriteByte('#') // a number, whatever its digits
		}
	}
	for _, l := range lines[1:] {
		// A panic's stack, as t.Errorf indents it: "        \t/…/x.go:12 +0x1d".
		l = strings.TrimLeft(l, " ")
		if strings.HasPrefix(l, "\t") && strings.Contains(l, ".go:") && !stdFrame(strings.TrimSpace(l)) {
			if i := strings.LastIndex(l, " +0x"); i > 0 {
				l = l[:i]
			}
			return strings.TrimSpace(l), b.String()
		}
	}
	return pos, b.String()
}

// stdFrame reports whether a stack frame's file is the runtime's or the
// testing package's, under GOROOT or, built with -trimpath, by its
// import path.
func stdFrame(file string) bool {
	for _, pkg := range []string{"runtime/", "testing/"} {
		if strings.HasPrefix(file, pkg) || strings.Contains(file, "/src/"+pkg) {
			return true
		}
	}
	return false
}

// VariantPrefix starts the name of the file in which a worker keeps the
// variant it runs: an 8-byte length, little-endian, then that many bytes
// of a go test fuzz v1 file; the length is 0 while no variant runs. One
// left with a length after its worker ended is the variant that ended it.
const VariantPrefix = "variant-"

// running is the file of the variant a worker runs, opened with the
// first: the coordinator, which runs none, has none.
type running struct {
	dir string
	f   *os.File
}

func (r *running) start(vals []interface{}) {
	if r.f == nil {
		f, err := os.Create(filepath.Join(r.dir, fmt.Sprintf("%s%d", VariantPrefix, os.Getpid())))
		if err != nil {
			return // a crash in a variant is then put down to its input
		}
		r.f = f
	}
	data, err := marshal(vals)
	if err != nil {
		return
	}
	var n [8]byte
	r.f.WriteAt(n[:], 0)
	r.f.WriteAt(data, 8)
	binary.LittleEndian.PutUint64(n[:], uint64(len(data)))
	r.f.WriteAt(n[:], 0)
}

func (r *running) done() {
	if r.f != nil {
		var n [8]byte
		r.f.WriteAt(n[:], 0)
	}
}

// writeAtomic writes data to path by way of a temporary file, so that a
// reader never sees a part of it.
func writeAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0666); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// marshal is internal/fuzz's marshalCorpusFile: the values as a go test
// fuzz v1 file, byte for byte.
func marshal(vals []interface{}) ([]byte, error) {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, val := range vals {
		switch t := val.(type) {
		case int, int8, int16, int64, uint, uint16, uint32, uint64, bool:
			fmt.Fprintf(&b, "%T(%v)\n", t, t)
		case float32:
			if math.IsNaN(float64(t)) && math.Float32bits(t) != math.Float32bits(float32(math.NaN())) {
				fmt.Fprintf(&b, "math.Float32frombits(0x%x)\n", math.Float32bits(t))
			} else {
				fmt.Fprintf(&b, "%T(%v)\n", t, t)
			}
		case float64:
			if math.IsNaN(t) && math.Float64bits(t) != math.Float64bits(math.NaN()) {
				fmt.Fprintf(&b, "math.Float64frombits(0x%x)\n", math.Float64bits(t))
			} else {
				fmt.Fprintf(&b, "%T(%v)\n", t, t)
			}
		case string:
			fmt.Fprintf(&b, "string(%q)\n", t)
		case rune:
			if utf8.ValidRune(t) {
				fmt.Fprintf(&b, "rune(%q)\n", t)
			} else {
				fmt.Fprintf(&b, "int32(%v)\n", t)
			}
		case byte:
			fmt.Fprintf(&b, "byte(%q)\n", t)
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", t)
		default:
			return nil, fmt.Errorf("unsupported type %T", t)
		}
	}
	return []byte(b.String()), nil
}
