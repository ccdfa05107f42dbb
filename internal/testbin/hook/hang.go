//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// HangEnv is the most an input may run in a worker that fuzzes past
// failures (a duration: fuzzmin's -exec-timeout). Once inputs have passed,
// an input hangs after hangFactor times the slowest of them, and hangFloor
// at least, as fuzzmin judges its own runs (testbin.Runner.Limit). The
// worker then ends itself, and its coordinator reports the input as a
// crash. The toolchain's own limit is ten seconds, as long as a short
// turn: such a turn ended before it could see a hang.
const HangEnv = "FUZZMIN_FUZZ_HANG"

// MemEnv is the most resident memory a worker that fuzzes past failures
// may reach, in bytes (fuzzmin's -memory-limit; unset or 0: no limit).
// Past it, while an input runs, the worker ends itself with memExit and
// its coordinator reports the input as a crash, which fuzzmin replays
// under the same limit (testbin.Runner.MemLimit). Without it, such an
// input grows the worker until the system's OOM killer ends it with
// SIGKILL, which the toolchain's coordinator takes for no crash: the turn
// ended with no failing input. Linux only (/proc/self/statm).
const MemEnv = "FUZZMIN_FUZZ_MEM"

// memExit is the exit status of a worker past the memory limit.
const memExit = 87

// As testbin's (checked by its tests).
const (
	hangFactor = 20
	hangFloor  = time.Second
)

// hangExit is the exit status of a worker the watchdog ends: one of its
// own, so that the coordinator's message ("exit status 86") tells a hang
// from a panic or a fatal error (2).
const hangExit = 86

// slowestFile, in the recording directory, holds the slowest passing run a
// worker of the turn has seen (nanoseconds), so that a worker the
// coordinator starts again (to minimize a crash) starts with it.
const slowestFile = "slowest.ns"

// A watchdog ends its worker when an input runs past the hang limit.
type watchdog struct {
	dir     string
	max     time.Duration
	mem     int64        // the memory limit in bytes (MemEnv); 0: none
	started atomic.Int64 // when the running input started, Unix ns; 0 while none runs
	slowest atomic.Int64 // ns: the slowest input that passed
	written int64        // the slowest written to slowestFile
}

// watchTick is how often the watchdog looks.
const watchTick = 50 * time.Millisecond

// start starts the watchdog, with the slowest run the turn's workers have
// written.
func (w *watchdog) start() {
	if data, err := os.ReadFile(filepath.Join(w.dir, slowestFile)); err == nil {
		if ns, err := strconv.ParseInt(string(data), 10, 64); err == nil && ns > 0 {
			w.slowest.Store(ns)
			w.written = ns
		}
	}
	go func() {
		for range time.Tick(watchTick) {
			w.check()
		}
	}()
}

// limit is the time an input may run. (The hook is compiled with the
// module's language version, which may predate min and max.)
func (w *watchdog) limit() time.Duration {
	s := time.Duration(w.slowest.Load())
	switch {
	case s == 0 || hangFactor*s >= w.max:
		return w.max
	case hangFactor*s > hangFloor:
		return hangFactor * s
	case hangFloor < w.max:
		return hangFloor
	}
	return w.max
}

// check ends the process if the input running has run past the limit, or
// holds more memory than the memory limit.
func (w *watchdog) check() {
	start := w.started.Load()
	if start == 0 {
		return
	}
	if ran, limit := time.Since(time.Unix(0, start)), w.limit(); ran > limit {
		fmt.Fprintf(os.Stderr, "fuzzmin: an input ran %v, past the hang limit of %v: its worker ends\n", ran.Round(time.Millisecond), limit)
		os.Exit(hangExit)
	}
	if w.mem > 0 && residentMemory() > w.mem {
		// What the collector can give back is not the input's.
		debug.FreeOSMemory()
		if rss := residentMemory(); rss > w.mem && w.started.Load() == start {
			fmt.Fprintf(os.Stderr, "fuzzmin: an input grew its worker to %d bytes, past the memory limit of %d: its worker ends\n", rss, w.mem)
			os.Exit(memExit)
		}
	}
}

// residentMemory returns the resident memory of this process in bytes, as
// /proc/self/statm counts it in pages, or 0 if it cannot tell: testbin's
// rss, which the hook cannot import (it imports nothing of fuzzmin's).
func residentMemory() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// run runs e, watched, and learns from it if it passes.
func (w *watchdog) run(run func(corpusEntry) error, e corpusEntry) error {
	start := time.Now()
	w.started.Store(start.UnixNano())
	err := run(e)
	w.started.Store(0)
	if d := int64(time.Since(start)); err == nil && d > w.slowest.Load() {
		w.slowest.Store(d)
		if d > 2*w.written {
			// Written when it doubles: a few times in a worker's life.
			w.written = d
			writeAtomic(filepath.Join(w.dir, slowestFile), []byte(strconv.FormatInt(d, 10)))
		}
	}
	return err
}
