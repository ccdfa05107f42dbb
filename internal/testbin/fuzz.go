package testbin

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// BuildFuzz has the go command build a package's test binary at path
// instrumented for coverage-guided fuzzing, as go test -fuzz builds it
// (cmd/go/internal/test: -fuzz sets the instrumentation of every package
// but a few of the runtime's). goCmd makes a go command with the given
// arguments, run as the user's; flags are go test's flags for the package
// (-tags, -race) and the package. A build that fails returns a
// *BuildError.
func BuildFuzz(goCmd func(args ...string) *exec.Cmd, path string, flags []string) error {
	args := append([]string{"test", "-c", "-vet=off", "-fuzz=.", "-o", path}, flags...)
	out, err := goCmd(args...).CombinedOutput()
	if err != nil {
		return &BuildError{Output: strings.TrimSpace(string(out)), err: err}
	}
	return nil
}

// A FuzzSlice is one run of the toolchain's fuzzer on one target of a
// binary BuildFuzz built: the coordinator and its workers, as go test
// -fuzz runs them.
type FuzzSlice struct {
	Target   string
	Dir      string        // the working directory, from FuzzDir
	CacheDir string        // the generated corpora of the package (-test.fuzzcachedir: $GOCACHE/fuzz/<import path>)
	Time     time.Duration // -test.fuzztime
	Workers  int           // -test.parallel: the fuzz workers
	// FuzzOn, if set, fuzzes Target past its failures, in a binary built
	// with the hook (HookTarget): the hook's fuzz test of Target runs in
	// its place, and records in the directory FuzzOn the failures it
	// fuzzes past (ReadFound). The inputs that found new coverage are
	// then minimized as go test -fuzz minimizes them, for at most
	// fuzzOnMinimize each.
	FuzzOn string
	// Hang is the most an input may run in a worker that fuzzes past
	// failures (-exec-timeout): the worker ends itself past it, or past
	// the hang limit Runner.Limit would judge by (hook.HangEnv).
	Hang time.Duration
	// MemLimit, if not 0, is the most resident memory in bytes a worker
	// that fuzzes past failures may reach while an input runs
	// (-memory-limit): past it the worker ends itself, and the input is a
	// crash of its own exit status (hook.MemEnv).
	MemLimit int64
}

// fuzzOnMinimize bounds the toolchain's minimization of an input that
// found new coverage, in a run that fuzzes past failures, as go test
// -fuzz minimizes such inputs by default. (A failure that ends the worker,
// an exit or a hang, the toolchain does not minimize: the worker is gone.)
const fuzzOnMinimize = 2 * time.Second

// ErrFuzzOnRefused is the error of a run of the fuzzer that could not fuzz
// past failures: the testing package is not the one the hook knows. The
// run did no fuzzing; a run without FuzzOn does.
var ErrFuzzOnRefused = errors.New("the hook cannot fuzz past failures")

// fuzzOnRefusal is what the hook prints when it cannot (hook.Serve).
const fuzzOnRefusal = "fuzzmin cannot fuzz past failures: "

// FuzzStats is what a run of the fuzzer reported (internal/fuzz's
// coordinator, logStats): its last line of progress.
type FuzzStats struct {
	Elapsed time.Duration
	Execs   int64
	New     int // inputs that found new coverage, which the generated corpus gained
	Corpus  int // the inputs of its corpora, seeds included
	// Coverage is what the coordinator's corpus covers: the bits of its
	// coverage mask (one for each bucket of hit counts that an edge of the
	// instrumented code reached), as GODEBUG=fuzzdebug=1 has it say; 0
	// before the corpus's baseline is known.
	Coverage int
}

// A FuzzOutcome is how a run of the fuzzer ended.
type FuzzOutcome struct {
	FuzzStats
	// Crasher is the input the fuzzer stopped on, as the file it wrote
	// ("go test fuzz v1"); nil if it stopped because its time was up.
	// Seed names the seed corpus entry it stopped on instead, when the
	// failure was in the seed corpus.
	Crasher []byte
	Seed    string
	// Output is the end of what the run printed, for a failure.
	Output string
	// Overdue says that the fuzzer did not stop at its time, turnGrace
	// after it, and was ended with what it started.
	Overdue bool
}

// FuzzDir mirrors the module of b, down to its package directory, into
// dir, as Runner does, with seeds (name to file) as target's seed corpus,
// and returns the working directory of a FuzzSlice of target: the seed
// corpus the fuzzer reads and writes its failing input into is the
// mirror's, not the package's, so that a seed entry known to fail can be
// left out and nothing the fuzzer writes reaches the package unminimized.
func (b *Binary) FuzzDir(target, dir string, seeds map[string][]byte) (string, error) {
	work, err := b.mirrorFor(target, dir)
	if err != nil {
		return "", err
	}
	for name, data := range seeds {
		if err := os.WriteFile(filepath.Join(work, "testdata", "fuzz", target, name), data, 0o666); err != nil {
			return "", err
		}
	}
	return work, nil
}

// fuzzStatsRE matches the coordinator's line of progress (internal/fuzz,
// coordinator.logStats).
var fuzzStatsRE = regexp.MustCompile(`^fuzz: elapsed: (\S+), execs: (\d+) \(\d+/sec\)(?:, new interesting: (\d+) \(total: (\d+)\))?$`)

const (
	seedFailure    = "failure while testing seed corpus entry: " // internal/fuzz/fuzz.go
	failingWritten = "Failing input written to "                 // testing/fuzz.go
	fuzzingOnPast  = "fuzzmin: fuzzing on past "                 // the hook's coordinator, crash.go
)

// turnGrace is how long a fuzzer may take to stop after its time is up:
// it replays nothing then, it only stops its workers and writes its cache.
// A variable for the tests.
var turnGrace = 10 * time.Second

// Fuzz runs the fuzzer on one target for s.Time and returns how it ended,
// with its last line of progress. Canceling ctx
// interrupts the coordinator alone, which stops its workers (an
// interrupted worker's input would be taken for a crash); the run then
// ends as if its time were up.
func (b *Binary) Fuzz(ctx context.Context, s FuzzSlice) (FuzzOutcome, error) {
	cmd := b.fuzzCmd(s)
	setProcessGroup(cmd)
	dieWithParent(cmd, syscall.SIGINT)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	// A child the target started may hold the output open long after the
	// fuzzer exited: the turn ends on time all the same, and what it left
	// running is ended with it.
	cmd.WaitDelay = orphanGrace
	if err := cmd.Start(); err != nil {
		return FuzzOutcome{}, err
	}
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		killProcessGroup(cmd)
		pw.Close()
		if errors.Is(err, exec.ErrWaitDelay) {
			err = nil // the fuzzer exited; only its output was held
		}
		exited <- err
	}()
	stop := context.AfterFunc(ctx, func() {
		cmd.Process.Signal(os.Interrupt)
		time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
	})
	defer stop()
	// The coordinator waits for its workers' pipes, which a child a worker
	// started inherits (the toolchain passes them to the worker without
	// close-on-exec): such a child keeps the fuzzer from ending. A turn
	// past its time by turnGrace ends with its process group.
	var killed atomic.Bool
	overdue := time.AfterFunc(s.Time+turnGrace, func() {
		killed.Store(true)
		killProcessGroup(cmd)
	})
	defer overdue.Stop()
	var out FuzzOutcome
	var tail []string
	written := ""
	var past FuzzStats // of the coordinators before the last, when the hook's ran the toolchain's again
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if _, debug, ok := strings.Cut(line, fuzzDebug); ok {
			// Not the target's: it stays out of the output's tail.
			if m := coverageBitsRE.FindStringSubmatch(debug); m != nil {
				out.Coverage, _ = strconv.Atoi(m[1])
			}
			continue
		}
		if tail = append(tail, line); len(tail) > 40 {
			tail = tail[1:]
		}
		trimmed := strings.TrimSpace(line)
		if m := fuzzStatsRE.FindStringSubmatch(trimmed); m != nil {
			out.FuzzStats = parseFuzzStats(m, out.Coverage)
		} else if strings.HasPrefix(trimmed, fuzzingOnPast) {
			// The hook's coordinator starts the toolchain's again, whose
			// statistics start again from 0: those so far are added.
			past.Elapsed += out.Elapsed
			past.Execs += out.Execs
			past.New += out.New
			out.FuzzStats = FuzzStats{Corpus: out.Corpus, Coverage: out.Coverage}
			out.Seed = "" // the failure it named was a variant's
		} else if rest, ok := strings.CutPrefix(trimmed, seedFailure); ok {
			_, out.Seed, _ = strings.Cut(rest, "/")
		} else if rest, ok := strings.CutPrefix(trimmed, failingWritten); ok {
			written = rest
		}
	}
	io.Copy(io.Discard, pr)
	out.Elapsed += past.Elapsed
	out.Execs += past.Execs
	out.New += past.New
	err := <-exited
	if written != "" {
		path := written
		if !filepath.IsAbs(path) {
			path = filepath.Join(s.Dir, path)
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			return out, fmt.Errorf("reading the input the fuzzer wrote: %w", rerr)
		}
		os.Remove(path) // the mirror's: the next run must not start on it
		out.Crasher = data
	}
	var ee *exec.ExitError
	why := ""
	if s.FuzzOn != "" {
		why = refused(tail)
	}
	switch {
	case err == nil || ctx.Err() != nil:
		return out, nil
	case killed.Load() && out.Crasher == nil && out.Seed == "":
		// Its time was up; what it had not stopped was ended.
		out.Overdue = true
		return out, nil
	case out.Crasher != nil || out.Seed != "":
		out.Output = strings.Join(tail, "\n")
		return out, nil
	case errors.As(err, &ee) && why != "":
		return out, fmt.Errorf("%w: %s", ErrFuzzOnRefused, why)
	case errors.As(err, &ee) && deadlineRace(tail):
		// The time was up (go.dev/issue/75804: before Go 1.27 the
		// coordinator can report its own -fuzztime deadline as a
		// failure of the target, internal/fuzz/fuzz.go's stop).
		return out, nil
	case errors.As(err, &ee):
		return out, fmt.Errorf("the fuzzer of %s ended (%v) without a failing input:\n%s", s.Target, err, strings.Join(tail, "\n"))
	}
	return out, err
}

// fuzzCmd returns the command of a run of the fuzzer.
func (b *Binary) fuzzCmd(s FuzzSlice) *exec.Cmd {
	target, minimize, env := s.Target, time.Duration(0), b.Env
	if env == nil {
		env = os.Environ()
	}
	env = withGODEBUG(env, "fuzzdebug=1") // for the coverage (FuzzStats.Coverage)
	if s.FuzzOn != "" {
		target, minimize = HookName(s.Target), fuzzOnMinimize
		env = append(slices.Clip(env), fuzzOnEnv+"="+s.FuzzOn, hangEnv+"="+s.Hang.String(), memEnv+"="+strconv.FormatInt(s.MemLimit, 10))
		if b.Dict != "" {
			env = append(env, dictEnv+"="+b.Dict)
		}
		if b.Toolchain != nil {
			if ok, _ := b.Toolchain.Worker(); ok {
				env = append(env, shimEnv+"=1")
			}
		}
	}
	cmd := exec.Command(b.Path, "-test.run=^$", "-test.fuzz=^"+regexp.QuoteMeta(target)+"$",
		"-test.fuzztime="+s.Time.String(), "-test.fuzzminimizetime="+minimize.String(), "-test.fuzzcachedir="+s.CacheDir,
		"-test.parallel="+strconv.Itoa(max(1, s.Workers)), "-test.timeout=0", "-test.paniconexit0")
	cmd.Dir, cmd.Env = s.Dir, env
	return cmd
}

// refused returns why the hook could not fuzz past failures, from the end
// of the run's output; "" if it did not say so.
func refused(tail []string) string {
	for _, l := range tail {
		if _, why, ok := strings.Cut(l, fuzzOnRefusal); ok {
			return why
		}
	}
	return ""
}

// A Found is a failure a run of the fuzzer fuzzed past (FuzzSlice.FuzzOn):
// its kind, as the hook tells failures apart (the same in every run of
// the binary), the smallest input of its kind the workers recorded, how
// many inputs failed so, at least, and when the first did (zero if no
// worker said).
type Found struct {
	Kind  string
	Input []byte
	Count int
	At    time.Time
	// Variant says that Input is a variant of the hook's (a value put in
	// an input's place) that was running when its worker ended: if the
	// run stopped on a crash, the crash may be the variant's, not that of
	// the input the fuzzer names. Kind is "".
	Variant bool
	// Crash says that Input ended its worker (an exit, a fatal error, a
	// hang): the smallest of those of one kind (the coordinator's
	// message, and the first line and place of the report the worker's
	// runtime wrote), which the hook's coordinator went on past. Variants are the
	// variants of the hook's that were running when its worker ended, as
	// Variant has them; Input is nil where the worker ran a seed entry,
	// which the coordinator names no file of.
	Crash    bool
	Variants [][]byte
}

// ReadFound returns the failures recorded in dir by a run of the fuzzer
// that fuzzed past them, one of each kind, in the order of their kinds,
// then the variants (Found.Variant) that were running when their workers
// ended, and how many more failed in kinds past the workers' bound; and
// empties dir for the next run.
func ReadFound(dir string) ([]Found, int, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, 0, err
	}
	byKind := map[string]*Found{}
	var kinds []string
	var variants []Found
	more := 0
	for _, de := range des {
		name := de.Name()
		path := filepath.Join(dir, name)
		kind, _, _ := strings.Cut(name, "-")
		if name == slowestFile {
			continue // it stays, for the next turn's workers
		}
		data, err := os.ReadFile(path)
		os.Remove(path)
		if err != nil || strings.HasSuffix(name, ".tmp") || strings.HasPrefix(name, fatalPrefix) {
			continue // a crash report left by a fuzzer that was killed: no failure
		}
		if strings.HasPrefix(name, variantPrefix) {
			if len(data) >= 8 {
				if n := binary.LittleEndian.Uint64(data); n > 0 && n <= uint64(len(data)-8) {
					variants = append(variants, Found{Input: data[8 : 8+n], Count: 1, Variant: true})
				}
			}
			continue
		}
		if kind == "more" {
			n, _ := strconv.Atoi(string(data))
			more += n
			continue
		}
		f := byKind[kind]
		if f == nil {
			f = &Found{Crash: strings.HasPrefix(kind, crashPrefix)}
			byKind[kind], kinds = f, append(kinds, kind)
		}
		switch {
		case f.Crash && strings.Contains(name, ".variant"):
			f.Variants = append(f.Variants, data)
		case strings.HasSuffix(name, ".count"):
			n, _ := strconv.Atoi(string(data))
			f.Count += n
		case strings.HasSuffix(name, ".first"):
			if ns, err := strconv.ParseInt(string(data), 10, 64); err == nil && (f.At.IsZero() || time.Unix(0, ns).Before(f.At)) {
				f.At = time.Unix(0, ns)
			}
		case strings.HasSuffix(name, ".input") && (f.Input == nil || len(data) < len(f.Input)):
			f.Input = data
		}
	}
	slices.Sort(kinds)
	var found []Found
	for _, k := range kinds {
		if f := byKind[k]; f.Input != nil || len(f.Variants) > 0 {
			found = append(found, Found{Kind: k, Input: f.Input, Count: max(1, f.Count), At: f.At, Crash: f.Crash, Variants: f.Variants})
		}
	}
	return append(found, variants...), more, nil
}

// ReadSlowest returns the slowest passing run the workers of the runs of
// the fuzzer that recorded into dir (FuzzSlice.FuzzOn) have seen, or 0.
func ReadSlowest(dir string) time.Duration {
	data, err := os.ReadFile(filepath.Join(dir, slowestFile))
	if err != nil {
		return 0
	}
	ns, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil || ns < 0 {
		return 0
	}
	return time.Duration(ns)
}

// fuzzDebug marks the lines the coordinator writes with
// GODEBUG=fuzzdebug=1 (internal/fuzz's debugLogf: a time, then this);
// coverageBitsRE matches those that say what its corpus covers, when the
// baseline is gathered and at each new input.
const fuzzDebug = " DEBUG "

var coverageBitsRE = regexp.MustCompile(`(?:initial coverage bits|total bits): (\d+)`)

// withGODEBUG returns env with setting added to its GODEBUG.
func withGODEBUG(env []string, setting string) []string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "GODEBUG="); ok {
			if v != "" {
				setting = v + "," + setting
			}
			env = slices.Delete(slices.Clone(env), i, i+1)
			break
		}
	}
	return append(slices.Clip(env), "GODEBUG="+setting)
}

// parseFuzzStats reads a match of fuzzStatsRE; the line does not say the
// coverage.
func parseFuzzStats(m []string, coverage int) FuzzStats {
	st := FuzzStats{Coverage: coverage}
	st.Elapsed, _ = time.ParseDuration(m[1])
	st.Execs, _ = strconv.ParseInt(m[2], 10, 64)
	st.New, _ = strconv.Atoi(m[3])
	st.Corpus, _ = strconv.Atoi(m[4])
	return st
}

// deadlineRace reports whether a run of the fuzzer that wrote no failing
// input failed with the error of its own deadline alone: "--- FAIL:
// FuzzX (…)" followed by "context deadline exceeded" and FAIL.
func deadlineRace(tail []string) bool {
	for i := len(tail) - 1; i > 0; i-- {
		if strings.TrimSpace(tail[i]) == "context deadline exceeded" {
			f := strings.Fields(tail[i-1]) // the target's, not a subtest's
			return len(f) == 4 && f[0] == "---" && f[1] == "FAIL:" && !strings.Contains(f[2], "/")
		}
	}
	return false
}
