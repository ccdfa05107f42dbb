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

// A Watch is how a long run is watched: every Interval, Hung is called,
// and if it returns true, the process is killed.
type Watch struct {
	Interval time.Duration
	Hung     func() bool
}

// RunSession runs the target once, on a private corpus that holds input
// alone (named InputName(0)), with the environment variable env set, and
// waits for it to end, as watch watches it. Each line of output goes to
// events first, which takes it (true) or leaves it to the output parser.
func (r *Runner) RunSession(ctx context.Context, input []byte, env string, events func(line []byte) bool, watch Watch) (Ending, error) {
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
	exit, err := proc.wait(ctx, watch.Interval, watch.Hung)
	if err != nil {
		return Ending{}, err
	}
	return Ending{Exit: exit, Crash: p.crash, Msg: p.crashMsg}, nil
}
