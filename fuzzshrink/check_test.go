package fuzzshrink

import (
	"fmt"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// TestChoiceOracle_Identity checks that the oracle accepts only the failure
// it keeps, reports others, and treats invalid cases as passing.
func TestChoiceOracle_Identity(t *testing.T) {
	t.Parallel()
	prop := func(t *T) {
		n := IntRange(0, 100).Filter(func(n int) bool { return n != 50 }).Draw(t, "n")
		switch {
		case n > 90:
			panic("big")
		case n > 80:
			var m map[int]int
			m[n] = n // another panic
		}
	}
	c := newChecker(nil, prop, []CheckOption{CorpusDir("")})
	want, _ := c.replay([]byte{95})
	o := &choiceOracle{run: c.replay, want: want}
	for _, tt := range []struct {
		data []byte
		want shrink.Verdict
	}{{[]byte{99}, shrink.Fail}, {[]byte{85}, shrink.OtherFail}, {[]byte{10}, shrink.Pass}} {
		if v, _ := o.judge(&shrink.ChoiceSeq{Data: tt.data}); v != tt.want {
			t.Errorf("%x: %v, want %v", tt.data, v, tt.want)
		}
	}
	if others := o.others.Sorted(); len(others) != 1 || others[0].Text != "assignment to entry in nil map" {
		t.Errorf("other failures %v", others)
	}
	// 50, then past the end 0: the filter rejects the simplest value only
	// if 0 is rejected, so this one is valid.
	if v, _ := o.judge(&shrink.ChoiceSeq{Data: []byte{50}}); v != shrink.Pass {
		t.Errorf("50 then 0: %v", v)
	}
	if fmt.Sprint(o.runs) != "4" {
		t.Errorf("%d runs, want 4", o.runs)
	}
}
