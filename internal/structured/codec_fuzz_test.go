package structured

import (
	"bytes"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// fuzzDecodeTypes are the types FuzzStructuredDecode decodes every input
// into: a struct of every kind, a recursive type, and a map of slices.
var fuzzDecodeTypes = []reflect.Type{
	reflect.TypeFor[sAll](),
	reflect.TypeFor[sNode](),
	reflect.TypeFor[map[string][]int](),
}

// FuzzStructuredDecode checks that Decode is total (no input panics), that
// what it allocates is bounded by the input's length, and that its result
// encodes canonically.
func FuzzStructuredDecode(f *testing.F) {
	for _, v := range []any{benchValue(), sAll{Str: "x", Ints: []int{1, -1}, M: map[string][]int{"a": {0}}}, sNode{Kids: []*sNode{{Val: 1}}}} {
		enc, err := Encode(reflect.ValueOf(v))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(enc)
	}
	f.Add([]byte{})
	f.Add(bytes.Repeat([]byte{0xe8}, 64))
	f.Add(bytes.Repeat([]byte{0x01}, 64))
	f.Add([]byte("\x05\x00\x01\x02\xe0\xe7\xff\x03"))
	for _, typ := range fuzzDecodeTypes {
		if err := CheckType(typ); err != nil { // build the codec before measuring
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, typ := range fuzzDecodeTypes {
			var v reflect.Value
			if n := allocatedBy(func() { v = Decode(data, typ) }); n > decodeAllocBound(len(data)) {
				t.Fatalf("Decode(%d bytes, %v) allocated %d bytes, more than %d", len(data), typ, n, decodeAllocBound(len(data)))
			}
			checkRoundTrip(t, v)
		}
	})
}

// FuzzStructuredRoundTrip checks round trips of values built directly from
// the fuzz arguments, not by Decode: any float bits, any strings, maps with
// NaN keys, pointers and recursive values of any shape.
func FuzzStructuredRoundTrip(f *testing.F) {
	f.Add(int64(-1), uint64(1), uint64(0x7ff8000000000001), uint32(0x7f800001), "s\x00", []byte{0, 1, 0xff}, uint8(3), true)
	f.Add(int64(math.MinInt64), uint64(math.MaxUint64), uint64(1<<63), uint32(1<<31), "", []byte(nil), uint8(0), false)
	f.Add(int64(112), uint64(224), uint64(0x3fe0000000000000), uint32(0x3f000000), "\xe8", []byte{0xe8, 0x01, 0x02}, uint8(200), true)
	f.Fuzz(func(t *testing.T, i int64, u uint64, f64 uint64, f32 uint32, s string, b []byte, n uint8, ok bool) {
		v := fuzzValue(i, u, f64, f32, s, b, n, ok)
		checkRoundTrip(t, reflect.ValueOf(v))
		checkRoundTrip(t, reflect.ValueOf(fuzzTree(b)))
		// Shorter means simpler: halving an integer never lengthens it.
		for _, pair := range [][2]any{{i / 2, i}, {u / 2, u}, {int32(i) / 2, int32(i)}, {uint16(u) / 2, uint16(u)}} {
			small, _ := Encode(reflect.ValueOf(pair[0]))
			large, _ := Encode(reflect.ValueOf(pair[1]))
			if len(small) > len(large) {
				t.Fatalf("Encode(%v) = %x is longer than Encode(%v) = %x", pair[0], small, pair[1], large)
			}
		}
	})
}

// fuzzValue builds an sAll that uses every fuzz argument in every field.
func fuzzValue(i int64, u uint64, f64 uint64, f32 uint32, s string, b []byte, n uint8, ok bool) sAll {
	fl64, fl32 := math.Float64frombits(f64), math.Float32frombits(f32)
	v := sAll{
		Bool: ok, Int: int(i), Int8: int8(i), Int16: int16(i), Int32: int32(i), Int64: i,
		Uint: uint(u), Uint8: uint8(u), Uint16: uint16(u), Uint32: uint32(u), Uint64: u,
		F32: fl32, F64: fl64, Str: s, Bytes: b, NamedBytes: sNamedBytes(s),
		Arr:  [3]int16{int16(i >> 16), int16(u), int16(n)},
		NArr: [2]sByte{sByte(n), sByte(i)},
		NI:   sNamedInt(i >> 32), NF: sNamedF32(fl32),
		Anon:     struct{ X, Y float32 }{fl32, float32(fl64)},
		Inner:    Inner{int(n), -int(n)},
		AfterAll: uint16(i), LastString: s + s,
	}
	copy(v.BArr[:], b)
	if ok {
		v.P = &v.Int
		ps := &v.Str
		v.PP = &ps
	}
	if n > 0 {
		v.MF = map[float64]bool{fl64: ok, -fl64: !ok, math.NaN(): true}
		v.MF32 = map[sNamedF32]int8{sNamedF32(fl32): int8(n)}
		v.MArr = map[[2]float32]string{{fl32, 0}: s, {0, fl32}: ""}
		v.ZeroM = map[sZero]sZero{{}: {}}
		v.M = map[string][]int{}
		v.NM = sNamedMap{}
	}
	for k := range int(n) {
		key := s + strconv.Itoa(k)
		v.M[key] = make([]int, k%4)
		v.NM[key] = sNamedInt(int64(k) * i)
		v.Ints = append(v.Ints, int(i)>>(k%64))
		v.Small = append(v.Small, sSmall{A: k, B: key[:min(len(key), k%8)]})
		if k%3 == 0 {
			v.SmallP = append(v.SmallP, nil)
		} else {
			v.SmallP = append(v.SmallP, &v.Small[k]) // aliasing is not kept, values are
		}
		v.NS = append(v.NS, sNamedInt(u>>(k%64)))
		if k%7 == 0 {
			v.ZeroS = append(v.ZeroS, sZero{})
		}
	}
	v.Node = fuzzTree(b)
	return v
}

// fuzzTree builds a recursive value of any shape from b: each byte says
// whether a node has a value, kids and a next node. It uses 1000 bytes at
// most, to stay well within maxDepth.
func fuzzTree(b []byte) *sNode {
	b = b[:min(len(b), 1000)]
	var build func() *sNode
	build = func() *sNode {
		if len(b) == 0 {
			return nil
		}
		c := b[0]
		b = b[1:]
		nd := &sNode{Val: int16(c) - 100}
		for range c % 4 {
			nd.Kids = append(nd.Kids, build())
		}
		if c&4 != 0 {
			nd.Next = build()
		}
		return nd
	}
	return build()
}
