package fuzzshrink

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// testTree is a recursive type for Make and Deferred.
type testTree struct {
	V    int8
	Kids []*testTree
}

// testProps are properties of many generators, each returning the values
// it drew, which replay must reproduce.
var testProps = map[string]func(t *T) []any{
	"ints": func(t *T) []any {
		return []any{Int().Draw(t, "a"), IntRange(-5, 1000).Draw(t, "b"), Uint8().Draw(t, "c"),
			Int64Range(math.MinInt64, math.MinInt64+3).Draw(t, "d"), Uint64().Draw(t, "e"), Bool().Draw(t, "f")}
	},
	"floats": func(t *T) []any {
		return []any{Float64().Draw(t, "a"), Float64Range(0.3, 0.7).Draw(t, "b"), Float32().Draw(t, "c"),
			Float64Range(-1, math.Inf(1)).Draw(t, "d")}
	},
	"strings": func(t *T) []any {
		return []any{String().Draw(t, "s"), StringOf(RuneFrom([]rune("ab()"))).Draw(t, "g"), Bytes().Draw(t, "b"),
			StringN(2, 3).Draw(t, "n")}
	},
	"collections": func(t *T) []any {
		return []any{SliceOf(IntRange(0, 9)).Draw(t, "xs"), SliceOfNDistinct(IntRange(0, 20), 2, 5).Draw(t, "set"),
			MapOf(IntRange(0, 5), Bool()).Draw(t, "m"), SliceOfN(Int(), 3, 3).Draw(t, "three")}
	},
	"combinators": func(t *T) []any {
		n := FlatMap(IntRange(1, 5), func(n int) *Gen[[]int] { return SliceOfN(IntRange(0, 9), n, n) }).Draw(t, "sized")
		f := IntRange(0, 100).Filter(func(n int) bool { return n%7 == 0 }).Draw(t, "f")
		o := OneOf(Just(-1), IntRange(0, 3), Map(IntRange(0, 3), func(x int) int { return 10 * x })).Draw(t, "o")
		s := SampledFrom("x", "y", "z").Draw(t, "s")
		ns := NoShrink(Int16()).Draw(t, "ns")
		return []any{n, f, o, s, ns}
	},
	"make": func(t *T) []any {
		return []any{Make[testTree]().Draw(t, "tree"), Make[map[string][2]float32]().Draw(t, "m"), Make[*uint]().Draw(t, "p")}
	},
}

// runProp runs a test property on data (or generates with gen) and returns
// the T and the values it drew.
func runProp(prop func(*T) []any, data []byte, gen *generator) (*T, []any) {
	t := newT(nil, data, gen)
	t.recording, t.keepDraws = true, true
	var vals []any
	runCaptured(t, func(t *T) { vals = prop(t) })
	return t, vals
}

func TestGenerate_Replays(t *testing.T) {
	t.Parallel()
	for name, prop := range testProps {
		for seed := range uint64(200) {
			g, want := runProp(prop, nil, newGenerator(seed, int(seed/2)))
			if g.invalid != "" {
				continue
			}
			r, got := runProp(prop, g.data, nil)
			if !reflect.DeepEqual(show(got), show(want)) {
				t.Fatalf("%s, seed %d: generated %v, replayed %v", name, seed, want, got)
			}
			if !reflect.DeepEqual(choiceValues(&r.rec), choiceValues(&g.rec)) {
				t.Fatalf("%s, seed %d: the replay drew other choices", name, seed)
			}
			norm, rec := r.rec.Normalize()
			if !bytes.Equal(norm, g.data) {
				t.Fatalf("%s, seed %d: generated %x, whose normal form is %x", name, seed, g.data, norm)
			}
			for i, c := range rec.Choices {
				if tok := c.AppendToken(nil); !bytes.Equal(norm[c.Start:c.End], tok) {
					t.Fatalf("%s: choice %d at [%d, %d) of %x, want its token %x", name, i, c.Start, c.End, norm, tok)
				}
			}
		}
	}
}

// show prints values as Go, pointers followed.
func show(vals []any) string {
	s := make([]string, len(vals))
	for i, v := range vals {
		s[i] = formatValue(v, "")
	}
	return strings.Join(s, " ")
}

func choiceValues(rec *shrink.Record) []uint64 {
	vs := make([]uint64, len(rec.Choices))
	for i, c := range rec.Choices {
		vs[i] = c.Val
	}
	return vs
}

// TestReplay_AnyBytes replays random bytes, biased to tokens of every kind:
// every run ends, valid or not, and replays the same way again.
func TestReplay_AnyBytes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for name, prop := range testProps {
		for range 300 {
			data := make([]byte, rng.IntN(64))
			for i := range data {
				data[i] = byte(rng.IntN(256))
				if rng.IntN(4) == 0 {
					data[i] = byte(rng.IntN(8))
				}
			}
			a, va := runProp(prop, data, nil)
			b, vb := runProp(prop, data, nil)
			if show(va) != show(vb) || a.invalid != b.invalid {
				t.Fatalf("%s: %x replays as %v, then %v", name, data, va, vb)
			}
			if a.invalid != "" {
				continue
			}
			set := va
			if name == "collections" {
				set = []any{va[1]}
				seen := map[int]bool{}
				for _, x := range va[1].([]int) {
					if seen[x] {
						t.Fatalf("%x: the set %v has duplicates", data, va[1])
					}
					seen[x] = true
				}
			}
			_ = set
			if name == "combinators" && va[1].(int)%7 != 0 {
				t.Fatalf("%x: the filter let %d through", data, va[1])
			}
		}
	}
}

// TestNormalize_ReplaysTheSame checks that the normal form of a run on
// random bytes replays to the same values.
func TestNormalize_ReplaysTheSame(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for name, prop := range testProps {
		for range 300 {
			data := make([]byte, rng.IntN(48))
			for i := range data {
				data[i] = byte(rng.IntN(256))
			}
			a, va := runProp(prop, data, nil)
			if a.invalid != "" {
				continue
			}
			norm, _ := a.rec.Normalize()
			b, vb := runProp(prop, norm, nil)
			if show(va) != show(vb) || b.invalid != "" {
				t.Fatalf("%s: %x gives %v, its normal form %x gives %v", name, data, va, norm, vb)
			}
			if again, _ := b.rec.Normalize(); !bytes.Equal(again, norm) {
				t.Fatalf("%s: the normal form %x is not normal: %x", name, norm, again)
			}
		}
	}
}

func TestReplay_PastTheEndIsSimplest(t *testing.T) {
	t.Parallel()
	_, vals := runProp(func(t *T) []any {
		return []any{IntRange(5, 10).Draw(t, "a"), IntRange(-10, -5).Draw(t, "b"), Int().Draw(t, "c"),
			Float64Range(0.3, 0.7).Draw(t, "d"), SliceOf(Int()).Draw(t, "e"), String().Draw(t, "f"), Bool().Draw(t, "g"),
			Rune().Draw(t, "h"), RuneFrom([]rune("xyz")).Draw(t, "i")}
	}, nil, nil)
	if got, want := show(vals), `5 -5 0 0.5 []int(nil) "" false rune('0') rune('x')`; got != want {
		t.Errorf("an empty sequence replays to %s, want %s", got, want)
	}
}

func TestGenerate_Recursion(t *testing.T) {
	t.Parallel()
	type node struct{ kids []*node }
	var tree *Gen[*node]
	tree = OneOf(Just[*node](nil), Compose(func(t *T) *node {
		return &node{kids: SliceOf(Deferred(func() *Gen[*node] { return tree })).Draw(t, "kids")}
	}))
	var size func(*node) int
	size = func(n *node) int {
		s := 1
		if n != nil {
			for _, k := range n.kids {
				s += size(k)
			}
		}
		return s
	}
	total := 0
	for seed := range uint64(200) {
		_, vals := runProp(func(t *T) []any { return []any{tree.Draw(t, "tree")} }, nil, newGenerator(seed, 100))
		total += size(vals[0].(*node))
	}
	if total > 200*100 {
		t.Errorf("recursive trees have %d nodes on average", total/200)
	}
}
