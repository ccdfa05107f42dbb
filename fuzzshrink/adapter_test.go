package fuzzshrink

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/structured"
)

type benchItem struct {
	ID    uint32
	Label string
	On    bool
}

// benchConfig has 10 fields and, in the benchmark, a 100-element slice.
type benchConfig struct {
	Name    string
	Port    uint16
	Retries int
	Ratio   float64
	Verbose bool
	Tags    []string
	Items   []benchItem
	Limits  map[string]int
	Parent  *benchItem
	Mode    int8
}

func TestPlan(t *testing.T) {
	type celsius float64
	for _, tt := range []struct {
		fn   any
		want string // the native fuzz function type, or the error
	}{
		{func(*testing.T, []byte, int) {}, "func(*testing.T, []uint8, int)"},
		{func(*testing.T, benchConfig, celsius, string) {}, "func(*testing.T, []uint8, float64, string)"},
		{func(*testing.T) {}, "func(*testing.T)"},
		{func(*testing.T, struct{ F func() }) {}, "argument 1: (struct { F func() }).F: unsupported type func()"},
		{func(*testing.T, chan int) {}, "argument 1: (chan int): unsupported type chan int"},
		{func(int) {}, "fn is func(int), want a func(*testing.T, …) with no results"},
		{func(*testing.T) error { return nil }, "fn is func(*testing.T) error, want a func(*testing.T, …) with no results"},
		{nil, "fn is <nil>, want a func(*testing.T, …) with no results"},
	} {
		p, err := newPlan(reflect.TypeOf(tt.fn))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = p.fuzzType.String()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("newPlan(%T) = %q, want %q", tt.fn, got, tt.want)
		}
	}
}

// TestPlan_RoundTrip converts user values to native fuzz values and back.
func TestPlan_RoundTrip(t *testing.T) {
	type celsius float64
	cfg := benchConfig{Name: "n", Items: []benchItem{{ID: 7}}, Limits: map[string]int{"a": 1}}
	args := []any{cfg, celsius(-2.5), "s"}
	natives, err := nativeTuple(args)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := natives[0].([]byte); !ok || natives[1] != -2.5 || natives[2] != "s" {
		t.Fatalf("nativeTuple = %#v", natives)
	}
	p, err := newPlan(reflect.TypeOf(func(*testing.T, benchConfig, celsius, string) {}))
	if err != nil {
		t.Fatal(err)
	}
	in := []reflect.Value{reflect.Zero(tType)}
	for _, n := range natives {
		in = append(in, reflect.ValueOf(n))
	}
	out := p.toUser(in)
	for i, a := range args {
		if got := out[i+1].Interface(); !reflect.DeepEqual(got, a) {
			t.Errorf("argument %d came back as %#v, want %#v", i, got, a)
		}
	}
}

// BenchmarkWrapper measures what fuzzshrink.Fuzz adds to every call of the
// fuzz function under go test: decoding a struct of 10 fields with a
// 100-element slice from its []byte argument, converting a named native
// argument, and the reflective call.
func BenchmarkWrapper(b *testing.B) {
	type celsius float64
	cfg := benchConfig{Name: "bench", Port: 8080, Retries: 3, Ratio: 0.25, Verbose: true, Tags: []string{"a", "b"},
		Limits: map[string]int{"cpu": 2}, Parent: &benchItem{ID: 1}, Mode: -1}
	for i := range 100 {
		cfg.Items = append(cfg.Items, benchItem{ID: uint32(i), Label: "item", On: i%2 == 0})
	}
	enc, err := structured.Encode(reflect.ValueOf(cfg))
	if err != nil {
		b.Fatal(err)
	}
	calls := 0
	fn := func(t *testing.T, c benchConfig, temp celsius) { calls += len(c.Items) }
	p, err := newPlan(reflect.TypeOf(fn))
	if err != nil {
		b.Fatal(err)
	}
	fv := reflect.ValueOf(fn)
	in := []reflect.Value{reflect.Zero(tType), reflect.ValueOf(enc), reflect.ValueOf(21.5)}
	b.ReportAllocs()
	for b.Loop() {
		fv.Call(p.toUser(in))
	}
	if calls != 100*b.N {
		b.Fatalf("the function saw %d items in %d calls", calls, b.N)
	}
}
