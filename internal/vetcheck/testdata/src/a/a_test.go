package a

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
)

type Config struct {
	Name  string
	Port  int
	Items []int
}

type Bad struct {
	Name   string
	Notify chan int
}

type Email struct{ addr string }

func (e Email) MarshalFuzz() []byte     { return []byte(e.addr) }
func (e *Email) UnmarshalFuzz(b []byte) { e.addr = string(b) }

// Phone has the methods of a custom type with the wrong signature.
type Phone struct{ number string }

func (p Phone) MarshalFuzz() []byte           { return []byte(p.number) }
func (p *Phone) UnmarshalFuzz(b []byte) error { p.number = string(b); return nil }

func FuzzGood(f *testing.F) {
	fuzzshrink.Add(f, Config{Name: "a"}, 3, "x")
	fuzzshrink.Add(f, Config{}, int(0), "")
	fuzzshrink.Fuzz(f, func(t *testing.T, c Config, n int, s string) {})
}

func FuzzCount(f *testing.F) {
	fuzzshrink.Add(f, Config{}) // want `fuzzshrink.Add: 1 values, but the fuzz function takes 2 after \*testing.T`
	fuzzshrink.Fuzz(f, func(t *testing.T, c Config, n int) {})
}

func FuzzTypes(f *testing.F) {
	fuzzshrink.Add(f, Config{}, 3)         // want `fuzzshrink.Add: value 2 has type int, but the fuzz function's parameter 3 has type int64`
	fuzzshrink.Add(f, &Config{}, int64(3)) // want `fuzzshrink.Add: value 1 has type \*Config, but the fuzz function's parameter 2 has type Config`
	fuzzshrink.Fuzz(f, func(t *testing.T, c Config, n int64) {})
}

func FuzzLate(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, n int) {})
	fuzzshrink.Add(f, 1) // want `fuzzshrink.Add after fuzzshrink.Fuzz: Fuzz has started, and never sees this seed`
}

func FuzzUndecodable(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, b Bad, e Email) {}) // want `fuzzshrink.Fuzz: parameter 2 has type Bad, which fuzzshrink cannot decode: field Notify: a channel`
}

func FuzzNotCustom(f *testing.F) {
	fuzzshrink.Fuzz(f, func(t *testing.T, p Phone) {}) // want `fuzzshrink.Fuzz: parameter 2 has type Phone, which fuzzshrink cannot decode: a struct with no exported fields \(a custom type has MarshalFuzz\(\) \[\]byte and, on its pointer, UnmarshalFuzz\(\[\]byte\)\)`
}

func FuzzShape(f *testing.F) {
	fuzzshrink.Fuzz(f, func(n int) {}) // want `fuzzshrink.Fuzz: want func\(\*testing.T, ...\) or func\(\*fuzzshrink.T\), got func\(n int\)`
}

func FuzzGenerators(f *testing.F) {
	fuzzshrink.Add(f, 3) // want `fuzzshrink.Add in a target of generators, whose entries are choice sequences: add its draws' values with fuzzshrink.AddDraws`
	fuzzshrink.AddDraws(f, "n", 3)
	fuzzshrink.Fuzz(f, func(t *fuzzshrink.T) {
		fuzzshrink.Int().Draw(t, "n")
	})
}

func TestCaptured(t *testing.T) {
	fuzzshrink.Check(t, func(outer *fuzzshrink.T) {
		n := fuzzshrink.Int().Draw(outer, "n")
		fuzzshrink.Check(t, func(inner *fuzzshrink.T) {
			fuzzshrink.String().Draw(outer, "s") // want `Draw given outer, the \*fuzzshrink.T of an enclosing function: give it inner, this property's own, or its draws go to another run`
			fuzzshrink.String().Draw(inner, "s")
			_ = n
		})
		helper := func() { fuzzshrink.Int().Draw(outer, "m") } // a closure without a T of its own
		helper()
	})
}
