package failure

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
)

type point struct{ X int }

type code int

// line returns the line of its caller, for positions the tests expect.
func line() int {
	_, _, l, _ := runtime.Caller(1)
	return l
}

func TestRecovered(t *testing.T) {
	var at int
	for _, tt := range []struct {
		name string
		fn   func()
		text string
	}{
		{"runtime error", func() { var s []int; at = line(); _ = s[5] }, "runtime error: index out of range [N] with length N"},
		{"nil map", func() { var m map[string]int; at = line(); m["x"] = 1 }, "assignment to entry in nil map"},
		{"string", func() { at = line(); panic("bad input 42") }, "bad input …"},
		{"error", func() { at = line(); panic(errors.New("bad")) }, "bad"},
		{"struct", func() { at = line(); panic(point{1}) }, "(failure.point)"},
		{"named int", func() { at = line(); panic(code(3)) }, "failure.code(…)"},
		{"in a helper", func() { at = line(); helperPanics() }, "from a helper"},
	} {
		var sig Signature
		func() {
			defer func() {
				var msg string
				sig, msg = Recovered(recover())
				if msg != "" {
					sig.Text = Shape(msg, nil)
				}
			}()
			tt.fn()
		}()
		want := Signature{Kind: Panic, Text: tt.text, Pos: fmt.Sprintf("recovered_test.go:%d", at)}
		if tt.name == "in a helper" {
			want.Pos = fmt.Sprintf("recovered_test.go:%d", helperLine)
		}
		if sig != want {
			t.Errorf("%s: Recovered = %+v, want %+v", tt.name, sig, want)
		}
	}
}

var helperLine int

func helperPanics() {
	helperLine = line() + 1
	panic("from a helper")
}

func TestGoexited(t *testing.T) {
	done := make(chan Signature)
	var at int
	go func() {
		defer func() { done <- Goexited() }()
		at = line() + 1
		runtime.Goexit()
	}()
	if sig, want := <-done, (Signature{Kind: Fail, Pos: fmt.Sprintf("recovered_test.go:%d", at)}); sig != want {
		t.Errorf("Goexited = %+v, want %+v", sig, want)
	}
	// Not below runtime.Goexit (a t.Error): the kind alone.
	if sig := Goexited(); sig != (Signature{Kind: Fail}) {
		t.Errorf("Goexited outside Goexit = %+v, want the kind alone", sig)
	}
}

func TestErrored(t *testing.T) {
	sig, at := Errored(), line()
	if want := (Signature{Kind: Fail, Pos: fmt.Sprintf("recovered_test.go:%d", at)}); sig != want {
		t.Errorf("Errored = %+v, want %+v", sig, want)
	}
}
