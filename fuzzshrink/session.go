package fuzzshrink

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"

	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
)

// The in-process minimize session. fuzzmin starts the test binary with
// SessionEnv naming a directory and the entry to minimize as the only seed
// of a private corpus. The wrapped target then runs the whole search in the
// process, running each candidate as a subtest of the seed's test and
// recovering its panics, which is far faster than a process per batch, and
// the only way to shrink values whose types exist only in the test binary.
//
// The directory holds, from fuzzmin, config.json ([SessionConfig]); from the
// session, current (the candidate running, rewritten in place before each
// run: an 8-byte run count, a 4-byte length, and the candidate's native
// values in encoding.AppendTuple's form), best (the best candidate so far:
// a 4-byte length and the same form, rewritten in place on each accepted
// candidate), and at the end result.json ([SessionResult]). Writing in
// place costs one system call per candidate; a process that dies does so
// in the fuzz function, not in the middle of those writes. A process that
// dies or hangs leaves no result.json: fuzzmin charges the failure to the
// candidate in current and starts a new session from best.
//
// announceEnv, when set, names a file into which a wrapped target writes its
// argument types (one line each) under plain go test, so that fuzzmin knows
// a target is wrapped.
const (
	SessionEnv  = "FUZZMIN_SESSION"
	announceEnv = "FUZZMIN_ANNOUNCE"
)

// SessionConfig is what fuzzmin asks of a session.
type SessionConfig struct {
	Target   string    `json:"target"`
	Verbose  bool      `json:"verbose,omitempty"` // print each pass and accepted candidate (see TraceLine)
	Entry    string    `json:"entry"`             // the seed corpus file to start from
	MaxRuns  int       `json:"maxRuns,omitempty"` // 0: no limit
	Deadline time.Time `json:"deadline,omitzero"` // zero: none
	Runs     int       `json:"runs,omitempty"`    // runs made by earlier sessions of this entry
	// Want is the failure to keep when the original crashes the process
	// (a fatal error, an exit or a timeout), which the session cannot
	// observe; otherwise the session learns it by running the original.
	Want *failure.Signature `json:"want,omitempty"`
	// Known are the verdicts fuzzmin learned from earlier sessions that
	// died, by corpus.Name of the candidate's record (the tuple in
	// current): those candidates are not run again.
	Known map[string]string `json:"known,omitempty"` // "pass", "fail" or "other"
}

// SessionResult is what a session reports.
type SessionResult struct {
	Best   []byte            `json:"best"` // the smallest failing candidate, as a corpus file
	Time   time.Duration     `json:"time"` // spent searching
	Value  string            `json:"value"`
	Add    string            `json:"add"` // a fuzzshrink.Add line, or f.Add for native targets
	Want   failure.Signature `json:"want"`
	Runs   int               `json:"runs"`
	Stop   string            `json:"stop"`
	Others []string          `json:"others,omitempty"`
	Error  string            `json:"error,omitempty"`
}

// With SessionConfig.Verbose, a session prints each pass it starts and each
// candidate it accepts as a line of output: TracePrefix and a TraceLine in
// JSON.
const TracePrefix = "\x16fuzzmin trace "

// TraceLine is one event of a session's search.
type TraceLine struct {
	Kind  string `json:"kind"` // "pass start" or "accepted"
	Pass  string `json:"pass"`
	Round int    `json:"round"`
	Runs  int    `json:"runs"`
	Value string `json:"value,omitempty"` // the accepted candidate, as Go
}

type session struct {
	dir string
	cfg SessionConfig
}

// sessionFor returns the session asked for target, if any.
func sessionFor(target string) *session {
	dir := os.Getenv(SessionEnv)
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil
	}
	s := &session{dir: dir}
	if json.Unmarshal(b, &s.cfg) != nil || s.cfg.Target != target {
		return nil
	}
	return s
}

// announce tells fuzzmin, if it asks, that target is wrapped.
func announce(target string, p *plan) {
	path := os.Getenv(announceEnv)
	if path == "" {
		return
	}
	var b strings.Builder
	for _, t := range p.user {
		fmt.Fprintln(&b, t)
	}
	os.WriteFile(path, []byte(b.String()), 0o666)
}

// run runs the session inside the test of the seed corpus entry fuzzmin
// wrote, skipping the target's other seeds. fuzzmin selects the target with
// a one-level -test.run pattern: with a second level, the testing package
// would compile two regular expressions for every candidate's subtest.
func (s *session) run(f *testing.F, p *plan, fn reflect.Value) {
	f.Fuzz(reflect.MakeFunc(p.fuzzType, func(in []reflect.Value) []reflect.Value {
		t := in[0].Interface().(*testing.T)
		if _, entry, _ := strings.Cut(t.Name(), "/"); entry != s.cfg.Entry {
			t.SkipNow()
		}
		res := s.minimize(t, p, fn, in)
		b, _ := json.Marshal(res)
		writeFileAtomic(filepath.Join(s.dir, "result.json"), b)
		return nil
	}).Interface())
}

func (s *session) minimize(t *testing.T, p *plan, fn reflect.Value, in []reflect.Value) SessionResult {
	args := make([]any, len(p.user))
	for i, v := range p.toUser(in)[1:] {
		args[i] = v.Interface()
	}
	cur, err := os.OpenFile(filepath.Join(s.dir, "current"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return SessionResult{Error: err.Error()}
	}
	defer cur.Close()
	best, err := os.OpenFile(filepath.Join(s.dir, "best"), os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return SessionResult{Error: err.Error()}
	}
	defer best.Close()
	o := &inProcess{s: s, t: t, fn: fn, cur: cur, runs: s.cfg.Runs, others: map[failure.Signature]bool{}}
	if s.cfg.Want != nil {
		o.want = *s.cfg.Want
	} else {
		o.want = o.runOne(args)
		if !o.want.Failed() {
			return SessionResult{Error: "the entry does not fail when run in the session"}
		}
	}
	var rec []byte
	local := funcPackage(fn)
	opts := []Option{Trace(func(ev Event) {
		if s.cfg.Verbose && ev.Kind != Done {
			value := ""
			if ev.Kind == Accepted {
				value = gosyntax.Args(ev.Args, local)
			}
			b, _ := json.Marshal(TraceLine{ev.Kind.String(), ev.Pass, ev.Round, ev.Stats.Runs, value})
			fmt.Printf("%s%s\n", TracePrefix, b)
		}
		if ev.Kind == Accepted {
			if tuple, err := tupleOf(ev.Args); err == nil {
				rec = binary.LittleEndian.AppendUint32(rec[:0], uint32(len(tuple)))
				best.WriteAt(append(rec, tuple...), 0)
			}
		}
	})}
	if s.cfg.MaxRuns > 0 {
		opts = append(opts, MaxRuns(max(1, s.cfg.MaxRuns-s.cfg.Runs)))
	}
	if !s.cfg.Deadline.IsZero() {
		opts = append(opts, Deadline(s.cfg.Deadline))
	}
	r, err := Shrink(context.Background(), args, o, opts...)
	res := SessionResult{Want: o.want, Runs: o.runs, Time: r.Stats.Time, Stop: r.Stats.Stop.String(), Value: gosyntax.Args(r.Args, local)}
	for sig := range o.others {
		res.Others = append(res.Others, sig.String())
	}
	if err != nil {
		res.Error = err.Error()
	}
	if res.Best, err = corpusFile(r.Args); err != nil {
		res.Error = err.Error()
	}
	res.Add = "fuzzshrink.Add(f, " + res.Value + ")"
	if allNative(r.Args) {
		res.Add = gosyntax.Call("f.Add", r.Args, "")
	}
	return res
}

// corpusFile encodes a tuple of user values as a corpus file.
func corpusFile(args []any) ([]byte, error) {
	natives, err := nativeTuple(args)
	if err != nil {
		return nil, err
	}
	return encoding.Marshal(natives...)
}

// tupleOf encodes a tuple of user values in encoding.AppendTuple's form.
func tupleOf(args []any) ([]byte, error) {
	natives, err := nativeTuple(args)
	if err != nil {
		return nil, err
	}
	return encoding.AppendTuple(nil, natives)
}

func allNative(args []any) bool {
	for _, a := range args {
		if !supported(a) {
			return false
		}
	}
	return true
}

// inProcess is the session's oracle: it runs candidates as subtests.
type inProcess struct {
	s      *session
	t      *testing.T
	fn     reflect.Value
	cur    *os.File
	want   failure.Signature
	runs   int
	others map[failure.Signature]bool
	rec    []byte
}

func (o *inProcess) Run(ctx context.Context, batch [][]any) ([]Verdict, error) {
	vs := make([]Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		tuple, err := tupleOf(args)
		if err != nil {
			return vs, err
		}
		known := ""
		if len(o.s.cfg.Known) > 0 {
			known = o.s.cfg.Known[corpus.Name(tuple)]
		}
		var v Verdict
		switch known {
		case "pass":
			v = Pass
		case "fail":
			v = Fail
		case "other":
			v = OtherFail
		default:
			if err := o.record(tuple); err != nil {
				return vs, err
			}
			sig := o.runOne(args)
			switch {
			case sig == o.want:
				v = Fail
			case sig.Failed():
				o.others[sig] = true
				v = OtherFail
			}
		}
		vs = append(vs, v)
		if v == Fail {
			break
		}
	}
	return vs, nil
}

// record writes the candidate about to run where fuzzmin finds it if the
// process dies: one write at offset 0, no truncation (the length says where
// it ends).
func (o *inProcess) record(tuple []byte) error {
	o.runs++
	o.rec = binary.LittleEndian.AppendUint64(o.rec[:0], uint64(o.runs))
	o.rec = binary.LittleEndian.AppendUint32(o.rec, uint32(len(tuple)))
	o.rec = append(o.rec, tuple...)
	_, err := o.cur.WriteAt(o.rec, 0)
	return err
}

// runOne runs the fuzz function on args in a subtest and tells how it
// failed: a panic (recovered, so the session goes on) by its message and
// the position that raised it, t.Fatal and its kin by the position that
// called them, t.Error by its kind alone (the testing package keeps its
// position to itself).
func (o *inProcess) runOne(args []any) (sig failure.Signature) {
	in := make([]reflect.Value, len(args)+1)
	for i, a := range args {
		in[i+1] = reflect.ValueOf(a)
	}
	o.t.Run("c", func(t *testing.T) {
		defer func() {
			r := recover()
			switch {
			case r != nil:
				sig = failure.Signature{Kind: failure.Panic, Text: panicText(r), Pos: callerPos("runtime.gopanic")}
			case t.Failed():
				sig = failure.Signature{Kind: failure.Fail, Pos: callerPos("runtime.Goexit")}
			}
		}()
		in[0] = reflect.ValueOf(t)
		o.fn.Call(in)
	})
	return sig
}

// panicText is failure.PanicText of the message the runtime would print
// for a panic with value r.
func panicText(r any) string {
	switch r := r.(type) {
	case runtime.Error:
		return failure.PanicText(r.Error())
	case error, fmt.Stringer, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr, float32, float64, complex64, complex128:
		return ""
	}
	return fmt.Sprintf("(%T)", r)
}

var goroot = func() string {
	// The directory of the runtime's source, whatever -trimpath did.
	_, file, _, _ := runtime.Caller(0)
	if pc := reflect.ValueOf(runtime.Gosched).Pointer(); pc != 0 {
		file, _ = runtime.FuncForPC(pc).FileLine(pc)
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file))) // …/src/runtime/proc.go
}()

// callerPos returns file:line of the first user frame below the frame of
// the function named after (the runtime function that raised the panic or
// ended the test), or "" if after is not on the stack.
func callerPos(after string) string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	seen := false
	for {
		fr, more := frames.Next()
		if seen && failure.UserFrame(goroot, fr.Function, fr.File) {
			return fmt.Sprintf("%s:%d", filepath.Base(fr.File), fr.Line) // as testing names log positions
		}
		seen = seen || fr.Function == after
		if !more {
			return ""
		}
	}
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o666); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// funcPackage returns the import path of the package that declares fn.
func funcPackage(fn reflect.Value) string {
	name := runtime.FuncForPC(fn.Pointer()).Name() // example.com/p.FuzzX.func1
	slash := strings.LastIndexByte(name, '/')
	if dot := strings.IndexByte(name[slash+1:], '.'); dot >= 0 {
		return name[:slash+1+dot]
	}
	return name
}
