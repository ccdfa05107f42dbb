package fuzzshrink

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/session"
)

// fuzzChoices is Fuzz for a property of generators: the fuzz function
// takes one []byte, the choice sequence, which the property's generators
// replay. Under go test that is all it does; under fuzzmin the sequence
// shrinks in process as a choice sequence (see session_choices.go).
func fuzzChoices(f *testing.F, prop func(*T)) {
	f.Helper()
	for _, seed := range takeSeeds(f) {
		data, err := seed.choices(prop)
		if err != nil {
			f.Fatalf("fuzzshrink.AddDraws: %v", err)
		}
		f.Add(data)
	}
	if s := sessionFor(f.Name()); s != nil {
		s.runChoices(f, prop)
		return
	}
	show := os.Getenv(session.CommandEnv) == ""
	local := funcPackage(reflect.ValueOf(prop))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt := newT(t, data, nil)
		if show {
			// Under plain go test the entry is a choice sequence: say what
			// it draws.
			tt.recording, tt.keepDraws = true, true
			defer showOnFailure(t, func() string { return formatDraws(tt.rec.Draws, local, "; ") })()
		}
		prop(tt)
	})
}

// AddDraws adds a seed corpus entry to a fuzz target written with [Fuzz]
// and generators, by the values its draws should take, as label-value
// pairs:
//
//	fuzzshrink.AddDraws(f, "n", 3, "xs", []int{7, 1, 2})
//	fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
//		n := fuzzshrink.IntRange(1, 5).Draw(t, "n")
//		xs := fuzzshrink.SliceOfN(fuzzshrink.IntRange(0, 9), n, n).Draw(t, "xs")
//		…
//	})
//
// The k-th draw with a label, at any depth (draws inside [Compose] too),
// takes the k-th value given for the label; draws without a value take the
// simplest one. Fuzz runs the property once to learn the choices, so
// AddDraws must be called before Fuzz, which adds its seeds after those of
// f.Add. Values are converted between
// numeric types when exact. The generators of the forced draws must be able
// to produce a value from it: primitives, [Just], [SampledFrom], [OneOf],
// collections, [Gen.Filter], [NoShrink], [Deferred] and [Make] can; [Map],
// [FlatMap] and [Compose] cannot (force the draws inside them by their
// labels). The steps of a [Repeat] are forced by the names of their
// commands, a []string under [StepsLabel]. A failure to force a value
// fails the test.
//
// A choice sequence can also be added as it is, f.Add([]byte(…)): fuzzmin
// and Check print the sequence of the values they report.
func AddDraws(f *testing.F, labelsAndValues ...any) {
	f.Helper()
	if len(labelsAndValues)%2 != 0 {
		f.Fatalf("fuzzshrink.AddDraws: %d arguments, want label-value pairs", len(labelsAndValues))
	}
	s := seed{values: map[string][]any{}}
	for i := 0; i < len(labelsAndValues); i += 2 {
		label, ok := labelsAndValues[i].(string)
		if !ok {
			f.Fatalf("fuzzshrink.AddDraws: argument %d is %T, want a label", i+1, labelsAndValues[i])
		}
		s.values[label] = append(s.values[label], labelsAndValues[i+1])
		s.order = append(s.order, label)
	}
	seeds.Lock()
	defer seeds.Unlock()
	seeds.m[f] = append(seeds.m[f], s)
}

// seeds holds the seeds AddDraws added, until Fuzz takes them.
var seeds = struct {
	sync.Mutex
	m map[*testing.F][]seed
}{m: map[*testing.F][]seed{}}

func takeSeeds(f *testing.F) []seed {
	seeds.Lock()
	defer seeds.Unlock()
	s := seeds.m[f]
	delete(seeds.m, f)
	return s
}

// A seed is the values of labelled draws.
type seed struct {
	values map[string][]any
	order  []string
}

// choices runs prop with the seed's values forced and returns the choice
// sequence it drew.
func (s seed) choices(prop func(*T)) ([]byte, error) {
	fc := &forcing{values: map[string][]any{}}
	for k, v := range s.values {
		fc.values[k] = v
	}
	t := newT(nil, nil, &generator{zero: true})
	t.forced = fc
	runCaptured(t, prop)
	if fc.err != nil {
		return nil, fc.err
	}
	var left []string
	for _, label := range s.order {
		if len(fc.values[label]) > 0 {
			left = append(left, fmt.Sprintf("%q", label))
			fc.values[label] = nil
		}
	}
	if len(left) > 0 {
		return nil, fmt.Errorf("the property made no draw (or fewer draws) labelled %s", strings.Join(left, ", "))
	}
	return t.data, nil
}
