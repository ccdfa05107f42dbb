package shrink

import (
	"math"
	"testing"
)

func TestCacheKey(t *testing.T) {
	t.Parallel()
	c := newCache()
	distinct := [][]any{
		{}, {""}, {"", ""}, {"ab", "c"}, {"a", "bc"}, {"abc"}, {[]byte("abc")},
		{1}, {int64(1)}, {uint(1)}, {true}, {int8(1)}, {int16(1)}, {int32(1)}, {uint8(1)}, {uint16(1)}, {uint32(1)}, {uint64(1)},
		{0.0}, {math.Copysign(0, -1)}, {float32(0)}, {math.NaN()}, {1.0},
		{-1}, {math.MaxUint64 >> 1}, {"\x00"}, {[]byte{0}}, {[]byte{}, ""},
	}
	seen := map[cacheKey]int{}
	for i, args := range distinct {
		k := c.key(args, -1, nil)
		if j, ok := seen[k]; ok {
			t.Errorf("%#v and %#v have the same key", distinct[j], args)
		}
		seen[k] = i
		if k2 := c.key(cloneTuple(args), -1, nil); k2 != k {
			t.Errorf("%#v: key not stable", args)
		}
	}
	if c.key([]any{[]byte(nil)}, -1, nil) != c.key([]any{[]byte{}}, -1, nil) {
		t.Error("nil and empty []byte have different keys")
	}
	t2 := []any{"x", 1, []byte("y")}
	if c.key(t2, 1, 2) != c.key(with(t2, 1, 2), -1, nil) {
		t.Error("key with a replaced argument differs from the key of the built tuple")
	}
	if newCache().key(t2, -1, nil) == c.key(t2, -1, nil) {
		t.Error("two caches share hash seeds")
	}
}

func TestCache_AddRemove(t *testing.T) {
	t.Parallel()
	c := newCache()
	k := c.key([]any{"a"}, -1, nil)
	if !c.add(k) || c.add(k) {
		t.Error("add: want new, then known")
	}
	c.remove(k)
	if !c.add(k) {
		t.Error("add after remove: want new")
	}
}

// TestCacheKey_NoAllocs: hashing writes straight into the hashers.
func TestCacheKey_NoAllocs(t *testing.T) {
	c := newCache()
	args := []any{"string", []byte("bytes"), true, -1, int8(2), int16(3), int32(4), int64(5),
		uint(6), uint8(7), uint16(8), uint32(9), uint64(10), float32(1.5), 2.5}
	if n := testing.AllocsPerRun(100, func() { c.key(args, 3, args[4]) }); n != 0 {
		t.Errorf("key allocates %v times per call, want 0", n)
	}
}
