package fuzzshrink

import (
	"fmt"

	"reflect"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// State machines: a property runs a sequence of commands, drawn from its
// choice sequence, against the system under test and a model of it, and
// checks each command's postconditions. The sequence is a collection of the
// choice sequence (see collections.go): the first min steps without a
// continue flag, then a flag before each, none once there are max. A step
// is the span of its flag, its command's index among all the commands, and
// the draws of the command's Run, which are its arguments. So the passes
// of choice sequences shrink it as they shrink any collection: they delete
// blocks of steps of halving sizes at every offset, never below min, and
// lower the index and the arguments of each remaining step in turn.
//
// Candidates are not checked against the preconditions: the runner checks
// them as it replays. A step whose command's precondition does not hold
// (it relied on a step that a candidate deleted) is skipped: its flag and
// index are read, and it neither runs nor counts. Its span is dropped from
// the record, so the normal form of a run (the choices it drew) holds the
// steps that ran and nothing else; dropping it changes nothing, since the
// model and the count of steps are as they were before it.

// A Command is one kind of step of a state machine test run by [Repeat],
// on a model of type M: an operation on the system under test, such as
// Push or Pop on a stack.
type Command[M any] struct {
	// Name names the command in reports, where a step prints as the name
	// and the values its Run drew: Push(3), Pop().
	Name string

	// Pre tells whether the command can run in the state the model
	// describes (nil: always). It must only read the model: Repeat calls
	// it, any number of times, to pick a command, to replay a step, and to
	// learn whether any command can run.
	Pre func(m *M) bool

	// Run draws the command's arguments from t with the generators' Draw
	// (they may depend on the model), applies the command to the system
	// under test, which the closure holds, checks its postconditions with
	// t.Fatalf or t.Errorf, and advances the model.
	Run func(t *T, m *M)
}

// Repeat runs a sequence of min to max commands (max < 0: no maximum)
// drawn from t against model, each a command of cmds whose Pre holds:
//
//	fuzzshrink.Check(t, func(t *fuzzshrink.T) {
//		s := NewStack()
//		var model []int
//		fuzzshrink.Repeat(t, 1, 50, &model,
//			fuzzshrink.Command[[]int]{Name: "Push", Run: func(t *fuzzshrink.T, m *[]int) {
//				v := fuzzshrink.IntRange(0, 100).Draw(t, "v")
//				s.Push(v)
//				*m = append(*m, v)
//			}},
//			fuzzshrink.Command[[]int]{Name: "Pop", Pre: func(m *[]int) bool { return len(*m) > 0 }, Run: func(t *fuzzshrink.T, m *[]int) {
//				got, want := s.Pop(), (*m)[len(*m)-1]
//				*m = (*m)[:len(*m)-1]
//				if got != want {
//					t.Fatalf("got %d, want %d", got, want)
//				}
//			}},
//		)
//	})
//
// It works in properties of [Check] and of [Fuzz]. A command that fails
// (t.Error, t.Fatal, a panic) ends the sequence: the steps after it do not
// run. A state in which no command's Pre holds is a failure too ("no
// command can run"): a system that can get stuck is a bug of the system or
// of the model. [Machine] adds an invariant checked after
// every step.
//
// A failure shrinks as a sequence, in the passes of choice sequences,
// repeated to a fixpoint: blocks of steps are removed (sizes n, n/2, …
// at aligned offsets, then every size from 8 down at every offset), never
// below min steps; then, the length fixed, the arguments of each step
// shrink through their generators, one step at a time, and each step's
// command goes toward the first of cmds (put the simplest first). A
// candidate that fails before min steps ran never replaces one that
// reached min, and an original that does is first made up to min with
// steps of the first command, its arguments the simplest, before the
// failing step, if it then fails the same way (if not, it keeps fewer
// steps: nothing runs after a failure). Replaying a candidate, Repeat checks each step's Pre again and
// skips a step whose Pre no longer holds (a step it relied on was
// removed): it does not run and does not count, so the sequence reported
// is exactly the steps that ran, numbered as a reader counts them:
//
//	Original: [Push(3), Pop(), Push(5), Push(1), Pop()]
//	Shrunk:   [Push(0), Push(1), Pop()] (5 shrink steps)
//	Failure:  postcondition failed at step 3, Pop(): got 0, want 1
//
// The original is the steps that ran up to the failure: the rest of the
// input is not read. Check reports it so, and fuzzmin under the entry and
// in the Draws of -json; under go test, a failing step logs the steps that
// ran before the test reports its failure. As for any failure, a candidate
// counts only if it fails the same way (the same postcondition, by the
// position of its t.Fatal or t.Error and the shape of its message, or the
// same panic at the same place).
//
// Random bytes (go test -fuzz) continue a sequence past min with
// probability 7/8 at each step; [Check] generates sequences longer as its
// cases grow, and picks among the commands whose Pre holds.
//
// Repeat panics if cmds is empty, a command has no Name or no Run, min < 0,
// or 0 ≤ max < min.
func Repeat[M any](t *T, min, max int, model *M, cmds ...Command[M]) {
	if t.T != nil {
		t.T.Helper() // here, not in T.Helper: go test reports the line that calls Repeat
	}
	Machine[M]{Min: min, Max: max, Model: model, Commands: cmds}.run(t, "Repeat")
}

// A Machine is a state machine test: [Repeat]'s sequence of Min to Max
// Commands (Max < 0: no maximum) on Model, and an Invariant.
type Machine[M any] struct {
	Min, Max int
	Model    *M
	Commands []Command[M]

	// Invariant checks the system under test against the model after
	// every step (nil: no check), with t.Fatalf or t.Errorf, as a
	// command's Run checks its postconditions. Its failure is the step's,
	// reported as "invariant failed after step 3, Push(1)", and it shrinks
	// as any failure of a step. It must not draw.
	Invariant func(t *T, m *M)
}

// Run runs the sequence in the property run by t, as [Repeat] does, with
// the invariant checked after every step. It panics as Repeat does.
func (sm Machine[M]) Run(t *T) {
	if t.T != nil {
		t.T.Helper()
	}
	sm.run(t, "Machine.Run")
}

func (sm Machine[M]) run(t *T, name string) {
	if t.T != nil {
		t.T.Helper()
	}
	if sm.Min < 0 || sm.Max >= 0 && sm.Max < sm.Min {
		panic(fmt.Sprintf("fuzzshrink.%s: invalid lengths [%d, %d]", name, sm.Min, sm.Max))
	}
	if len(sm.Commands) == 0 {
		panic("fuzzshrink." + name + ": no commands")
	}
	model := sm.Model
	steps := make([]command, len(sm.Commands))
	for i, c := range sm.Commands {
		if c.Name == "" || c.Run == nil {
			panic(fmt.Sprintf("fuzzshrink.%s: command %d has no Name or no Run", name, i))
		}
		steps[i] = command{name: c.Name, run: func(t *T) { c.Run(t, model) }, fn: reflect.ValueOf(c.Run)}
		if c.Pre != nil {
			steps[i].pre = func() bool { return c.Pre(model) }
		}
	}
	var inv func(t *T)
	if sm.Invariant != nil {
		inv = func(t *T) { sm.Invariant(t, model) }
	}
	repeat(t, sm.Min, sm.Max, steps, inv)
}

// command is a Command without its model's type.
type command struct {
	name string
	pre  func() bool // nil: always
	run  func(t *T)
	fn   reflect.Value // Run, for the package its values print in
}

func (c *command) enabled() bool { return c.pre == nil || c.pre() }

// The spans of a sequence and of its steps. Their generators are the same
// in every run: the passes compare spans of one record.
var (
	sequenceInfo = &shrink.Drawer{Name: "Repeat", Steps: true}
	stepInfo     = &shrink.Drawer{Name: "a step of Repeat", Element: true}
)

// stepRange is the domain a continue flag of Repeat is read from: replay
// continues unless the token's rank is 0 modulo 8, so that the random
// bytes of go test -fuzz run sequences of about 8 steps, where a bool
// would end them after 2. The flag is recorded as a bool, 0 or 1, whose
// canonical token replays the same way.
var stepRange = shrink.UnsignedInterval(0, 7)

// repeat runs a sequence of commands, and the invariant inv (nil: none)
// after each: Machine without types.
func repeat(t *T, minLen, maxLen int, cmds []command, inv func(t *T)) {
	if t.T != nil {
		t.T.Helper()
	}
	seq := &cmdSeq{keep: t.keepDraws || !t.capture, inv: inv}
	si := int32(-1)
	if t.recording {
		top := t.cur < 0
		si = t.begin(sequenceInfo, "")
		if t.keepDraws && top {
			t.rec.Draws = append(t.rec.Draws, shrink.Drawn{Value: seq})
		}
	}
	p := t.continueProb(minLen, maxLen, 1, 4, 1) // 1 + size/4 steps past the minimum, on average
	r := shrink.UnsignedInterval(0, uint64(len(cmds)-1))
	var forced []string // AddDraws: the names of the commands to run
	if t.forced != nil {
		if x, ok := t.forced.take(StepsLabel); ok {
			if forced, ok = x.([]string); !ok {
				t.forced.err = fmt.Errorf("draw %q of Repeat: a value of type %T, want []string, the names of its commands", StepsLabel, x)
				t.invalidate("%v", t.forced.err)
			}
			if forced == nil {
				forced = []string{}
			}
		}
	}
	for maxLen < 0 || seq.steps < maxLen {
		if forced != nil {
			if !t.forceStep(seq, cmds, &forced, minLen, maxLen) {
				break
			}
			continue
		}
		first := -1 // the first command enabled
		for i := range cmds {
			if cmds[i].enabled() {
				first = i
				break
			}
		}
		if first < 0 {
			if seq.keep && seq.steps > 0 {
				t.Logf("Commands: %s", seq.format(funcPackage(seq.cmds[0].cmd.fn)))
			}
			t.Fatal("no command can run: every command's Pre is false")
		}
		ei := int32(-1)
		if t.recording {
			ei = t.begin(stepInfo, "")
		}
		if seq.steps >= minLen {
			if !t.drawContinue(p) {
				if ei >= 0 {
					t.dropSpan(ei) // the last flag is not a step
				}
				break
			}
			if ei >= 0 {
				t.rec.Spans[ei].Flagged = true
			}
		}
		k, ok := t.drawCommand(r, cmds, first)
		if !ok {
			if ei >= 0 {
				t.dropStep(ei)
			}
			continue
		}
		ok = t.runStep(seq, &cmds[k], minLen, ei)
		if ei >= 0 {
			t.end(ei)
		}
		if !ok {
			break
		}
	}
	if si >= 0 {
		t.end(si)
	}
}

// StepsLabel is the label under which [AddDraws] takes the steps of a
// [Repeat], the names of their commands in order, as a []string; the
// arguments of the steps are the draws of their Run, forced by their own
// labels:
//
//	fuzzshrink.AddDraws(f, fuzzshrink.StepsLabel, []string{"Push", "Push", "Pop"}, "v", 3, "v", 5)
//
// The k-th Repeat of the property runs the k-th list given.
const StepsLabel = "Repeat"

// forceStep writes the choices of the next of the forced steps, or those
// that end the sequence if there are none left, and runs it. It reports
// whether the sequence goes on.
func (t *T) forceStep(seq *cmdSeq, cmds []command, names *[]string, minLen, maxLen int) bool {
	fail := func(format string, args ...any) bool {
		t.forced.err = fmt.Errorf("draw %q of Repeat: %s", StepsLabel, fmt.Sprintf(format, args...))
		t.invalidate("%v", t.forced.err)
		return false
	}
	if len(*names) == 0 {
		if seq.steps < minLen {
			return fail("%d steps, want at least %d", seq.steps, minLen)
		}
		if slices.ContainsFunc(cmds, func(c command) bool { return c.enabled() }) {
			t.drawContinue(0) // the simplest choice: the sequence ends
		}
		return false
	}
	name := (*names)[0]
	*names = (*names)[1:]
	k := slices.IndexFunc(cmds, func(c command) bool { return c.name == name })
	switch {
	case k < 0:
		return fail("no command %q", name)
	case !cmds[k].enabled():
		return fail("step %d, %s: its Pre does not hold", seq.steps+1, name)
	}
	ei := int32(-1)
	if t.recording {
		ei = t.begin(stepInfo, "")
	}
	if seq.steps >= minLen {
		t.putRank(stepRange, 1)
		if ei >= 0 {
			t.rec.Choices[len(t.rec.Choices)-1].Hi = 1
			t.rec.Spans[ei].Flagged = true
		}
	}
	if len(cmds) > 1 {
		t.putRank(shrink.UnsignedInterval(0, uint64(len(cmds)-1)), uint64(k))
	}
	ok := t.runStep(seq, &cmds[k], minLen, ei)
	if ei >= 0 {
		t.end(ei)
	}
	if ok && len(*names) > 0 && maxLen >= 0 && seq.steps == maxLen {
		return fail("%d steps or more, want at most %d", seq.steps+len(*names), maxLen)
	}
	return ok
}

// drawContinue draws the continue flag of a step.
func (t *T) drawContinue(p float64) bool {
	k := t.drawRank(stepRange, flagDist(p))
	if t.recording {
		c := &t.rec.Choices[len(t.rec.Choices)-1]
		c.Hi, c.Val = 1, min(k, 1)
	}
	return k != 0
}

// drawCommand draws the index of a step's command in r, all of cmds, and
// reports whether the step runs; there is no choice if there is one
// command. Generation picks among the commands enabled (first is the first
// of them). Replay skips a command that is not enabled; past the end of
// the data, where every index reads 0 and a skip would read the same
// again, it takes the first command enabled instead, and records that
// index, so that the normal form replays the same way.
func (t *T) drawCommand(r shrink.Interval, cmds []command, first int) (int, bool) {
	switch {
	case len(cmds) == 1:
		return 0, true // no choice to draw: the command is enabled
	case t.gen != nil:
		k := first
		if len(t.data) < maxGenBytes && !t.gen.zero {
			var en []int
			for i := range cmds {
				if i == first || i > first && cmds[i].enabled() {
					en = append(en, i)
				}
			}
			k = en[t.gen.rng.IntN(len(en))]
		} else {
			t.overrun()
		}
		t.putRank(r, uint64(k))
		return k, true
	}
	past := t.pos >= len(t.data)
	k := int(t.drawRank(r, uniform))
	switch {
	case k == first || cmds[k].enabled():
		return k, true
	case !past:
		return k, false
	}
	if t.recording {
		t.rec.Choices[len(t.rec.Choices)-1].Val = uint64(first)
	}
	return first, true
}

// dropStep removes span i, a skipped step, the last span, and its choices.
func (t *T) dropStep(i int32) {
	t.rec.Choices = t.rec.Choices[:t.rec.Spans[i].First]
	t.dropSpan(i)
}

// A cmdSeq is the steps a Repeat ran, for reports.
type cmdSeq struct {
	keep  bool         // keep the steps' names and arguments
	cmds  []ranCommand // when kept
	steps int          // the steps that ran
	fail  int          // the step that failed, from 1; 0 if none did
	msg   string       // the last message the failing step logged (in capture mode)
	step  cmdStep      // the step running
	inv   func(t *T)   // the invariant, nil if none
	inInv bool         // the invariant runs (or failed): the failure is its
}

// ranCommand is a step that ran: its command and the values its Run drew.
type ranCommand struct {
	cmd  *command
	args []any
}

// A cmdStep is the step running.
type cmdStep struct {
	seq    *cmdSeq
	depth  int  // draws open in its Run: the arguments are the draws at depth 0
	logged bool // go test: the steps were logged with the step's failure
}

// runStep runs command c as the next step of seq, whose span is ei (-1 if
// not recording), and reports whether it passed.
func (t *T) runStep(seq *cmdSeq, c *command, minLen int, ei int32) (ok bool) {
	failed := t.Failed()
	seq.steps++
	if seq.keep {
		seq.cmds = append(seq.cmds, ranCommand{cmd: c})
	}
	st := &seq.step
	*st = cmdStep{seq: seq}
	prev, logs := t.step, len(t.logs)
	t.step = st
	returned := false
	defer func() {
		t.step = prev
		switch {
		case returned && (failed || !t.Failed()):
			return // it passed (or the run had failed before it)
		case !returned && (t.Skipped() || t.invalid != "" || t.genErr != ""):
			return // not a failure: the case is not valid
		}
		// A failure (t.Error, t.Fatal), a panic, or runtime.Goexit.
		seq.fail = seq.steps
		if seq.steps < minLen && t.short == nil {
			t.short = &shortFailure{span: ei, missing: minLen - seq.steps}
		}
		if len(t.logs) > logs {
			_, seq.msg, _ = strings.Cut(t.logs[len(t.logs)-1], ": ")
		}
		if !returned && !t.capture && !st.logged && !t.T.Failed() {
			// A panic, which the testing package reports after this.
			st.logged = true
			t.T.Log(seq.goTestReport(true))
		}
	}()
	c.run(t)
	if seq.inv != nil && (failed || !t.Failed()) {
		seq.inInv = true
		st.depth++ // its draws, if any, are no arguments
		seq.inv(t)
		st.depth--
		seq.inInv = !failed && t.Failed() // t.Errorf: the invariant failed
	}
	returned = true
	return failed || !t.Failed()
}

// stepFailing logs, under go test, the steps that ran with the failure of
// the step running, before the testing package reports the failure: the
// user's message stays the last line of the test's output, which the
// fuzzmin command reads as the failure's signature.
func (t *T) stepFailing() {
	st := t.step
	if st == nil || st.logged {
		return
	}
	st.logged = true
	t.T.Helper()
	t.T.Log(st.seq.goTestReport(false))
}

// goTestReport is the steps that ran as go test reports them, with how the
// last one failed (by a panic or not).
func (s *cmdSeq) goTestReport(panicked bool) string {
	local := ""
	if len(s.cmds) > 0 {
		local = funcPackage(s.cmds[0].cmd.fn)
	}
	return fmt.Sprintf("Commands: %s\n%s:", s.format(local), s.where(s.steps, panicked, local))
}

// where says how step k, from 1, failed: by a panic (panicked) or not, in
// its Run or in the invariant after it.
func (s *cmdSeq) where(k int, panicked bool, local string) string {
	cmd := s.cmds[k-1].format(local)
	switch {
	case s.inInv && panicked:
		return fmt.Sprintf("panic in the invariant after step %d, %s", k, cmd)
	case s.inInv:
		return fmt.Sprintf("invariant failed after step %d, %s", k, cmd)
	case panicked:
		return fmt.Sprintf("panic at step %d, %s", k, cmd)
	}
	return fmt.Sprintf("postcondition failed at step %d, %s", k, cmd)
}

// format prints the steps: [Push(3), Pop()].
func (s *cmdSeq) format(local string) string {
	parts := make([]string, len(s.cmds))
	for i := range s.cmds {
		parts[i] = s.cmds[i].format(local)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// format prints a step as its command's name and the values its Run drew,
// in Go syntax: Push(3).
func (c *ranCommand) format(local string) string {
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = formatValue(a, local)
	}
	return c.cmd.name + "(" + strings.Join(args, ", ") + ")"
}

// failure describes how the run t of the sequence failed, for the Failure
// line of a report: at a step, or after the last one if the run failed
// (failed) and this is its last sequence (last); "" if it did not fail.
func (s *cmdSeq) failure(t *T, local string, failed, last bool) string {
	switch {
	case s.fail > 0 && t.panicValue != nil:
		return fmt.Sprintf("%s: %v", s.where(s.fail, true, local), t.panicValue)
	case s.fail > 0:
		return withMsg(s.where(s.fail, false, local), s.msg)
	case !failed || !last:
		return ""
	case t.panicValue != nil:
		return fmt.Sprintf("panic after step %d, the last: %v", s.steps, t.panicValue)
	}
	msg := ""
	if len(t.logs) > 0 {
		_, msg, _ = strings.Cut(t.logs[len(t.logs)-1], ": ")
	}
	return withMsg(fmt.Sprintf("failed after step %d, the last", s.steps), msg)
}

func withMsg(s, msg string) string {
	if msg == "" {
		return s
	}
	return s + ": " + msg
}

// drawLines returns the lines that report the draws of run last: one
// "label = value" per draw, and for each sequence of commands, its
// Original line (the sequence of the same rank in run orig, if not nil),
// its Shrunk line (steps is the number of accepted shrinks) and its
// Failure line. failed tells whether last failed.
func drawLines(last, orig *T, steps int, failed bool, local string) []string {
	var lines []string
	nseq, k := 0, 0
	for _, d := range last.rec.Draws {
		if _, ok := d.Value.(*cmdSeq); ok {
			nseq++
		}
	}
	for _, d := range last.rec.Draws {
		seq, ok := d.Value.(*cmdSeq)
		if !ok {
			lines = append(lines, labelOf(d)+" = "+formatValue(d.Value, local))
			continue
		}
		if o := nthSeq(orig, k); o != nil {
			lines = append(lines, "Original: "+o.format(local))
		}
		k++
		plural := "s"
		if steps == 1 {
			plural = ""
		}
		lines = append(lines, fmt.Sprintf("Shrunk:   %s (%d shrink step%s)", seq.format(local), steps, plural))
		if f := seq.failure(last, local, failed, k == nseq); f != "" {
			lines = append(lines, "Failure:  "+f)
		}
	}
	return lines
}

// nthSeq returns the k-th sequence of commands that run t drew, or nil.
func nthSeq(t *T, k int) *cmdSeq {
	if t == nil {
		return nil
	}
	for _, d := range t.rec.Draws {
		if seq, ok := d.Value.(*cmdSeq); ok {
			if k == 0 {
				return seq
			}
			k--
		}
	}
	return nil
}

// A shortFailure is a failure of a step of a Repeat before it ran its
// minimum of steps.
type shortFailure struct {
	span    int32 // the failing step's span; -1 if not recorded
	missing int   // the steps it lacks
}

// lengthen makes an original that fails too short a failure of the
// minimum length, if it can: it inserts before the failing step missing
// steps of the first command whose arguments are all the simplest (a run
// of zero tokens; it tries 1 to 9 tokens a step), and returns the normal
// form of the first candidate that fails the same way at the step min; or
// nil. Shrinking cannot do it, since candidates are smaller and these are
// longer; without it a failure in the first steps would be reported with
// fewer steps than the minimum. The candidates are judged by o, which must
// not accept a short failure yet.
func (o *choiceOracle) lengthen(seq *shrink.ChoiceSeq, sf *shortFailure) (*shrink.ChoiceSeq, error) {
	if sf.span < 0 || int(sf.span) >= len(seq.Rec.Spans) {
		return nil, nil
	}
	sp := seq.Rec.Spans[sf.span]
	if sp.First >= sp.Last {
		return nil, nil
	}
	at := int(seq.Rec.Choices[sp.First].Start)
	for per := 1; per <= 9; per++ {
		cand := shrink.Splice(seq.Data, at, at, make([]byte, per*sf.missing))
		v, err := o.judge(&shrink.ChoiceSeq{Data: cand})
		if err != nil {
			return nil, err
		}
		if v == shrink.Fail {
			return o.lastNorm, nil
		}
	}
	return nil, nil
}
