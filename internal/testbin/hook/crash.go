//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// The coordinator of a turn that fuzzes past failures goes on past the
// inputs that end their workers too (an exit, a fatal error of the
// runtime, a hang): the toolchain's coordinator stops on such an input
// and writes it into the seed corpus directory; the hook's takes it out,
// records it, and runs the toolchain's coordinator again, from the same
// corpora, for the time left. Of each kind of crash (the coordinator's
// message, the worker's exit status, and the first line and position of
// the report the worker's runtime wrote: an unrecovered panic of another
// goroutine, a fatal error such as a stack overflow), the smallest input
// is kept, in
// dir/crash<N>-<pid>.input, with the variants that were running when its
// worker ended (.variant<K>, go test fuzz v1 files), the count of
// inputs that ended a worker so (.count), and when the first did (.first,
// Unix nanoseconds: when the coordinator stopped on it).

// CrashPrefix starts the names of the files of a crash.
const CrashPrefix = "crash"

// minRestart is the least time left for which the coordinator is run
// again (a start of its workers and a replay of the corpus): with less,
// the turn stops on the crash, as go test -fuzz does.
const minRestart = time.Second

// fatalPrefix starts the name of the file where a worker's runtime writes
// the report of the crash that ends it (runtime/debug.SetCrashOutput),
// dir/fatal-<pid>. The toolchain's coordinator gives its workers no
// standard error (os/exec's null device): this is where the report stays.
const fatalPrefix = "fatal-"

// maxReports bounds the kinds of crash of one message that are told apart
// by their reports: past it, the rest are one kind, so that a report that
// differs from crash to crash (a deep recursion's stack overflow, which
// may stop in any function of the cycle) does not make a kind of each.
const maxReports = 4

type crashes struct {
	dir     string
	seen    map[string]*crashRecord // by kind: message, report's first line, position
	reports map[string]int          // the kinds of each message
}

// reportCrashes makes the runtime of this worker write the report of a
// crash that ends it to a file in dir, as well as to its standard error.
func reportCrashes(dir string) {
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%s%d", fatalPrefix, os.Getpid())))
	if err != nil {
		return // its crashes are told apart by their messages alone
	}
	debug.SetCrashOutput(f, debug.CrashOptions{}) // which has its own copy of f
	f.Close()
}

// newCrashes returns the crashes recorded in dir.
func newCrashes(dir string) *crashes {
	return &crashes{dir: dir, seen: map[string]*crashRecord{}, reports: map[string]int{}}
}

// kind returns the kind of a crash of message msg: the message and, of the
// first of the report files that a worker that ended wrote, the first
// line, digits and quoted values masked, and the first position outside
// the runtime and the testing package, as fuzzOn tells failures apart. It
// removes the report files: their workers have ended.
func (c *crashes) kind(msg string, files []string) string {
	report := ""
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil && len(data) > 0 && report == "" {
			pos, text := failureKey(string(data))
			report = "\n" + pos + "\n" + text
		}
		os.Remove(f)
	}
	key := msg + report
	if c.seen[key] == nil && report != "" {
		if c.reports[msg] >= maxReports {
			return msg + "\n…"
		}
		c.reports[msg]++
	}
	return key
}

type crashRecord struct {
	path        string // without its suffix
	size, count int
}

// CoordinateFuzzing runs the testing package's coordinator, and again
// after each input that ended a worker while the time lasts.
func (d onDeps) CoordinateFuzzing(timeout time.Duration, limit int64, minimizeTimeout time.Duration, minimizeLimit int64, parallel int, seed []corpusEntry, types []reflect.Type, corpusDir, cacheDir string) error {
	end := time.Now().Add(timeout)
	// The testing package's coordinator takes interrupts while it runs;
	// between two of its runs, this one does, so that an interrupt then
	// is neither lost nor fatal.
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, os.Interrupt)
	defer signal.Stop(interrupt)
	for {
		err := d.testDeps.CoordinateFuzzing(timeout, limit, minimizeTimeout, minimizeLimit, parallel, seed, types, corpusDir, cacheDir)
		reports, _ := filepath.Glob(filepath.Join(d.crashes.dir, fatalPrefix+"*"))
		kind := d.crashes.kind(fmt.Sprint(err), reports)
		if err == nil || timeout <= 0 || limit > 0 || len(interrupt) > 0 {
			return err
		}
		if timeout = time.Until(end); timeout < minRestart {
			return err
		}
		var crash interface{ CrashPath() string }
		if errors.As(err, &crash) {
			if d.crashes.record(crash.CrashPath(), kind) != nil {
				return err // not kept: the turn stops on it
			}
			fmt.Fprintf(os.Stderr, "fuzzmin: fuzzing on past %v (%s)\n", err, filepath.Base(crash.CrashPath()))
			continue
		}
		// A seed entry whose worker ended (the coordinator names no file
		// then): if a variant of the hook's was running in its place,
		// most likely the variant failed, not the seed.
		if !d.crashes.recordVariants(kind) {
			return err
		}
		fmt.Fprintf(os.Stderr, "fuzzmin: fuzzing on past %v (a variant of a seed entry)\n", err)
	}
}

// record takes the crasher the coordinator wrote to path out of the seed
// corpus, and keeps it as a crash of its kind, with the variants the
// ended workers were running.
func (c *crashes) record(path, kind string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	variants := c.endedVariants()
	if err := os.Remove(path); err != nil {
		return err
	}
	return c.keep(data, kind, variants)
}

// keep counts a crash of kind, whose input is data (a go test fuzz v1
// file), and keeps data, with variants, if it is the smallest of its kind.
func (c *crashes) keep(data []byte, kind string, variants [][]byte) error {
	rec, err := c.count(kind)
	if err != nil || rec.size != 0 && len(data) >= rec.size {
		return err
	}
	if err := rec.keep(variants); err != nil {
		return err
	}
	if err := writeAtomic(rec.path+".input", data); err != nil {
		return err
	}
	rec.size = len(data)
	return nil
}

// recordVariants records the variants that were running when their
// workers ended, as a crash of its kind with no input of its own, and
// reports whether there were any.
func (c *crashes) recordVariants(kind string) bool {
	variants := c.endedVariants()
	if len(variants) == 0 {
		return false
	}
	rec, err := c.count("variant " + kind)
	return err == nil && (rec.count > 1 || rec.keep(variants) == nil)
}

// count counts a crash of the record of key, which the first makes.
func (c *crashes) count(key string) (*crashRecord, error) {
	rec := c.seen[key]
	if rec == nil {
		// Named by its kind, which every process that records crashes
		// into dir (the coordinator, each worker's shim) names alike.
		sum := sha256.Sum256([]byte(key))
		rec = &crashRecord{path: filepath.Join(c.dir, fmt.Sprintf("%s%x-%d", CrashPrefix, sum[:8], os.Getpid()))}
		c.seen[key] = rec
		writeAtomic(rec.path+".first", []byte(strconv.FormatInt(time.Now().UnixNano(), 10)))
	}
	rec.count++
	return rec, writeAtomic(rec.path+".count", []byte(strconv.Itoa(rec.count)))
}

// keep writes variants as the record's, in place of those it had.
func (rec *crashRecord) keep(variants [][]byte) error {
	old, _ := filepath.Glob(rec.path + ".variant*")
	for _, f := range old {
		os.Remove(f)
	}
	for i, v := range variants {
		if err := writeAtomic(fmt.Sprintf("%s.variant%d", rec.path, i), v); err != nil {
			return err
		}
	}
	return nil
}

// endedVariants returns the variants that were running when their workers
// ended, and removes their files: the coordinator has stopped every
// worker, and the others set theirs to none running (running.done).
func (c *crashes) endedVariants() [][]byte {
	files, _ := filepath.Glob(filepath.Join(c.dir, VariantPrefix+"*"))
	var out [][]byte
	for _, f := range files {
		if strings.HasSuffix(f, ".tmp") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil || len(data) < 8 {
			continue
		}
		if n := binary.LittleEndian.Uint64(data); n > 0 && n <= uint64(len(data)-8) {
			out = append(out, data[8:8+n])
		}
		os.Remove(f)
	}
	return out
}
