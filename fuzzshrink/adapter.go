package fuzzshrink

import (
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/session"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// Fuzz is f.Fuzz for fuzz functions whose arguments may be composite Go
// values: fn is a func(*testing.T, A1, A2, …) whose arguments are native fuzz
// types, named types of them, or structs (exported fields), slices, arrays,
// maps and pointers built from them:
//
//	fuzzshrink.Fuzz(f, func(t *testing.T, cfg Config, n int) { … })
//
// A native argument stays a native fuzz argument, and a named one travels as
// its native type. Each composite argument travels as one []byte fuzz
// argument, which decodes into a value of its type whatever the bytes, so
// every mutation the fuzzer makes explores the value space; short inputs
// decode to small values, and a few bytes never allocate much. Under go test and go test -fuzz, Fuzz behaves
// exactly like f.Fuzz with that decoding in front. When fuzzmin minimizes a
// failing entry of the target, Fuzz runs the whole search inside the test
// process, shrinking composite values structurally.
//
// Fuzz fails the test at once, naming the argument and field, for a type it
// cannot decode: func, chan, interface, complex, unsafe.Pointer, a struct
// with no exported fields.
//
// fn may also be a property of generators, a func(*T) that draws its values
// (see [Gen]):
//
//	fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
//		n := fuzzshrink.IntRange(1, 5).Draw(t, "n")
//		xs := fuzzshrink.SliceOfN(fuzzshrink.Int(), n, n).Draw(t, "xs")
//		…
//	})
//
// The fuzz function then takes one []byte, the choice sequence its
// generators replay; every byte string replays to valid values. fuzzmin
// shrinks it as a choice sequence, and reports the draws of the result.
// Seeds are added with [AddDraws], or as sequences with f.Add([]byte(…)).
func Fuzz(f *testing.F, fn any) {
	f.Helper()
	if prop, ok := fn.(func(*T)); ok {
		fuzzChoices(f, prop) // fuzzchoices.go: generators
		return
	}
	p, err := newPlan(reflect.TypeOf(fn))
	if err != nil {
		f.Fatalf("fuzzshrink.Fuzz: %v", err)
	}
	fv := reflect.ValueOf(fn)
	if s := sessionFor(f.Name()); s != nil {
		s.run(f, p, fv)
		return
	}
	show := os.Getenv(session.CommandEnv) == ""
	local := funcPackage(fv)
	f.Fuzz(reflect.MakeFunc(p.fuzzType, func(in []reflect.Value) []reflect.Value {
		args := p.toUser(in)
		if show {
			t := args[0].Interface().(*testing.T)
			defer showOnFailure(t, func() string { return gosyntax.Args(interfaces(args[1:]), local) })()
		}
		fv.Call(args)
		return nil
	}).Interface())
}

// showOnFailure has a failing test say, in Go syntax, the input it failed
// on (under plain go test, the corpus file holds only the bytes it is
// encoded in): the function it returns, deferred around the test's body,
// logs value once the test has failed (t.Error, t.Fatal) or while it
// panics, and panics on.
func showOnFailure(t *testing.T, value func() string) func() {
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fuzzshrink: the failing input: %s", value())
		}
	})
	return func() {
		if r := recover(); r != nil {
			t.Logf("fuzzshrink: the failing input: %s", value())
			panic(r)
		}
	}
}

// interfaces returns the values of vs.
func interfaces(vs []reflect.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v.Interface()
	}
	return out
}

// Add adds a seed corpus entry of values of the fuzz function's argument
// types (after *testing.T), in order, as f.Add does for native ones:
//
//	fuzzshrink.Add(f, Config{Name: "a", Items: []Item{{Count: 1}}}, 3)
//
// Add must be called before [Fuzz]; it fails the test if a value's type is
// not one Fuzz accepts.
func Add(f *testing.F, args ...any) {
	f.Helper()
	natives := make([]any, len(args))
	for i, a := range args {
		v, err := toNative(reflect.ValueOf(a))
		if err != nil {
			f.Fatalf("fuzzshrink.Add: argument %d: %v", i+1, err)
		}
		natives[i] = v
	}
	f.Add(natives...)
}

// Custom is implemented by types that generate and shrink themselves: T is
// custom when T has the method MarshalFuzz and *T the method UnmarshalFuzz,
// that is, when *T implements Custom. Fuzz decodes a custom value with
// UnmarshalFuzz from bytes the fuzzer chose, and fuzzmin shrinks it through
// its encoding: blocks of bytes are removed and bytes lowered, each
// candidate is decoded with UnmarshalFuzz, and it is kept only if it
// re-encodes to something shorter or lexicographically smaller. So:
//
//   - UnmarshalFuzz must accept any bytes (it is the generator) and be
//     deterministic;
//   - MarshalFuzz must return bytes that UnmarshalFuzz turns back into the
//     same value, empty for the zero value, and shorter for simpler values.
//
// Custom types suit values with invariants that plain fields cannot hold:
// a normalized email address, a balanced tree, a checksummed frame.
type Custom interface {
	MarshalFuzz() []byte
	UnmarshalFuzz(data []byte)
}

// A plan maps the arguments of a fuzz function to native fuzz arguments.
type plan struct {
	user     []reflect.Type // the function's arguments after *testing.T
	fuzzType reflect.Type   // func(*testing.T, natives…)
}

var tType = reflect.TypeFor[*testing.T]()

func newPlan(ft reflect.Type) (*plan, error) {
	if ft == nil || ft.Kind() != reflect.Func || ft.NumIn() < 1 || ft.In(0) != tType || ft.NumOut() != 0 || ft.IsVariadic() {
		return nil, fmt.Errorf("fn is %v, want a func(*testing.T, …) with no results", ft)
	}
	p := &plan{}
	in := []reflect.Type{tType}
	for i := 1; i < ft.NumIn(); i++ {
		t := ft.In(i)
		nt, err := nativeArgType(t)
		if err != nil {
			return nil, fmt.Errorf("argument %d: %w", i, err)
		}
		p.user = append(p.user, t)
		in = append(in, nt)
	}
	p.fuzzType = reflect.FuncOf(in, nil, false)
	return p, nil
}

// nativeArgType is the native fuzz type that carries values of t.
func nativeArgType(t reflect.Type) (reflect.Type, error) {
	if shrink.IsLeaf(t) {
		return shrink.NativeType(t), nil
	}
	if err := structured.CheckType(t); err != nil {
		return nil, err
	}
	return shrink.BytesType, nil
}

// toUser converts the fuzz function's native arguments (after t, which it
// keeps) to the user's types.
func (p *plan) toUser(in []reflect.Value) []reflect.Value {
	out := make([]reflect.Value, len(in))
	out[0] = in[0]
	for i, t := range p.user {
		out[i+1] = userValue(in[i+1], t)
	}
	return out
}

// userValue converts a native fuzz argument to a value of type t.
func userValue(v reflect.Value, t reflect.Type) reflect.Value {
	if shrink.IsLeaf(t) {
		return shrink.FromNative(v.Interface(), t)
	}
	return structured.Decode(v.Bytes(), t)
}

// toNative converts a user value to the native fuzz value that carries it.
func toNative(v reflect.Value) (any, error) {
	if !v.IsValid() {
		return nil, fmt.Errorf("nil value")
	}
	if shrink.IsLeaf(v.Type()) {
		return shrink.Native(v), nil
	}
	if err := structured.CheckType(v.Type()); err != nil {
		return nil, err
	}
	b, err := structured.Encode(v)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// nativeTuple converts a tuple of user values to native fuzz values.
func nativeTuple(args []any) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		v, err := toNative(reflect.ValueOf(a))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
