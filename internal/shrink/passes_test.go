package shrink

import (
	"fmt"
	"math"
	"testing"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// checkCandidates checks that every candidate of every pass on args is
// strictly smaller than args, and that, resuming from a candidate's cursor
// as the engine does when it accepts it, the next candidates are strictly
// smaller than that candidate, depth levels deep. Valid UTF-8 strings must
// stay valid. It checks at most limit candidates per pass and level.
func checkCandidates(t *testing.T, args []any, depth, limit int) {
	t.Helper()
	for _, p := range passes {
		checkPass(t, &p, args, cursor{}, depth, limit)
	}
}

func checkPass(t *testing.T, p *pass, best []any, from cursor, depth, limit int) {
	t.Helper()
	n := 0
	for c, v := range p.candidates(best, from, sumsIn(best)) {
		cand := with(best, c.arg, v)
		if compareArgs(cand, best) >= 0 {
			t.Fatalf("pass %s proposed %#v from %#v (cursor %+v): not smaller", p.name, cand, best, from)
		}
		for i := range best {
			if s, ok := best[i].(string); ok && utf8.ValidString(s) && !utf8.ValidString(cand[i].(string)) {
				t.Fatalf("pass %s turned valid %q into invalid %q", p.name, s, cand[i])
			}
		}
		if depth > 1 {
			checkPass(t, p, cand, c, depth-1, limit)
		}
		if n++; n == limit {
			return
		}
	}
}

func TestPasses_CandidatesSmaller(t *testing.T) {
	t.Parallel()
	for _, args := range [][]any{
		{"héllo, 世界 😀", []byte{0, 1, 255, 128, 7}, "\xff\x00a\xfe"},
		{true, false, -1, int8(-128), int16(32767), int32(-5), int64(-1 << 63), uint(0), uint8(255),
			uint16(9), uint32(1 << 31), uint64(1<<64 - 1)},
		{float32(-1.5), float32(3.4e38), 123.456, math.Copysign(0, -1), 1e300, 5e-324},
		// Text with structure, and binary records, for the text passes.
		{`{"a": [1, {"b": "x\"y"}], "c": 'é'}`, []byte("<a x='1'>\n  <b>t u</b>\n</a>\n"), "f(x) {\n\tif y {\n\t\tz()\n\t}\n}\n"},
		{[]byte("\x82\xcc\x00\x03abcdSTAT\x00\x01\x00\x00\x80\xc9\x00\x00"), "\x01\x00\xff;\x02\x00\x07"},
	} {
		t.Run(fmt.Sprint(args...), func(t *testing.T) {
			checkCandidates(t, args, 3, 40)
		})
	}
}

func TestPasses_Names(t *testing.T) {
	t.Parallel()
	names := func(args ...any) string {
		var got []string
		for _, p := range searchPasses(args) {
			got = append(got, p.name)
		}
		return fmt.Sprint(got)
	}
	native := "fields lengths trees inflate lists hoist spans tokens remove rewrap pairs words counts zero sort redistribute offset ints floats bools literals numbers bytes runes swap shift cuts"
	if got, want := names("a", 1), "["+native+"]"; got != want {
		t.Errorf("passes of native arguments = %v, want %s", got, want)
	}
	// A kind of Value adds its passes after the engine's, once.
	seq := &ChoiceSeq{Data: []byte{1}}
	if got, want := names(seq, "a", seq), "["+native+" delete spans descendants zero spans lower choices sort spans merge collections flatten relabel elements redistribute pairs gather elements common offset]"; got != want {
		t.Errorf("passes with choice sequences = %v, want %s", got, want)
	}
}

func TestWith_CopiesBytes(t *testing.T) {
	t.Parallel()
	b := []byte("abc")
	orig := []any{b, 1}
	c := with(orig, 1, 2)
	c[0].([]byte)[0] = 'X'
	if string(b) != "abc" {
		t.Errorf("modifying a candidate's []byte changed the original to %q", b)
	}
	if c[1] != 2 || orig[1] != 1 {
		t.Errorf("with(..., 1, 2) = %v, original %v", c, orig)
	}
}

// sumsIn returns the sums of the binary arguments of best, as the engine
// finds them.
func sumsIn(best []any) func(i int) []formats.Sum {
	e := &engine{best: best}
	return e.sumsOf
}
