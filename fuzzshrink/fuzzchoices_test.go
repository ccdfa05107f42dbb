package fuzzshrink

import (
	"strings"
	"testing"
)

func TestAddDraws_Errors(t *testing.T) {
	t.Parallel()
	prop := func(t *T) {
		IntRange(0, 10).Draw(t, "n")
		Map(Int(), func(x int) int { return x }).Draw(t, "mapped")
		Compose(func(t *T) [2]int { return [2]int{Int().Draw(t, "x"), Int().Draw(t, "y")} }).Draw(t, "pair")
		SliceOfDistinct(IntRange(0, 5)).Draw(t, "set")
	}
	for _, tt := range []struct {
		values []any
		want   string
	}{
		{[]any{"n", 11}, `draw "n" of IntRange(0, 10): 11 is out of range`},
		{[]any{"n", "x"}, `draw "n" of IntRange(0, 10): a value of type string, want int`},
		{[]any{"n", 2.5}, `a value of type float64, want int`},
		{[]any{"mapped", 1}, `draw "mapped" of Map(Int()): the generator cannot be forced to a value`},
		{[]any{"pair", [2]int{1, 2}}, `cannot be forced`},
		{[]any{"set", []int{1, 1}}, `1 appears twice`},
		{[]any{"n", 1, "n", 2}, `the property made no draw (or fewer draws) labelled "n"`},
		{[]any{"nope", 1}, `labelled "nope"`},
		{[]any{"x", 5, "y", -5, "n", 3.0, "set", []int{5, 0}}, ""}, // draws inside Compose, by their labels
	} {
		s := seed{values: map[string][]any{}}
		for i := 0; i < len(tt.values); i += 2 {
			l := tt.values[i].(string)
			s.values[l] = append(s.values[l], tt.values[i+1])
			s.order = append(s.order, l)
		}
		data, err := s.choices(prop)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.values, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: error %v, want %q", tt.values, err, tt.want)
		case tt.want == "":
			var got []any
			Replay(data, func(t *T) {
				got = append(got, IntRange(0, 10).Draw(t, "n"), Int().Draw(t, "m"), Int().Draw(t, "x"), Int().Draw(t, "y"),
					SliceOfDistinct(IntRange(0, 5)).Draw(t, "set"))
			})
			if show(got) != "3 0 5 -5 []int{5, 0}" {
				t.Errorf("the seed %x replays as %s", data, show(got))
			}
		}
	}
}

// TestAddDraws_Forceable forces a value of each generator that can be.
func TestAddDraws_Forceable(t *testing.T) {
	t.Parallel()
	type cfg struct {
		Name string
		P    *uint16
		M    map[int8]bool
	}
	seven := uint16(7)
	for _, tt := range []struct {
		gen  func(t *T) any
		val  any
		want string
	}{
		{func(t *T) any { return Int64().Draw(t, "v") }, int64(-1 << 63), "int64(-9223372036854775808)"},
		{func(t *T) any { return Uint64Range(5, 9).Draw(t, "v") }, uint64(9), "uint64(9)"},
		{func(t *T) any { return Float64().Draw(t, "v") }, -0.125, "-0.125"},
		{func(t *T) any { return Float32Range(0, 1).Draw(t, "v") }, float32(0.5), "float32(0.5)"},
		{func(t *T) any { return String().Draw(t, "v") }, "héllo, 世界", `"héllo, 世界"`},
		{func(t *T) any { return Bytes().Draw(t, "v") }, []byte{0, 255}, `[]byte("\x00\xff")`},
		{func(t *T) any { return Rune().Draw(t, "v") }, 'é', "rune('é')"},
		{func(t *T) any { return OneOf(Just(1), IntRange(5, 9)).Draw(t, "v") }, 7, "7"},
		{func(t *T) any { return SampledFrom("a", "b").Draw(t, "v") }, "b", `"b"`},
		{func(t *T) any { return NoShrink(IntRange(0, 9)).Filter(func(x int) bool { return x > 3 }).Draw(t, "v") }, 4, "4"},
		{func(t *T) any { return MapOf(Int8(), Bool()).Draw(t, "v") }, map[int8]bool{-1: true, 3: false}, "map[int8]bool{-1: true, 3: false}"},
		{func(t *T) any { return Make[cfg]().Draw(t, "v") }, cfg{Name: "x", P: &seven, M: map[int8]bool{2: true}},
			`fuzzshrink.cfg{Name: "x", P: new(uint16(7)), M: map[int8]bool{2: true}}`},
	} {
		s := seed{values: map[string][]any{"v": {tt.val}}, order: []string{"v"}}
		data, err := s.choices(func(t *T) { tt.gen(t) })
		if err != nil {
			t.Errorf("%v: %v", tt.val, err)
			continue
		}
		var got any
		Replay(data, func(t *T) { got = tt.gen(t) })
		if s := formatValue(got, ""); s != tt.want {
			t.Errorf("forced %v: replays as %s, want %s", tt.val, s, tt.want)
		}
	}
}
