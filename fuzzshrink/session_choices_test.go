package fuzzshrink

import (
	"path/filepath"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/session"
)

// sumProp fails when a list of ints adds up to more than 100: it panics
// or, with fatal, calls t.Fatalf.
func sumProp(fatal bool) func(t *T) {
	return func(t *T) {
		xs := SliceOf(Int()).Draw(t, "xs")
		s := 0
		for _, x := range xs {
			s += x
		}
		switch {
		case s > 100 && fatal:
			t.Fatalf("sum %d", s)
		case s > 100:
			panic("sum")
		}
	}
}

// TestSession_Choices runs the minimize session of a target of generators
// in process, as the fuzzmin command starts it in a test binary.
func TestSession_Choices(t *testing.T) {
	// A failing entry: [7, 96, -2, 400], as a fuzzer might find it.
	seed := seed{values: map[string][]any{"xs": {[]int{7, 96, -2, 400}}}, order: []string{"xs"}}
	data, err := seed.choices(sumProp(false))
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("\x01\xc9\x00") // [101]
	for _, fatal := range []bool{false, true} {
		s := &minimizeSession{dir: t.TempDir(), cfg: session.Config{Target: "FuzzSum", Entry: "e"}}
		res := s.minimizeChoices(t, sumProp(fatal), data) // failing candidates do not fail t
		kind := map[bool]string{false: failure.Panic, true: failure.Fail}[fatal]
		if res.Error != "" || res.Accepted == 0 || res.Draws != "xs = []int{101}" || res.Value != `[]byte("\x01\xc9\x00")` ||
			res.Add != `f.Add([]byte("\x01\xc9\x00"))` || res.Want.Kind != kind || res.Runs == 0 {
			t.Fatalf("result %+v", res)
		}
	}
	s := &minimizeSession{dir: t.TempDir(), cfg: session.Config{Target: "FuzzSum", Entry: "e"}}
	res := s.minimizeChoices(t, sumProp(false), data)
	if file, _ := encoding.Marshal(want); string(res.Best) != string(file) {
		t.Errorf("Best = %q", res.Best)
	}
	tuple, runs, err := session.ReadRecord(filepath.Join(s.dir, session.BestFile))
	if vals, _ := session.ParseTuple(tuple); err != nil || len(vals) != 1 || string(vals[0].([]byte)) != string(want) || runs == 0 {
		t.Errorf("best record %v, %d runs, %v", vals, runs, err)
	}
	if _, _, err := session.ReadRecord(filepath.Join(s.dir, session.CurrentFile)); err != nil {
		t.Errorf("current record: %v", err)
	}

	// An entry as go test -fuzz saves one, shorter than its normal form
	// (its list ends where the bytes do): [110] in 2 bytes. Its result,
	// [101], is simpler, though 3 bytes long.
	res = s.minimizeChoices(t, sumProp(true), []byte("1\xdb"))
	if res.Error != "" || res.Accepted == 0 || res.Draws != "xs = []int{101}" {
		t.Errorf("an entry shorter than its normal form: %+v", res)
	}
	// One that is as simple as can be stays as it was.
	res = s.minimizeChoices(t, sumProp(true), want)
	if res.Error != "" || res.Accepted != 0 || res.Value != `[]byte("\x01\xc9\x00")` {
		t.Errorf("a minimal entry: %+v", res)
	}

	// An entry that does not fail.
	res = s.minimizeChoices(t, sumProp(false), []byte{0})
	if res.Error != "the entry does not fail when run in the session" {
		t.Errorf("a passing entry: %+v", res)
	}
}

// TestSession_ChoicesCrash: when the original crashes the process, the
// session cannot run it to learn its choices; it shrinks its tokens, and
// a candidate that crashes ends the process (here, none does).
func TestSession_ChoicesCrash(t *testing.T) {
	data := []byte{1, 0xE9, 1, 0xE1, 2, 3, 0} // [MaxInt, 515]
	want := failure.Signature{Kind: failure.Fatal, Text: "concurrent map writes"}
	s := &minimizeSession{dir: t.TempDir(), cfg: session.Config{Target: "FuzzSum", Entry: "e", Want: &want, MaxRuns: 200}}
	res := s.minimizeChoices(t, sumProp(false), data)
	if res.Error != "" || res.Accepted != 0 || res.Draws != "" || res.Runs == 0 {
		t.Fatalf("result %+v", res)
	}
	if file, _ := encoding.Marshal(data); string(res.Best) != string(file) {
		t.Errorf("Best = %q, want the entry", res.Best)
	}
	// The panic has no position: the test's frames are in package fuzzshrink.
	if len(res.Others) != 1 || res.Others[0].Want.String() != "panic: sum" {
		t.Errorf("others: %v", res.Others)
	}
}
