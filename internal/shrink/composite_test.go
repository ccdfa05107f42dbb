package shrink

import (
	"fmt"
	"iter"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/structured"
)

type propItem struct {
	N    int16
	S    string
	Next *propItem
}

type propConfig struct {
	Flags  []bool
	Items  []propItem
	ByName map[string]uint8
	Pair   [2]float32
	Blob   []byte
}

// TestShrink_CompositeStrictlyDecrease runs random predicates on random
// composite values (decoded from random bytes): every accepted candidate is
// strictly smaller than the best before it, and the search reaches a
// fixpoint.
func TestShrink_CompositeStrictlyDecrease(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	types := []reflect.Type{reflect.TypeFor[propConfig](), reflect.TypeFor[[]propItem](), reflect.TypeFor[map[int8][]string]()}
	n := 150
	if testing.Short() {
		n = 30
	}
	for i := range n {
		data := make([]byte, rng.IntN(64))
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		args := []any{structured.Decode(data, types[rng.IntN(len(types))]).Interface(), int(rng.Uint32() % 5000)}
		checkStrictlyDecreasing(t, i, args, randomPredicate(rng))
	}
}

func TestWith_CopiesComposites(t *testing.T) {
	t.Parallel()
	orig := []any{propConfig{Items: []propItem{{N: 1, Next: &propItem{N: 2}}}, ByName: map[string]uint8{"a": 1}}}
	c := cloneTuple(orig)
	cc := c[0].(propConfig)
	cc.Items[0].Next.N = 9
	cc.ByName["a"] = 9
	o := orig[0].(propConfig)
	if o.Items[0].Next.N != 2 || o.ByName["a"] != 1 {
		t.Errorf("changing a copy changed the original: %+v", o)
	}
}

type shrinkPair struct {
	A int8
	B []uint8
}

// TestStructuralShrinkers pins the candidates of the structural passes on
// small values, in order.
func TestStructuralShrinkers(t *testing.T) {
	t.Parallel()
	collect := func(v any, shrink func(node, pos) iter.Seq2[pos, reflect.Value]) []string {
		var out []string
		for _, c := range structural(v, pos{}, shrink) {
			out = append(out, fmt.Sprintf("%v", c))
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		v      any
		shrink func(node, pos) iter.Seq2[pos, reflect.Value]
		want   string
	}{
		{"remove slice blocks", []int16{1, 2, 3, 4}, removeNode, "[[] [3 4] [1 4] [1 2] [2 3 4] [1 3 4] [1 2 4] [1 2 3]]"},
		// Entries first, then bytes of the keys (a key may not collide).
		{"remove map entries", map[string]int{"a": 1, "bb": 2}, removeNode, "[map[] map[bb:2] map[a:1] map[:1 bb:2] map[:2 a:1] map[a:1 b:2] map[a:1 b:2]]"},
		{"zero the value, then each part", shrinkPair{A: 3, B: []uint8{7}}, zeroNode, "[{0 []} {0 [7]} {3 []}]"},
		{"zero a pointer", &shrinkPair{A: 1}, zeroNode, "[<nil> &{0 []} &{0 []}]"},
		{"lower the leaves", [2]int8{2, -1}, leaves(intArg), "[[0 -1] [1 -1] [2 0] [2 1]]"},
	} {
		if got := fmt.Sprint(collect(tt.v, tt.shrink)); got != tt.want {
			t.Errorf("%s: candidates of %v = %s, want %s", tt.name, tt.v, got, tt.want)
		}
	}
}
