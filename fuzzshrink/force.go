package fuzzshrink

import (
	"fmt"
	"reflect"
)

// Forcing runs a property with chosen values for some of its labelled
// draws (AddDraws): each such draw writes the choices that make its
// generator produce the value, every other choice is the simplest, and the
// choices written are a sequence that replays to those values.

// forcing is the values of labelled draws still to force.
type forcing struct {
	values map[string][]any
	err    error
}

func (f *forcing) take(label string) (any, bool) {
	vs := f.values[label]
	if len(vs) == 0 {
		return nil, false
	}
	f.values[label] = vs[1:]
	return vs[0], true
}

// forceDraw writes the choices that make g draw x, or ends the run with an
// error.
func forceDraw[V any](t *T, g *Gen[V], label string, x any) V {
	v, ok := x.(V)
	if !ok {
		v, ok = convertExact[V](x)
	}
	fail := func(format string, args ...any) V {
		t.forced.err = fmt.Errorf("draw %q of %v: %s", label, g, fmt.Sprintf(format, args...))
		t.invalidate("%v", t.forced.err)
		return v
	}
	switch {
	case !ok:
		return fail("a value of type %T, want %s", x, describe[V]())
	case g.force == nil:
		return fail("the generator cannot be forced to a value; force the draws inside it by their labels, or add a choice sequence with f.Add")
	}
	if err := g.force(t, v); err != nil {
		return fail("%v", err)
	}
	return v
}

// convertExact converts a number to V, if V is a number type and the
// conversion loses nothing.
func convertExact[V any](x any) (V, bool) {
	var zero V
	xv, vt := reflect.ValueOf(x), reflect.TypeFor[V]()
	if !xv.IsValid() || !numeric(xv.Kind()) || !numeric(vt.Kind()) {
		return zero, false
	}
	c := xv.Convert(vt)
	if fmt.Sprint(c) != fmt.Sprint(xv) {
		return zero, false
	}
	return c.Interface().(V), true
}

func numeric(k reflect.Kind) bool {
	return reflect.Int <= k && k <= reflect.Float64
}
