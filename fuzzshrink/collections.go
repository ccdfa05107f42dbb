package fuzzshrink

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Collections are drawn element by element, each optional element after a
// continue flag (a bool choice, as Hypothesis does), not after a length:
// the first min elements without flags, then a flag before each element,
// and no flag once the collection has max elements. So an element's span,
// its flag and its value, can be deleted by itself, and the collection is
// one element shorter; a length prefix would have to change too. Past the
// end of the data flags are false, and collections end.
//
// Distinct collections (sets, map keys) skip an element equal to one they
// hold: its span stays, but adds nothing. Lowering an element to the value
// of another therefore removes it rather than breaking the invariant.

// maxDuplicates ends a distinct collection: after so many duplicates in a
// row it has all the elements it will get.
const maxDuplicates = 20

// continueProb is the probability of a continue flag in generation: the
// collection gets on average about (base + size/per)·times elements past
// its minimum (fewer if maxLen is near).
func (t *T) continueProb(minLen, maxLen int, base, per, times float64) float64 {
	if !t.generating() {
		return 0.5
	}
	m := (base + float64(t.gen.size)/per) * times
	if maxLen >= 0 {
		m = min(m, float64(maxLen-minLen))
	}
	return m / (m + 1)
}

// Generation draws most collections short, with an element now and then a
// copy of the one before; but long lists, sorted lists and repeated
// characters are common in the inputs that fail. So one collection in
// longOdds (outside recursive generators, which must stay small) is
// longTimes as long on average, and half of those are runs, whose
// elements are copies of the one before with probability runCopies.
// Copies are of elements of up to maxCopy bytes of choices; of an element
// that holds a collection, the copy ends with that collection's first
// element (the inner collection ends it), and the rest is drawn.
const (
	longOdds  = 5
	longTimes = 4
	copyProb  = 0.1
	runCopies = 0.97
	maxCopy   = 32
)

// collect draws the elements of a collection whose element spans have
// generator elem: add draws one element and reports whether it counted (not
// a duplicate).
func collect(t *T, elem *shrink.Drawer, minLen, maxLen int, add func() bool) {
	times, copies := 1.0, copyProb
	if t.generating() && len(t.nest) == 0 && t.gen.rng.IntN(longOdds) == 0 {
		times = longTimes
		if t.gen.rng.IntN(2) == 0 {
			copies = runCopies
		}
	}
	p := t.continueProb(minLen, maxLen, 0.5, 10, times)
	n, dups := 0, 0
	var prev []byte // generation: the choices of the element before
	copying := t.generating()
	for maxLen < 0 || n < maxLen {
		i := int32(-1)
		if t.recording {
			i = t.begin(elem, "")
		}
		if n >= minLen {
			if !t.drawBool(p) {
				if i >= 0 {
					t.dropSpan(i) // the last flag is not an element
				}
				return
			}
			if i >= 0 {
				t.rec.Spans[i].Flagged = true
			}
		}
		mark := len(t.data)
		if copying && prev != nil && len(prev) <= maxCopy && t.gen.rng.Float64() < copies {
			t.gen.copy = prev
		}
		ok := add()
		if copying {
			t.gen.copy = nil
			prev = t.data[mark:len(t.data):len(t.data)]
			copying = ok // a distinct collection takes no copies
		}
		if i >= 0 {
			t.end(i)
		}
		if ok {
			n, dups = n+1, 0
			continue
		}
		if dups++; dups > maxDuplicates {
			if n < minLen {
				t.cannotGenerate("%s drew %d duplicates in a row: it cannot get %d distinct elements", elem.Name, dups, minLen)
			}
			return
		}
	}
}

// dropSpan removes span i, the last one, which has no children.
func (t *T) dropSpan(i int32) {
	t.cur = t.rec.Spans[i].Parent
	t.rec.Spans = t.rec.Spans[:i]
}

func checkLens(name string, minLen, maxLen int) {
	if minLen < 0 || maxLen >= 0 && maxLen < minLen {
		panic(fmt.Sprintf("fuzzshrink.%s: invalid lengths [%d, %d]", name, minLen, maxLen))
	}
}

func elementOf(name string) *shrink.Drawer {
	return &shrink.Drawer{Name: "an element of " + name, Element: true}
}

// SliceOf generates slices of values of g, of any length. They shrink by
// losing elements (one, or blocks of them, or all but one at once), then
// their elements shrink, and equal-length runs of elements are sorted.
func SliceOf[V any](g *Gen[V]) *Gen[[]V] {
	return sliceOf("SliceOf("+g.String()+")", g, 0, -1)
}

// SliceOfN generates slices of minLen to maxLen values of g (maxLen < 0:
// no maximum). It panics if minLen < 0 or maxLen < minLen.
func SliceOfN[V any](g *Gen[V], minLen, maxLen int) *Gen[[]V] {
	return sliceOf(fmt.Sprintf("SliceOfN(%v, %d, %d)", g, minLen, maxLen), g, minLen, maxLen)
}

func sliceOf[V any](name string, g *Gen[V], minLen, maxLen int) *Gen[[]V] {
	checkLens(name, minLen, maxLen)
	elem := elementOf(name)
	return newGen(name,
		func(t *T) []V {
			var s []V
			collect(t, elem, minLen, maxLen, func() bool {
				s = append(s, g.value(t))
				return true
			})
			return s
		},
		func(t *T, v []V) error {
			if len(v) < minLen || maxLen >= 0 && len(v) > maxLen {
				return fmt.Errorf("length %d is out of range", len(v))
			}
			return forceElems(t, g.String(), minLen, maxLen, len(v), func(i int) error {
				if g.force == nil {
					return fmt.Errorf("its elements' generator %v cannot be forced", g)
				}
				return g.force(t, v[i])
			})
		})
}

// forceElems writes the choices of a collection of n elements, force(i)
// those of element i.
func forceElems(t *T, name string, minLen, maxLen, n int, force func(i int) error) error {
	for i := range n {
		if i >= minLen {
			t.putRank(shrink.BoolInterval, 1)
		}
		if err := force(i); err != nil {
			return err
		}
	}
	if maxLen < 0 || n < maxLen {
		t.putRank(shrink.BoolInterval, 0)
	}
	return nil
}

// SliceOfDistinct generates slices of distinct values of g (sets, as
// slices). They shrink by losing elements and by their elements shrinking,
// as long as they stay distinct.
func SliceOfDistinct[V comparable](g *Gen[V]) *Gen[[]V] {
	return distinctSliceOf("SliceOfDistinct("+g.String()+")", g, 0, -1, identity[V])
}

// SliceOfNDistinct generates slices of minLen to maxLen distinct values of
// g (maxLen < 0: no maximum). If g cannot produce minLen distinct values,
// generation fails the test.
func SliceOfNDistinct[V comparable](g *Gen[V], minLen, maxLen int) *Gen[[]V] {
	return distinctSliceOf(fmt.Sprintf("SliceOfNDistinct(%v, %d, %d)", g, minLen, maxLen), g, minLen, maxLen, identity[V])
}

// SliceOfDistinctBy generates slices of values of g whose keys are
// distinct, such as users with distinct IDs: SliceOfDistinctBy(user,
// func(u User) int { return u.ID }). They shrink as SliceOfDistinct's do.
// key must be deterministic.
func SliceOfDistinctBy[V any, K comparable](g *Gen[V], key func(V) K) *Gen[[]V] {
	return distinctSliceOf(fmt.Sprintf("SliceOfDistinctBy(%v, %s)", g, describe[K]()), g, 0, -1, key)
}

// SliceOfNDistinctBy is SliceOfDistinctBy with minLen to maxLen elements
// (maxLen < 0: no maximum).
func SliceOfNDistinctBy[V any, K comparable](g *Gen[V], minLen, maxLen int, key func(V) K) *Gen[[]V] {
	return distinctSliceOf(fmt.Sprintf("SliceOfNDistinctBy(%v, %s, %d, %d)", g, describe[K](), minLen, maxLen), g, minLen, maxLen, key)
}

func identity[V any](v V) V { return v }

func distinctSliceOf[V any, K comparable](name string, g *Gen[V], minLen, maxLen int, key func(V) K) *Gen[[]V] {
	checkLens(name, minLen, maxLen)
	elem := elementOf(name)
	return newGen(name,
		func(t *T) []V {
			var s []V
			seen := map[K]bool{}
			collect(t, elem, minLen, maxLen, func() bool {
				v := g.value(t)
				k := key(v)
				if seen[k] {
					return false
				}
				seen[k] = true
				s = append(s, v)
				return true
			})
			return s
		},
		func(t *T, v []V) error {
			if len(v) < minLen || maxLen >= 0 && len(v) > maxLen {
				return fmt.Errorf("length %d is out of range", len(v))
			}
			seen := map[K]bool{}
			return forceElems(t, g.String(), minLen, maxLen, len(v), func(i int) error {
				k := key(v[i])
				if seen[k] {
					return fmt.Errorf("the key %v appears twice", k)
				}
				seen[k] = true
				if g.force == nil {
					return fmt.Errorf("its elements' generator %v cannot be forced", g)
				}
				return g.force(t, v[i])
			})
		})
}

// Permutation generates the permutations of values, each as often as the
// others, and shrinks them toward values in their order: position i, in
// turn, swaps with a position at a drawn distance after it (0: none).
func Permutation[V any](values []V) *Gen[[]V] {
	vs := slices.Clone(values)
	return newGen(fmt.Sprintf("Permutation(%d values)", len(vs)),
		func(t *T) []V {
			p := slices.Clone(vs)
			for i := 0; i+1 < len(p); i++ {
				j := i + int(t.drawInt(shrink.UnsignedInterval(0, uint64(len(p)-1-i)), uniform))
				p[i], p[j] = p[j], p[i]
			}
			return p
		},
		func(t *T, want []V) error {
			if len(want) != len(vs) {
				return fmt.Errorf("%d values, want a permutation of %d", len(want), len(vs))
			}
			p := slices.Clone(vs)
			for i := 0; i+1 < len(p); i++ {
				k := slices.IndexFunc(p[i:], func(v V) bool { return reflect.DeepEqual(v, want[i]) })
				if k < 0 {
					return fmt.Errorf("%v is not one of the values left to place", want[i])
				}
				t.putRank(shrink.UnsignedInterval(0, uint64(len(p)-1-i)), uint64(k))
				p[i], p[i+k] = p[i+k], p[i]
			}
			if len(p) > 0 && !reflect.DeepEqual(p[len(p)-1], want[len(want)-1]) {
				return fmt.Errorf("%v is not the value left to place", want[len(want)-1])
			}
			return nil
		})
}

// MapOf generates maps of any size with keys of k and values of v.
// They shrink by losing entries, then keys and values shrink (keys as long
// as they stay distinct).
func MapOf[K comparable, V any](k *Gen[K], v *Gen[V]) *Gen[map[K]V] {
	return mapOf(fmt.Sprintf("MapOf(%v, %v)", k, v), k, v, 0, -1)
}

// MapOfN generates maps of minLen to maxLen entries (maxLen < 0: no
// maximum).
func MapOfN[K comparable, V any](k *Gen[K], v *Gen[V], minLen, maxLen int) *Gen[map[K]V] {
	return mapOf(fmt.Sprintf("MapOfN(%v, %v, %d, %d)", k, v, minLen, maxLen), k, v, minLen, maxLen)
}

func mapOf[K comparable, V any](name string, kg *Gen[K], vg *Gen[V], minLen, maxLen int) *Gen[map[K]V] {
	checkLens(name, minLen, maxLen)
	elem := elementOf(name)
	return newGen(name,
		func(t *T) map[K]V {
			var m map[K]V
			collect(t, elem, minLen, maxLen, func() bool {
				k := kg.value(t)
				if _, dup := m[k]; dup {
					return false
				}
				if m == nil {
					m = map[K]V{}
				}
				m[k] = vg.value(t)
				return true
			})
			return m
		},
		func(t *T, m map[K]V) error {
			if len(m) < minLen || maxLen >= 0 && len(m) > maxLen {
				return fmt.Errorf("size %d is out of range", len(m))
			}
			if kg.force == nil || vg.force == nil {
				return fmt.Errorf("its keys' or values' generator cannot be forced")
			}
			// In a fixed order, so that a seed is always the same bytes.
			keys := make([]K, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(a, b K) int { return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
			return forceElems(t, name, minLen, maxLen, len(keys), func(i int) error {
				if err := kg.force(t, keys[i]); err != nil {
					return err
				}
				return vg.force(t, m[keys[i]])
			})
		})
}
