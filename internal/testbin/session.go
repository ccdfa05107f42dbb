package testbin

import (
	"context"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// An Ending is how a test process that ran a whole search (an in-process
// session of fuzzshrink) ended.
type Ending struct {
	Exit  int               // its exit code, -1 if it was killed
	Crash failure.Signature // the panic or fatal error it died of, if any
	Msg   string            // the message of a panic of the user's value, to be shaped
}

// RunSession runs the target once, on a private corpus that holds input
// alone (named InputName(0)), with the environment variable env set, and
// waits for it to end. Each line of output goes to events first, which
// takes it (true) or leaves it to the output parser. Every interval it
// calls hung: if that returns true, the process is killed.
func (r *Runner) RunSession(ctx context.Context, input []byte, env string, events func(line []byte) bool, interval time.Duration, hung func() bool) (Ending, error) {
	if err := r.writeInputs([][]byte{input}); err != nil {
		return Ending{}, err
	}
	p := newOutputParser(r.inputIndex, r.Toolchain)
	proc, err := r.startTest([]string{"-test.run=^" + r.Target + "$", "-test.paniconexit0"}, env, func(line []byte) {
		if !events(line) {
			p.line(line)
		}
	})
	if err != nil {
		return Ending{}, err
	}
	exit, err := proc.wait(ctx, interval, hung)
	if err != nil {
		return Ending{}, err
	}
	return Ending{Exit: exit, Crash: p.crash, Msg: p.crashMsg}, nil
}
