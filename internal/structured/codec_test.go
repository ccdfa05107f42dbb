package structured

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// Types of the structured codec tests.
type (
	sNamedInt   int32
	sNamedF32   float32
	sNamedBytes []byte
	sNamedSlice []sNamedInt
	sNamedMap   map[string]sNamedInt
	sByte       uint8

	sSmall struct {
		A int
		B string
		c int // unexported: skipped
	}
	// sZero encodes to no bytes at all, yet every element of a []sZero
	// costs one.
	sZero struct{ A [0]int }
	sNode struct {
		Val  int16
		Kids []*sNode
		Next *sNode
	}
	sList []sList
	sTree map[string]sTree

	Inner struct{ X, Y int }

	sAll struct {
		Bool        bool
		Int         int
		Int8        int8
		Int16       int16
		Int32       int32
		Int64       int64
		Uint        uint
		Uint8       uint8
		Uint16      uint16
		Uint32      uint32
		Uint64      uint64
		F32         float32
		F64         float64
		Str         string
		Bytes       []byte
		NamedBytes  sNamedBytes
		Arr         [3]int16
		BArr        [4]byte
		NArr        [2]sByte
		Ints        []int
		M           map[string][]int
		MF          map[float64]bool
		MF32        map[sNamedF32]int8
		MArr        map[[2]float32]string
		P           *int
		PP          **string
		Small       []sSmall
		SmallP      []*sSmall
		NI          sNamedInt
		NF          sNamedF32
		NS          sNamedSlice
		NM          sNamedMap
		Anon        struct{ X, Y float32 }
		Zero        [0]int
		ZeroS       []sZero
		ZeroM       map[sZero]sZero
		Node        *sNode
		Inner       // embedded
		unexported  int
		unexportedF func() // unsupported, but skipped
		AfterAll    uint16
		LastString  string
	}
)

// structuredTypes are the types the property tests decode random bytes into.
var structuredTypes = []reflect.Type{
	reflect.TypeFor[sAll](),
	reflect.TypeFor[sNode](),
	reflect.TypeFor[sList](),
	reflect.TypeFor[sTree](),
	reflect.TypeFor[map[string][]int](),
	reflect.TypeFor[[][]int](),
	reflect.TypeFor[[]*sNode](),
	reflect.TypeFor[map[float32][]sZero](),
	reflect.TypeFor[[]float64](),
	reflect.TypeFor[[]sZero](),
	reflect.TypeFor[[]struct { // a million-element array that costs nothing
		Z [1 << 20]sZero
		B int8
	}](),
	reflect.TypeFor[int64](),
	reflect.TypeFor[string](),
}

// sameValue reports whether a and b are equal as the structured codec sees
// them: floats bit for bit, nil and empty slices and maps alike, maps entry
// by entry (NaN keys included), pointers by their pointees, and structs by
// their exported fields.
func sameValue(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32:
		return f32bits(a) == f32bits(b)
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Array && a.Type().Size() == 0 {
			return true // and fast for [1 << 20]sZero
		}
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if a.Type().Field(i).IsExported() && !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if !hasFloatOrPointer(a.Type().Key(), nil) {
			for it := a.MapRange(); it.Next(); {
				bv := b.MapIndex(it.Key())
				if !bv.IsValid() || !sameValue(it.Value(), bv) {
					return false
				}
			}
			return true
		}
		// Keys that == cannot find (NaN), or finds wrongly (-0 for 0, a
		// pointer for its pointee): match the entries one by one.
		type entry struct{ k, v reflect.Value }
		var bs []entry
		for it := b.MapRange(); it.Next(); {
			bs = append(bs, entry{it.Key(), it.Value()})
		}
	next:
		for it := a.MapRange(); it.Next(); {
			for i, e := range bs {
				if sameValue(it.Key(), e.k) && sameValue(it.Value(), e.v) {
					bs = append(bs[:i], bs[i+1:]...)
					continue next
				}
			}
			return false
		}
		return true
	default:
		return a.Equal(b)
	}
}

// f32bits returns the bits of a float32 value without a conversion through
// float64, which would quiet a signaling NaN.
func f32bits(v reflect.Value) uint32 {
	a := reflect.New(v.Type()).Elem()
	a.Set(v)
	return *(*uint32)(unsafe.Pointer(a.UnsafeAddr()))
}

func hasFloatOrPointer(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64, reflect.Pointer:
		return true
	case reflect.Array:
		return hasFloatOrPointer(t.Elem(), seen)
	case reflect.Struct:
		if seen == nil {
			seen = map[reflect.Type]bool{}
		}
		seen[t] = true
		for i := range t.NumField() {
			if hasFloatOrPointer(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// show prints a value for a failure message, with the float bits.
func show(v reflect.Value) string {
	s := fmt.Sprintf("%+v", v)
	if len(s) > 2000 {
		s = s[:2000] + "..."
	}
	return s
}

// checkRoundTrip checks that v encodes canonically: Decode(Encode(v)) is v,
// encoding that again gives the same bytes, the encoding has no trailing zero
// it could do without, and zeros appended to it change nothing. It returns the
// encoding.
func checkRoundTrip(t testing.TB, v reflect.Value) []byte {
	t.Helper()
	enc, err := Encode(v)
	if err != nil {
		t.Fatalf("Encode(%s): %v", show(v), err)
	}
	got := Decode(enc, v.Type())
	if !sameValue(got, v) {
		t.Fatalf("Decode(Encode(v)) != v\nv     = %s\nenc   = %x\ngot   = %s", show(v), enc, show(got))
	}
	again, err := Encode(got)
	if err != nil || !bytes.Equal(again, enc) {
		t.Fatalf("Encode(Decode(Encode(v))) = %x, %v; want %x (not canonical)\nv = %s", again, err, enc, show(v))
	}
	if n := len(enc); n > 0 && enc[n-1] == 0 {
		if short := Decode(enc[:n-1], v.Type()); sameValue(short, v) {
			t.Fatalf("Encode(%s) = %x ends in a zero it could do without", show(v), enc)
		}
	}
	if padded := Decode(append(enc[:len(enc):len(enc)], 0, 0, 0), v.Type()); !sameValue(padded, v) {
		t.Fatalf("Decode(Encode(v)+zeros) = %s, want %s", show(padded), show(v))
	}
	return enc
}

func ptr[T any](v T) *T { return &v }

func TestStructured_RoundTripBoundaries(t *testing.T) {
	t.Parallel()
	nan64 := func(b uint64) float64 { return math.Float64frombits(b) }
	nan32 := func(b uint32) float32 { return math.Float32frombits(b) }
	node := &sNode{Val: 1, Kids: []*sNode{nil, {Val: -1}, {Kids: []*sNode{{Val: math.MaxInt16}}}}}
	var list *sNode
	for i := range 1000 { // deeper than cycleDepth
		list = &sNode{Val: int16(i), Next: list}
	}
	var deepList sList
	for range 500 {
		deepList = sList{nil, deepList}
	}
	bigMap := make(map[string][]int)
	floatMap := map[float64]bool{math.NaN(): true, nan64(0x7ff8000000000002): true, math.Copysign(0, -1): true, math.Inf(1): false}
	floatMap[math.NaN()] = false // a second NaN key
	for i := range 1000 {
		bigMap[fmt.Sprint(i)] = make([]int, i%3)
	}
	tests := []struct {
		name string
		vals []any
	}{
		{"bool", []any{false, true}},
		{"int8", []any{int8(0), int8(1), int8(-1), int8(math.MinInt8), int8(math.MaxInt8)}},
		{"uint8", []any{uint8(0), uint8(1), uint8(0xDF), uint8(0xE0), uint8(math.MaxUint8)}},
		{"int16", []any{int16(0), int16(1), int16(-1), int16(111), int16(112), int16(-112), int16(-113), int16(math.MinInt16), int16(math.MaxInt16)}},
		{"uint16", []any{uint16(0), uint16(223), uint16(224), uint16(255), uint16(256), uint16(math.MaxUint16)}},
		{"int32", []any{int32(0), int32(-1), int32(math.MinInt32), int32(math.MaxInt32), int32(1 << 24), int32(-1 << 24)}},
		{"uint32", []any{uint32(0), uint32(math.MaxUint32), uint32(1 << 31)}},
		{"int64", []any{int64(0), int64(-1), int64(math.MinInt64), int64(math.MaxInt64), int64(math.MinInt64 + 1)}},
		{"uint64", []any{uint64(0), uint64(math.MaxUint64), uint64(1 << 63), uint64(1<<56 - 1)}},
		{"int", []any{0, -1, math.MinInt, math.MaxInt}},
		{"uint", []any{uint(0), uint(math.MaxUint)}},
		{"float64", []any{0.0, math.Copysign(0, -1), 1.0, -1.0, 111.0, 112.0, -112.0, -113.0, 0.5, 0.1, 1e300, math.Inf(1), math.Inf(-1),
			math.NaN(), nan64(0x7ff8000000000000), nan64(0x7ff0000000000001), nan64(0xfff8000000000002), nan64(0xffffffffffffffff),
			math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}},
		{"float32", []any{float32(0), float32(math.Copysign(0, -1)), float32(1), float32(-113), float32(0.1), float32(math.Inf(-1)),
			nan32(0x7fc00000), nan32(0x7f800001), nan32(0xffc00001), nan32(0xffffffff), float32(math.MaxFloat32), float32(math.SmallestNonzeroFloat32)}},
		{"string", []any{"", "a", "\x00", "\x00\x00", "\xff", strings.Repeat("x", 1000)}},
		{"bytes", []any{[]byte(nil), []byte{}, []byte{0}, []byte{0, 0, 0}, []byte{0xff}, sNamedBytes("abc\x00")}},
		{"slices", []any{[]int(nil), []int{}, []int{0}, []int{0, 0, 0}, []int{math.MinInt, 0}, sNamedSlice{1, 0, -1},
			[][]int{nil, {}, {0}}, []sZero{{}, {}}, []sZero{}, [][0]int{{}, {}, {}}, []*int{nil, ptr(0)}}},
		{"arrays", []any{[3]int16{}, [3]int16{0, 0, 1}, [4]byte{0, 0, 0, 1}, [2]sByte{0xff, 0}, [0]int{}, [2][2]float32{{0, 1}, {-1, nan32(0x7f800001)}}}},
		{"maps", []any{map[string]int(nil), map[string]int{}, map[string]int{"": 0}, map[string]int{"b": 1, "a": 2}, bigMap, floatMap,
			map[float32]int{float32(math.Copysign(0, -1)): 1}, sNamedMap{"x": 0}, map[sZero]sZero{{}: {}}, map[[2]float32]string{{1, 2}: "", {0, nan32(0x7fc00001)}: "n"},
			map[*int]int{ptr(1): 1, ptr(2): 2}, map[int]map[int]int{0: nil, 1: {0: 0}}}},
		{"pointers", []any{(*int)(nil), ptr(0), ptr(-1), ptr(ptr("")), ptr((*string)(nil)), ptr(sSmall{})}},
		{"structs", []any{sSmall{}, sSmall{A: 1}, sSmall{B: "\x00"}, Inner{0, 0}, struct{ A, B sSmall }{B: sSmall{A: -1}},
			struct{ Z sZero }{}, sAll{Inner: Inner{Y: 1}}, sAll{LastString: "\x00"}, sAll{AfterAll: 1}}},
		{"named", []any{sNamedInt(-5), sNamedF32(nan32(0x7f800001)), sByte(7), sNamedSlice(nil)}},
		{"recursive", []any{node, list, deepList, sList{nil, nil}, sTree{"a": {"b": nil, "": {}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, v := range tt.vals {
				enc := checkRoundTrip(t, reflect.ValueOf(v))
				// An addressable value takes other paths (float32 and byte
				// arrays are read in place) to the same bytes.
				p := reflect.New(reflect.TypeOf(v))
				p.Elem().Set(reflect.ValueOf(v))
				if enc2, err := Encode(p.Elem()); err != nil || !bytes.Equal(enc2, enc) {
					t.Errorf("Encode(addressable %v) = %x, %v; want %x", v, enc2, err, enc)
				}
			}
		})
	}
}

// TestStructured_Format pins the format: a change here breaks every stored
// corpus of every user.
func TestStructured_Format(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v   any
		hex string
	}{
		{int64(0), ""},
		{int64(1), "02"},
		{int64(-1), "01"},
		{int64(111), "de"},
		{int64(-112), "df"},
		{int64(112), "e0e0"},
		{int64(-113), "e0e1"},
		{int16(math.MaxInt16), "e1feff"},
		{int64(math.MinInt64), "e7ffffffffffffffff"},
		{uint32(223), "df"},
		{uint32(224), "e0e0"},
		{uint64(256), "e10001"},
		{int8(-1), "ff"},
		{uint8(0xe8), "e8"},
		{true, "01"},
		{1.0, "02"},
		{-1.0, "01"},
		{math.Copysign(0, -1), "e080"},
		{0.5, "e13fe0"},
		{math.Inf(1), "e17ff0"},
		{math.NaN(), "e77ff8000000000001"},
		{float32(0.5), "e03f"},
		{float32(-0.5), "e0bf"},
		{math.Float32frombits(0x7f800001), "e37f800001"},
		{"ab", "026162"},
		{"\x00", "0100"},
		{[]byte{0, 0}, "020000"},
		{[]int{0, 0}, "020000"},
		{[]int{0, 3}, "020006"},
		{[]sZero{{}, {}}, "020000"},
		{[3]int16{0, 1}, "0002"},
		{ptr(0), "01"},
		{ptr(ptr(0)), "0101"},
		{map[string]int{"b": 1, "a": 2}, "0201610401620 2"},
		{sSmall{B: "x", c: 9}, "000178"},
		{sNode{Kids: []*sNode{nil, {}}}, "00020001"},
	}
	for _, tt := range tests {
		want := strings.ReplaceAll(tt.hex, " ", "")
		got, err := Encode(reflect.ValueOf(tt.v))
		if err != nil || hex.EncodeToString(got) != want {
			t.Errorf("Encode(%T(%v)) = %x, %v; want %s", tt.v, tt.v, got, err, want)
		}
	}
}

// TestStructured_DecodeForms pins what the decoder reads that Encode never
// writes: boundary tags, junk bits, non-minimal widths, lengths beyond the
// data.
func TestStructured_DecodeForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		hex  string
		want any
	}{
		{"e8", int64(math.MaxInt64)},
		{"e9", int64(math.MinInt64)},
		{"e8", int16(math.MaxInt16)},
		{"e9", int16(math.MinInt16)},
		{"ea", int16(127)},
		{"e8", uint64(math.MaxUint64)},
		{"e8", uint16(math.MaxUint16)},
		{"ff", int64(-128)},              // (0xff-0xe8) % 20 = 3
		{"e7ffff", int16(math.MinInt16)}, // k = 8 capped at 2
		{"e70100", uint16(1)},            // a non-minimal width
		{"e6", int32(0)},                 // k = 7 bytes past the end
		{"e8", math.Copysign(0, -1)},
		{"e9", math.Inf(1)},
		{"eb", math.NaN()},
		{"e73ff0", 1.0}, // the low bytes past the end are zero
		{"e8", float32(math.Copysign(0, -1))},
		{"02", false},
		{"03", true},
		{"02", (*int)(nil)},
		{"0303", ptr(-2)},
		{"e86162", "ab"}, // a length of MaxUint64, capped
		{"05ab", "\xab"},
		{"050102", []int{-1, 1}}, // the slice ends with the data
		{"0300", []sZero{{}}},
		{"02016102016104", map[string]int{"a": 2}}, // "a" twice: merged, the later wins
		{"00", []int(nil)},
		{"000101", sNode{Kids: []*sNode{{}}}},
	}
	for _, tt := range tests {
		data, err := hex.DecodeString(tt.hex)
		if err != nil {
			t.Fatal(err)
		}
		want := reflect.ValueOf(tt.want)
		if got := Decode(data, want.Type()); !sameValue(got, want) {
			t.Errorf("Decode(%s) = %s, want %s", tt.hex, show(got), show(want))
		}
	}
}

func TestStructured_CheckType(t *testing.T) {
	t.Parallel()
	type Item struct {
		Name    string
		Handler func()
	}
	type Config struct {
		Items []*Item
	}
	type Bad struct {
		Next *Bad
		Ch   chan int
	}
	type Hidden struct{ a, b int }
	type HasHidden struct {
		N int
		H Hidden
	}
	type Embeds struct{ Item }
	type Node struct{ Kids []*Node }
	type OK struct {
		A int
		f func() // unexported: not checked
	}
	tests := []struct {
		t    reflect.Type
		want string // "" for supported
	}{
		{reflect.TypeFor[Config](), "Config.Items[].Handler: unsupported type func()"},
		{reflect.TypeFor[func()](), "(func()): unsupported type func()"},
		{reflect.TypeFor[*func()](), "(*func()): unsupported type func()"},
		{reflect.TypeFor[chan int](), "(chan int): unsupported type chan int"},
		{reflect.TypeFor[any](), "(interface {}): unsupported type interface {}"},
		{reflect.TypeFor[unsafe.Pointer](), "Pointer: unsupported type unsafe.Pointer"},
		{reflect.TypeFor[complex64](), "complex64: unsupported type complex64"},
		{reflect.TypeFor[[]complex128](), "([]complex128)[]: unsupported type complex128"},
		{reflect.TypeFor[uintptr](), "uintptr: unsupported type uintptr"},
		{reflect.TypeFor[[2]func()](), "([2]func())[]: unsupported type func()"},
		{reflect.TypeFor[map[string]any](), "(map[string]interface {})[value]: unsupported type interface {}"},
		{reflect.TypeFor[map[[2]complex64]int](), "(map[[2]complex64]int)[key][]: unsupported type complex64"},
		{reflect.TypeFor[map[string][]chan int](), "(map[string][]chan int)[value][]: unsupported type chan int"},
		{reflect.TypeFor[Bad](), "Bad.Ch: unsupported type chan int"},
		{reflect.TypeFor[Hidden](), "Hidden: unsupported type structured.Hidden: struct with no exported fields"},
		{reflect.TypeFor[HasHidden](), "HasHidden.H: unsupported type structured.Hidden: struct with no exported fields"},
		{reflect.TypeFor[struct{}](), "(struct {}): unsupported type struct {}: struct with no exported fields"},
		{reflect.TypeFor[[]struct{}](), "([]struct {})[]: unsupported type struct {}: struct with no exported fields"},
		{reflect.TypeFor[Embeds](), "Embeds.Item.Handler: unsupported type func()"},
		{reflect.TypeFor[struct{ F struct{ G []func(int) bool } }](), "(struct { F struct { G []func(int) bool } }).F.G[]: unsupported type func(int) bool"},
		{reflect.TypeFor[sNamedInt](), ""},
		{reflect.TypeFor[Node](), ""},
		{reflect.TypeFor[OK](), ""},
		{reflect.TypeFor[sAll](), ""},
		{reflect.TypeFor[sTree](), ""},
		{reflect.TypeFor[map[*int]int](), ""},
		{nil, "unsupported type: nil"},
	}
	for _, tt := range tests {
		for range 2 { // the second time from the cache
			err := CheckType(tt.t)
			if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
				t.Errorf("CheckType(%v) = %v, want %q", tt.t, err, tt.want)
			}
		}
		if tt.want != "" && tt.t != nil {
			if _, err := Encode(reflect.Zero(tt.t)); fmt.Sprint(err) != tt.want {
				t.Errorf("Encode(%v zero) error = %v, want %q", tt.t, err, tt.want)
			}
			func() {
				defer func() {
					if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
						t.Errorf("Decode(%v) panicked with %v, want %q", tt.t, r, tt.want)
					}
				}()
				Decode(nil, tt.t)
			}()
		}
	}
}

func TestStructured_EncodeErrors(t *testing.T) {
	t.Parallel()
	cyc := &sNode{}
	cyc.Next = cyc
	loop := sList{nil}
	loop[0] = loop
	tree := sTree{}
	tree["self"] = tree
	var deep *sNode
	for range maxDepth + 1 {
		deep = &sNode{Next: deep}
	}
	var deepOK *sNode
	for range maxDepth {
		deepOK = &sNode{Next: deepOK}
	}
	for _, v := range []any{cyc, loop, tree, deep} {
		if enc, err := Encode(reflect.ValueOf(v)); err == nil {
			t.Errorf("Encode(%T cycle or too deep) = %d bytes, want an error", v, len(enc))
		} else {
			t.Log(err)
		}
	}
	if _, err := Encode(reflect.Value{}); err == nil {
		t.Errorf("Encode(invalid Value) succeeded")
	}
	if _, err := Encode(reflect.ValueOf(sSmall{c: 1}).Field(2)); err == nil {
		t.Errorf("Encode(unexported field) succeeded")
	}
	// Aliasing is not a cycle.
	shared := &sNode{Val: 3}
	checkRoundTrip(t, reflect.ValueOf(sNode{Kids: []*sNode{shared, shared}, Next: shared}))
	// maxDepth levels are fine, and so are the nil pointers, empty slices
	// and empty maps one level below.
	checkRoundTrip(t, reflect.ValueOf(deepOK))
	deepOK.Next.Kids = []*sNode{} // still encodes as nil
	checkRoundTrip(t, reflect.ValueOf(deepOK))
}

// TestStructured_ZeroIsEmpty checks that the zero value of every type encodes
// to no bytes, and no bytes decode to it.
func TestStructured_ZeroIsEmpty(t *testing.T) {
	t.Parallel()
	for _, typ := range append(structuredTypes, reflect.TypeFor[float32](), reflect.TypeFor[[4]byte](), reflect.TypeFor[*sAll](), reflect.TypeFor[[3]sZero]()) {
		zero := reflect.Zero(typ)
		if enc, err := Encode(zero); err != nil || len(enc) != 0 {
			t.Errorf("Encode(zero %v) = %x, %v; want no bytes", typ, enc, err)
		}
		if got := Decode(nil, typ); !got.IsZero() {
			t.Errorf("Decode(nil, %v) = %s, want zero", typ, show(got))
		}
	}
}

// randomBytes returns a random input that favours the byte values that matter
// to the format: zero, the tags, and the small values around them.
func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		switch rng.IntN(4) {
		case 0:
			b[i] = byte(rng.IntN(4))
		case 1:
			b[i] = byte(0xDE + rng.IntN(34))
		default:
			b[i] = byte(rng.Uint32())
		}
	}
	return b
}

// TestStructured_Property checks round trips of random values, made by
// decoding random bytes.
func TestStructured_Property(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for _, typ := range structuredTypes {
		for i := range n {
			data := randomBytes(rng, rng.IntN(1+i%500))
			checkRoundTrip(t, Decode(data, typ))
		}
	}
}

// TestStructured_DecodeBounded decodes random and hostile inputs into complex
// types and bounds what each costs in allocated bytes per input byte.
func TestStructured_DecodeBounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var inputs [][]byte
	for n := range 300 {
		inputs = append(inputs, randomBytes(rng, n*7))
	}
	for _, b := range []byte{0x01, 0x02, 0x03, 0x7f, 0xdf, 0xe0, 0xe7, 0xe8, 0xea, 0xfe, 0xff} {
		inputs = append(inputs, bytes.Repeat([]byte{b}, 1<<16))
	}
	inputs = append(inputs, bytes.Repeat([]byte{0xe8, 0x01}, 1<<15), bytes.Repeat([]byte{0x01, 0x01, 0x00}, 1<<14), bytes.Repeat([]byte{0xff, 0x00}, 1<<15))
	for _, typ := range structuredTypes {
		if err := CheckType(typ); err != nil { // build the codec before measuring
			t.Fatal(err)
		}
		worst := 0.0
		for _, data := range inputs {
			allocated := allocatedBy(func() { Decode(data, typ) })
			if len(data) >= 1024 {
				worst = max(worst, float64(allocated)/float64(len(data)))
			}
			if allocated > decodeAllocBound(len(data)) {
				t.Errorf("Decode(%d bytes %x..., %v) allocated %d bytes, more than %d", len(data), data[:min(len(data), 16)], typ, allocated, decodeAllocBound(len(data)))
			}
		}
		t.Logf("%v: at most %.0f bytes allocated per input byte (inputs of 1 KiB or more)", typ, worst)
	}
}

// decodeAllocBound bounds the bytes that decoding n bytes into one of the
// test types may allocate: a slice element, a map entry or a pointee per input
// byte at most, of at most a few hundred bytes (sAll is about 600 bytes), and
// twice that for slices that grow.
func decodeAllocBound(n int) uint64 { return uint64(256*n + 16<<10) }

// allocatedBy returns the bytes that f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestStructured_ShorterIsSimpler checks that encoding lengths order integers
// by magnitude and collections by size.
func TestStructured_ShorterIsSimpler(t *testing.T) {
	t.Parallel()
	encLen := func(v any) int {
		b, err := Encode(reflect.ValueOf(v))
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	// Every int16 and uint16: the length never drops as the magnitude grows.
	prevPos, prevNeg := 0, 0
	for i := 0; i <= math.MaxInt16; i++ {
		pos, neg := encLen(int16(i)), encLen(int16(-i-1))
		if pos < prevPos || neg < prevNeg {
			t.Fatalf("int16: len(Encode(%d)) = %d, len(Encode(%d)) = %d: shorter than the smaller magnitude", i, pos, -i-1, neg)
		}
		prevPos, prevNeg = pos, neg
	}
	prev := 0
	for i := 0; i <= math.MaxUint16; i++ {
		l := encLen(uint16(i))
		if l < prev {
			t.Fatalf("uint16: len(Encode(%d)) = %d, shorter than for %d", i, l, i-1)
		}
		prev = l
	}
	// Wider integers: at every byte boundary and at random pairs.
	var mags []uint64
	for s := range 64 {
		mags = append(mags, 1<<s-1, 1<<s, 1<<s+1, 0xE0<<s, 0xE0<<s-1)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		mags = append(mags, rng.Uint64()>>rng.IntN(64))
	}
	for _, a := range mags {
		for _, b := range []uint64{a + 1, a + 255, a << 1, a<<8 | 0xff, rng.Uint64() >> rng.IntN(64)} {
			a := a
			if a > b {
				a, b = b, a
			}
			check := func(x, y any) {
				if encLen(x) > encLen(y) {
					t.Fatalf("len(Encode(%T(%v))) = %d > len(Encode(%v)) = %d", x, x, encLen(x), y, encLen(y))
				}
			}
			check(a, b)
			if x, y := uint32(a), uint32(b); x <= y {
				check(x, y)
			} else {
				check(y, x)
			}
			if a <= math.MaxInt64 && b <= math.MaxInt64 {
				check(int64(a), int64(b))
				check(-int64(a), -int64(b))
				check(int(a), int(b))
			}
			if a <= math.MaxInt32 && b <= math.MaxInt32 {
				check(int32(a), int32(b))
				check(-int32(a), -int32(b))
			}
		}
	}
	// Zero elements: one more never encodes shorter.
	prevLen := map[reflect.Type]int{}
	for n := range 600 {
		for _, v := range []any{make([]int, n), make([]sZero, n), make([]string, n), make([][]int, n), make([]*sNode, n), make([]byte, n), strings.Repeat("\x00", n)} {
			l := encLen(v)
			if l < prevLen[reflect.TypeOf(v)] {
				t.Fatalf("%T of %d zeros encodes to %d bytes, shorter than with %d", v, n, l, n-1)
			}
			prevLen[reflect.TypeOf(v)] = l
		}
	}
	// Random values: dropping any one element or entry never encodes longer.
	for range 2000 {
		v := Decode(randomBytes(rng, rng.IntN(200)), reflect.TypeFor[sAll]())
		full := encLen(v.Interface())
		for _, f := range []string{"Ints", "Small", "SmallP", "Bytes", "NS", "ZeroS"} {
			s := v.FieldByName(f)
			for i := range s.Len() {
				w := reflect.New(v.Type()).Elem()
				w.Set(v)
				shorter := reflect.AppendSlice(reflect.MakeSlice(s.Type(), 0, s.Len()), s.Slice(0, i))
				shorter = reflect.AppendSlice(shorter, s.Slice(i+1, s.Len()))
				w.FieldByName(f).Set(shorter)
				if l := encLen(w.Interface()); l > full {
					t.Fatalf("dropping %s[%d] lengthens the encoding from %d to %d bytes:\n%s", f, i, full, l, show(v))
				}
			}
		}
		for _, f := range []string{"M", "MF", "NM", "MArr"} {
			m := v.FieldByName(f)
			for it := m.MapRange(); it.Next(); {
				w := reflect.New(v.Type()).Elem()
				w.Set(v)
				smaller := reflect.MakeMap(m.Type())
				for it2 := m.MapRange(); it2.Next(); {
					if !sameValue(it2.Key(), it.Key()) {
						smaller.SetMapIndex(it2.Key(), it2.Value())
					}
				}
				w.FieldByName(f).Set(smaller)
				if l := encLen(w.Interface()); l > full {
					t.Fatalf("dropping %s[%v] lengthens the encoding from %d to %d bytes", f, it.Key(), full, l)
				}
			}
		}
	}
}

// TestStructured_Exhaustive decodes every input of up to two bytes (and
// every three-byte input for a few types), and checks the round trip.
func TestStructured_Exhaustive(t *testing.T) {
	t.Parallel()
	types := []reflect.Type{reflect.TypeFor[int16](), reflect.TypeFor[uint32](), reflect.TypeFor[int64](), reflect.TypeFor[float32](),
		reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[[]sZero](), reflect.TypeFor[*int8](), reflect.TypeFor[sSmall]()}
	for _, typ := range types {
		seen := map[string]bool{}
		for x := range 1 << 16 {
			for _, data := range [][]byte{{byte(x)}, {byte(x), byte(x >> 8)}} {
				enc := checkRoundTrip(t, Decode(data, typ))
				seen[string(enc)] = true
			}
		}
		t.Logf("%v: %d distinct values from the inputs of up to two bytes", typ, len(seen))
	}
	// Every int16 and uint16 round trips.
	for i := math.MinInt16; i <= math.MaxInt16; i++ {
		checkRoundTrip(t, reflect.ValueOf(int16(i)))
		checkRoundTrip(t, reflect.ValueOf(uint16(i)))
	}
}

// TestStructured_Concurrent builds codecs from many goroutines at once (run
// with -race).
func TestStructured_Concurrent(t *testing.T) {
	t.Parallel()
	type Fresh struct {
		A []map[string]*Fresh
		B [2]float32
	}
	done := make(chan bool)
	for range 8 {
		go func() {
			defer func() { done <- true }()
			v := Decode([]byte{1, 1, 1, 0x61, 1, 1, 1, 0x62, 0xe8}, reflect.TypeFor[Fresh]())
			if _, err := Encode(v); err != nil {
				t.Error(err)
			}
		}()
	}
	for range 8 {
		<-done
	}
}

// benchValue is the value of the codec benchmarks: a struct of ten fields of
// mixed types and a slice of 100 small structs.
type benchItem struct {
	ID    uint32
	Name  string
	Score float64
	OK    bool
}

type benchConfig struct {
	Name    string
	Count   int
	Level   int8
	Port    uint16
	Seed    int64
	Ratio   float32
	Scale   float64
	Enabled bool
	Key     []byte
	Limit   *int
	Items   []benchItem
}

func benchValue() benchConfig {
	limit := 1 << 20
	c := benchConfig{Name: "fuzzmin", Count: 42, Level: -3, Port: 8080, Seed: -1 << 40, Ratio: 0.75, Scale: math.Pi,
		Enabled: true, Key: []byte("0123456789abcdef"), Limit: &limit}
	for i := range 100 {
		c.Items = append(c.Items, benchItem{ID: uint32(i * 977), Name: fmt.Sprint("item", i), Score: float64(i) / 4, OK: i%3 == 0})
	}
	return c
}

func BenchmarkStructuredDecode(b *testing.B) {
	v := benchValue()
	data, err := Encode(reflect.ValueOf(v))
	if err != nil {
		b.Fatal(err)
	}
	typ := reflect.TypeFor[benchConfig]()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		Decode(data, typ)
	}
}

func BenchmarkStructuredEncode(b *testing.B) {
	v := reflect.ValueOf(benchValue())
	b.ReportAllocs()
	var n int
	for b.Loop() {
		data, err := Encode(v)
		if err != nil {
			b.Fatal(err)
		}
		n = len(data)
	}
	b.SetBytes(int64(n))
}
