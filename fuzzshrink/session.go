package fuzzshrink

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// The in-process minimize session (the protocol is internal/session's).
// fuzzmin starts the test binary with the entry to minimize as the only
// seed of a private corpus; the wrapped target then runs the whole search
// in the process, running each candidate as a subtest of the seed's test
// and recovering its panics, which is far faster than a process per batch,
// and the only way to shrink values whose types exist only in the test
// binary.

// A minimizeSession is the session fuzzmin asked of this process.
type minimizeSession struct {
	dir string
	cfg session.Config
}

// sessionFor returns the session asked for target, if any.
func sessionFor(target string) *minimizeSession {
	dir := os.Getenv(session.Env)
	if dir == "" {
		return nil
	}
	if dir == session.Probe {
		// fuzzmin asks whether the target is wrapped, for the targets
		// whose source does not show it.
		os.Stdout.Write(session.AppendEvent(nil, session.Event{Action: session.ActionWrapped}))
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, session.ConfigFile))
	if err != nil {
		return nil
	}
	s := &minimizeSession{dir: dir}
	if json.Unmarshal(b, &s.cfg) != nil || s.cfg.Target != target {
		return nil
	}
	return s
}

// run runs the session inside the test of the seed corpus entry fuzzmin
// wrote, skipping the target's other seeds. fuzzmin selects the target with
// a one-level -test.run pattern: with a second level, the testing package
// would compile two regular expressions for every candidate's subtest.
func (s *minimizeSession) run(f *testing.F, p *plan, fn reflect.Value) {
	f.Fuzz(reflect.MakeFunc(p.fuzzType, func(in []reflect.Value) []reflect.Value {
		t := in[0].Interface().(*testing.T)
		if _, entry, _ := strings.Cut(t.Name(), "/"); entry != s.cfg.Entry {
			t.SkipNow()
		}
		res := s.minimize(t, p, fn, in)
		if err := s.writeResult(res); err != nil {
			// fuzzmin would take the missing result for a crash of the
			// candidate last recorded: tell it what happened instead.
			msg := fmt.Sprintf("writing %s: %v", session.ResultFile, err)
			os.Stdout.Write(session.AppendEvent(nil, session.Event{Action: session.ActionError, Error: msg}))
			t.Fatal(msg)
		}
		return nil
	}).Interface())
}

// writeResult writes the result file atomically: fuzzmin reads it once the
// process has ended, and must never see half of it.
func (s *minimizeSession) writeResult(res session.Result) error {
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	path := filepath.Join(s.dir, session.ResultFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o666); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// recorders opens the session's records of the candidate being run and of
// the best so far, which the command reads if the session dies; done
// closes them.
func (s *minimizeSession) recorders() (cur, best *session.Recorder, done func(), err error) {
	cur, err = session.NewRecorder(filepath.Join(s.dir, session.CurrentFile))
	if err != nil {
		return nil, nil, nil, err
	}
	best, err = session.NewRecorder(filepath.Join(s.dir, session.BestFile))
	if err != nil {
		cur.Close()
		return nil, nil, nil, err
	}
	return cur, best, func() { cur.Close(); best.Close() }, nil
}

func (s *minimizeSession) minimize(t *testing.T, p *plan, fn reflect.Value, in []reflect.Value) session.Result {
	args := make([]any, len(p.user))
	for i, v := range p.toUser(in)[1:] {
		args[i] = v.Interface()
	}
	cur, best, closeRecorders, err := s.recorders()
	if err != nil {
		return session.Result{Error: err.Error()}
	}
	defer closeRecorders()
	o := &inProcess{s: s, t: t, fn: fn, cur: cur, runs: s.cfg.Runs}
	if s.cfg.Templates != "" {
		b, err := os.ReadFile(s.cfg.Templates)
		var sites map[string][]string
		if err == nil {
			err = json.Unmarshal(b, &sites)
		}
		if err != nil {
			return session.Result{Error: "reading the message templates: " + err.Error()}
		}
		o.shaper.Templates = failure.NewTemplates(sites)
	}
	if s.cfg.Want != nil {
		o.want = *s.cfg.Want
	} else {
		sig, msg := o.runOne(args)
		if o.want = o.shaped(sig, msg, args); !o.want.Failed() {
			return session.Result{Error: "the entry does not fail when run in the session"}
		}
	}
	local := funcPackage(fn)
	var recErr error
	opts := []shrink.Option{shrink.Observe(func(ev shrink.Event) {
		if s.cfg.Verbose && ev.Kind != shrink.Done {
			e := session.Event{Action: session.ActionPass, Pass: ev.Pass, Round: ev.Round, Runs: o.runs}
			if ev.Kind == shrink.Accepted {
				e.Action, e.Value = session.ActionAccept, gosyntax.Args(ev.Args, local)
			}
			os.Stdout.Write(session.AppendEvent(nil, e))
		}
		if ev.Kind == shrink.Accepted && recErr == nil {
			tuple, err := tupleOf(ev.Args)
			if err == nil {
				err = best.Write(o.runs, tuple)
			}
			recErr = err
		}
	})}
	if s.cfg.MaxRuns > 0 {
		opts = append(opts, shrink.MaxRuns(max(1, s.cfg.MaxRuns-s.cfg.Runs)))
	}
	if !s.cfg.Deadline.IsZero() {
		opts = append(opts, shrink.Deadline(s.cfg.Deadline))
	}
	r, err := shrink.Shrink(context.Background(), args, o, opts...)
	searched := err == nil && r.Stats.Stop == shrink.StopDone
	res := session.Result{Want: o.want, Accepted: r.Stats.Accepted, Runs: o.runs, Elapsed: r.Stats.Time, Stop: r.Stats.Stop.String(),
		Value: gosyntax.Args(r.Args, local)}
	for _, sig := range o.others.Sorted() {
		if tuple, err := tupleOf(o.others.Args(sig)); err == nil {
			res.Others = append(res.Others, session.Other{Want: sig, Tuple: tuple, Count: o.others.Count(sig)})
		}
	}
	switch {
	case err != nil:
		res.Error = err.Error()
	case recErr != nil:
		res.Error = fmt.Sprintf("recording the best candidate: %v", recErr)
	}
	if res.Best, err = corpusFile(r.Args); err != nil {
		res.Error = err.Error()
	}
	res.Add = "fuzzshrink.Add(f, " + res.Value + ")"
	if allNative(r.Args) {
		res.Add = gosyntax.Call("f.Add", r.Args, "")
	}
	if budget := shrink.ExplainBudget(s.cfg.Explain, r.Stats.Runs); searched && budget != 0 && s.cfg.Want == nil && s.explaining(res) {
		o.others = shrink.Pool{} // the explanation's other failures are not kept
		if ex, err := shrink.Explain(context.Background(), r.Args, o, budget, 1); err == nil {
			res.Explained = ex.Summary()
		}
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

// tupleOf encodes a tuple of user values as a session tuple.
func tupleOf(args []any) ([]byte, error) {
	natives, err := nativeTuple(args)
	if err != nil {
		return nil, err
	}
	return session.AppendTuple(nil, natives)
}

func allNative(args []any) bool {
	for _, a := range args {
		if !shrink.Supported(a) {
			return false
		}
	}
	return true
}

// inProcess is the session's oracle: it runs candidates as subtests.
type inProcess struct {
	s      *minimizeSession
	t      *testing.T
	fn     reflect.Value
	cur    *session.Recorder
	want   failure.Signature
	shaper failure.Shaper // the identity texts of the failures met
	runs   int
	others shrink.Pool // the smallest candidate of each other failure
}

func (o *inProcess) Run(ctx context.Context, batch [][]any) ([]shrink.Verdict, error) {
	vs := make([]shrink.Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		tuple, err := tupleOf(args)
		if err != nil {
			return vs, err
		}
		v, known := o.s.cfg.Known[session.Key(tuple)]
		if !known {
			o.runs++
			if err := o.cur.Write(o.runs, tuple); err != nil {
				return vs, fmt.Errorf("recording a candidate: %w", err)
			}
			sig, msg := o.runOne(args)
			sig = o.shaped(sig, msg, args)
			if v = shrink.Classify(sig, o.want); v == shrink.OtherFail {
				o.others.Add(sig, args)
			}
		}
		vs = append(vs, shrink.Verdict(v))
		if v == shrink.Fail {
			break
		}
	}
	return vs, nil
}

// shaped completes the signature of a failure with message msg.
func (o *inProcess) shaped(sig failure.Signature, msg string, args []any) failure.Signature {
	if msg != "" {
		sig.Text = o.shaper.Shape(sig, msg, args)
	}
	return sig
}

// runOne runs the fuzz function on args in a subtest and tells how it
// failed, by the rule of failure.Recovered and failure.Goexited, with the
// message of a panic of the user's value, or of the last entry the test
// logged, which shaped turns into Text, as the command reads them from a
// test's output.
func (o *inProcess) runOne(args []any) (sig failure.Signature, msg string) {
	in := make([]reflect.Value, len(args)+1)
	for i, a := range args {
		in[i+1] = reflect.ValueOf(a)
	}
	o.t.Run("c", func(t *testing.T) {
		defer func() {
			r := recover()
			switch {
			case r != nil:
				sig, msg = failure.Recovered(r)
			case t.Failed():
				sig = failure.Goexited()
				if pos, logged := failure.LastLog(testOutput(t)); pos != "" {
					// The position the testing package reports, as the
					// command reads it: a helper's caller.
					sig.Pos, msg = pos, strings.ReplaceAll(logged, t.Name(), "…")
				}
			}
		}()
		in[0] = reflect.ValueOf(t)
		o.fn.Call(in)
	})
	return sig, msg
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

// explaining writes res, the result without its explanation, and tells
// the command that the explanation begins (session.ExplainingFile): if a
// candidate of the explanation ends the process, or hangs, res is the
// session's result. It reports whether it could.
func (s *minimizeSession) explaining(res session.Result) bool {
	return s.writeResult(res) == nil && os.WriteFile(filepath.Join(s.dir, session.ExplainingFile), nil, 0o666) == nil
}

// testOutput returns what the test t has logged so far, as the testing
// package keeps it for a test that is not verbose (common.output), or ""
// if it keeps it elsewhere. The session's tests are not verbose, so this is
// where a failure's message is: the message decides whether a candidate
// fails as the original does, here as in the command.
func testOutput(t *testing.T) string {
	f := reflect.ValueOf(t).Elem().FieldByName("output")
	if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Uint8 {
		return ""
	}
	return string(f.Bytes())
}
