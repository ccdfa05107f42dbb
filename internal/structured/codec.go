package structured

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
)

// This file is the structured codec: it carries a Go value of a composite
// type (a struct, a slice, a map, ...) as one []byte fuzz argument, so that
// the fuzzer mutates bytes while the target receives a typed value.
//
// The format has no names and no type information: both ends know the Go
// type, and a value is the concatenation of its parts, depth first, in the
// order Go declares them. Its design follows from what a fuzzer needs:
//
//   - Every byte string is a valid encoding. The fuzzer mutates blindly, and
//     an input that a decoder rejects is a wasted execution. Reading past the
//     end of the data yields zero bytes, so a short input decodes to a value
//     whose rest is zero, and trailing garbage is ignored.
//
//   - A zero byte always decodes to the zero value of the part being read,
//     exactly as the end of the data does. So the zero value of every type
//     encodes to no bytes, and Encode trims trailing zeros (all but those a
//     slice, map or string needs to find its last element in the data): an
//     encoding shrinks where the value does.
//
//   - Every part is self-delimiting: its first byte says how many bytes
//     follow (or its type fixes the size), so struct fields stay aligned when
//     a mutation grows or shrinks one of them.
//
//   - A length read from the data is capped by the bytes left after it, a
//     slice or map ends when the data does, and every element consumes at
//     least one byte. A few bytes can therefore never ask for gigabytes: the
//     number of elements, and the nesting depth of recursive types, is at
//     most len(data), and decoding time is linear in it.
//
//   - Random bytes favour small and boundary values, which find most bugs:
//     7/8 of all first bytes of an integer are small integers, 3/32 are
//     boundary values (min, max, powers of two).
//
//   - Encode is canonical and its length orders values the way a shrinker
//     does: the shorter encoding is the simpler value (a smaller magnitude,
//     fewer elements, fewer significant bits of a float). Many byte strings
//     decode to the same value (boundary tags, non-minimal widths, junk bits),
//     but Encode produces exactly one of them, never a boundary tag, so that
//     its length grows with the magnitude.
//
// Part by part (the scalar tags are described in structured_scalar.go):
//
//	bool            one byte; its low bit is the value (so that half of all
//	                random bytes are true).
//	int8, uint8     one byte, two's complement: all values are equally long.
//	other integers  a tagged varint of the zigzag value (signed) or the
//	                value (unsigned): 0x00-0xDF small, 0xE0-0xE7 k bytes
//	                follow, 0xE8-0xFF boundary values.
//	float32/64      0x00-0xDF small integers, 0xE0-0xE7 the k high-order
//	                bytes of the IEEE bits follow, 0xE8-0xFF special values
//	                (±0, ±Inf, NaNs, extremes).
//	string, []byte  a length, then that many bytes.
//	slice           a length, then the elements; an element whose encoding
//	                is empty (that of a type such as [0]T or struct{ A [0]T })
//	                takes one zero byte, so that every element costs a byte.
//	                An empty slice decodes as nil.
//	array           the elements, without a length.
//	map             a length, then key, value, key, value; Encode sorts the
//	                entries by their encodings. Keys that are equal after
//	                decoding are merged (the later entry wins). An empty map
//	                decodes as nil.
//	pointer         one byte whose low bit says non-nil, then the pointee.
//	struct          the exported fields in declaration order; unexported
//	                fields are skipped and decode as zero.
//
// A length is an unsigned 64-bit integer as above, capped by the number of
// bytes left after it. Named types are encoded like their underlying types.
//
// Pointers, slices and maps nest at most maxDepth deep: beyond it they decode
// as nil without reading, and Encode fails. Without the limit a recursive
// type could nest as deep as the input is long, and a megabyte of input would
// cost hundreds of megabytes of goroutine stack.
//
// Pointer aliasing is not preserved (each pointer encodes its pointee), and a
// cycle is an error from Encode.

// maxDepth bounds the nesting of pointers, slices and maps, as encoding/json
// bounds the nesting of its decoder (10000, in both).
const maxDepth = 10000

// cycleDepth is the depth beyond which Encode starts to remember the pointers,
// slices and maps it is inside of, to report cycles. Values that nest less
// deeply pay nothing; a cycle always nests deeper (as in encoding/json).
const cycleDepth = 100

// CheckType reports whether values of t can be decoded and encoded: bool, all
// int/uint/float kinds, string, and composites built from them: structs
// (exported fields only; unexported fields are left zero and skipped; a struct
// with no exported fields is an error), slices, arrays, maps (keys of any
// supported comparable type), pointers, named types of any of these.
//
// func, chan, interface, unsafe.Pointer, complex and uintptr are errors naming
// the path to them, as in
//
//	Config.Items[].Handler: unsupported type func()
//
// where "[]" is an element of a slice or array, "[key]" and "[value]" a key
// and a value of a map, and pointers are implicit as in Go selectors. A root
// type without a name is written in parentheses: ([]func())[].
//
// Recursive types through pointers, slices or maps (type Node struct{ Kids
// []*Node }) are supported: decoding bounds their depth by the remaining
// input. (Go rejects every other recursion at compile time.) Results are
// cached per type and cheap to get again.
func CheckType(t reflect.Type) error {
	_, err := codecFor(t)
	return err
}

// Decode decodes data into a new value of type t. It is total: every byte
// string decodes to a valid value, and when data runs out the rest of the value
// is zero. It is deterministic. It panics only if CheckType(t) fails.
func Decode(data []byte, t reflect.Type) reflect.Value {
	c, err := codecFor(t)
	if err != nil {
		panic("structured.Decode: " + err.Error())
	}
	v := reflect.New(t).Elem()
	d := &decoder{data: data, budget: len(data)}
	c.dec(d, v)
	return v
}

// Encode is the canonical inverse of Decode: Decode(Encode(v), v.Type()) is
// equal to v (bit for bit for floats, NaN payloads and -0 included), and equal
// values have equal encodings. The exceptions: an empty slice or map decodes
// as nil, unexported struct fields decode as zero, and pointer aliasing is not
// preserved. A cycle, or nesting deeper than 10000 pointers, slices and maps,
// is an error.
//
// Shorter encodings are simpler values: the zero value encodes to no bytes, a
// smaller integer never encodes longer than a larger one of the same sign, and
// fewer elements never encode longer than more.
func Encode(v reflect.Value) ([]byte, error) {
	if !v.IsValid() {
		return nil, errors.New("structured.Encode: invalid reflect.Value")
	}
	if !v.CanInterface() {
		return nil, errors.New("structured.Encode: value obtained using an unexported field")
	}
	c, err := codecFor(v.Type())
	if err != nil {
		return nil, err
	}
	e := encoderPool.Get().(*encoder)
	defer e.release()
	c.enc(e, v)
	if e.err != nil {
		return nil, e.err
	}
	// Trim the trailing zeros, which decode like the end of the data, but
	// not below minLen, the first byte of the last element of a slice or map
	// (or the last byte of a string): those ends tell where the data runs
	// out.
	n := len(e.buf)
	for n > e.minLen && e.buf[n-1] == 0 {
		n--
	}
	out := make([]byte, n)
	copy(out, e.buf)
	return out, nil
}

// A custom type encodes itself: its values implement FuzzMarshaler and
// pointers to them FuzzUnmarshaler. fuzzshrink documents the contract as
// its Custom interface.
type (
	FuzzMarshaler   interface{ MarshalFuzz() []byte }
	FuzzUnmarshaler interface{ UnmarshalFuzz(data []byte) }
)

var (
	marshalerType   = reflect.TypeFor[FuzzMarshaler]()
	unmarshalerType = reflect.TypeFor[FuzzUnmarshaler]()
)

// IsCustom reports whether values of t encode themselves.
func IsCustom(t reflect.Type) bool {
	return t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		t.Implements(marshalerType) && reflect.PointerTo(t).Implements(unmarshalerType)
}

// MarshalCustom returns the encoding of a value of a custom type.
func MarshalCustom(v reflect.Value) []byte { return v.Interface().(FuzzMarshaler).MarshalFuzz() }

// UnmarshalCustom returns a new value of custom type t decoded from data.
func UnmarshalCustom(data []byte, t reflect.Type) reflect.Value {
	p := reflect.New(t)
	if len(data) > 0 {
		p.Interface().(FuzzUnmarshaler).UnmarshalFuzz(data)
	}
	return p.Elem()
}

// customCodec carries a custom value as a length and the bytes of its
// MarshalFuzz, which UnmarshalFuzz decodes; no bytes are the zero value,
// whose MarshalFuzz should be empty.
func customCodec(c *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		n := d.length()
		if n == 0 {
			return
		}
		data := bytes.Clone(d.data[d.pos : d.pos+n])
		d.pos += n
		v.Addr().Interface().(FuzzUnmarshaler).UnmarshalFuzz(data)
	}
	c.enc = func(e *encoder, v reflect.Value) {
		b := MarshalCustom(v)
		e.uvarint(uint64(len(b)))
		if len(b) > 0 {
			e.buf = append(e.buf, b...)
			e.minLen = max(e.minLen, len(e.buf)) // the length is capped by the bytes left
		}
	}
}

// A codec decodes and encodes the values of one type. Codecs are built once
// per type by a builder and cached; a recursive type refers to its own codec,
// which is why dec and enc are called through the struct.
type codec struct {
	dec func(d *decoder, v reflect.Value) // v is addressable and zero
	enc func(e *encoder, v reflect.Value)
	// empty is set for the types that encode to no bytes at all: [0]T,
	// arrays of empty types, structs of empty fields. Their codecs do
	// nothing, so that a [1 << 20][0]int does not cost a million steps.
	empty bool
}

// A decoder is the state of one Decode.
type decoder struct {
	data  []byte
	pos   int
	depth int // pointers, slices and maps around the part being read
	// budget is the number of slice and map elements that may still be
	// allocated ahead of decoding them. Elements are decoded only while
	// there is data, one byte at least each, so len(data) is never too
	// small for an honest length, while a nest of lying lengths (every
	// level claiming all that is left) cannot allocate len(data) elements
	// per level: once the budget is spent, slices grow as they are filled.
	budget int
	str    string // string(data), once a string needs it
}

// An encoder is the state of one Encode.
type encoder struct {
	buf    []byte
	minLen int // Encode may not trim buf below this length
	depth  int
	seen   map[seenKey]struct{} // the pointers, slices and maps deeper than cycleDepth we are inside of
	err    error
}

type seenKey struct {
	ptr uintptr
	len int
	typ reflect.Type
}

var encoderPool = sync.Pool{New: func() any { return new(encoder) }}

func (e *encoder) release() {
	if cap(e.buf) > 64<<10 {
		return // do not pin a large buffer
	}
	e.buf, e.minLen, e.depth, e.err = e.buf[:0], 0, 0, nil
	clear(e.seen)
	encoderPool.Put(e)
}

func (d *decoder) eof() bool { return d.pos >= len(d.data) }

// byte returns the next byte, or 0 at the end of the data.
func (d *decoder) byte() byte {
	if d.pos < len(d.data) {
		b := d.data[d.pos]
		d.pos++
		return b
	}
	return 0
}

// length reads a slice, map or string length, capped by the bytes left.
func (d *decoder) length() int {
	n := d.uvarint(8, lengthBoundaries)
	if left := uint64(len(d.data) - d.pos); n > left {
		return int(left)
	}
	return int(n)
}

// alloc takes up to n elements from the budget.
func (d *decoder) alloc(n int) int {
	n = min(n, d.budget)
	d.budget -= n
	return n
}

// enter checks that a non-empty pointer, slice or map may nest at the current
// depth, and from cycleDepth on that it is not inside itself. It returns false
// (having set e.err) if not; otherwise the caller calls leave when done.
func (e *encoder) enter(v reflect.Value) bool {
	if e.err != nil {
		return false
	}
	if e.depth >= maxDepth {
		e.err = fmt.Errorf("structured.Encode: value of type %v nests deeper than %d pointers, slices and maps", v.Type(), maxDepth)
		return false
	}
	if e.depth >= cycleDepth {
		k := seenKey{v.Pointer(), 0, v.Type()}
		if v.Kind() == reflect.Slice {
			k.len = v.Len()
		}
		if _, ok := e.seen[k]; ok {
			e.err = fmt.Errorf("structured.Encode: value of type %v contains itself (a cycle)", v.Type())
			return false
		}
		if e.seen == nil {
			e.seen = make(map[seenKey]struct{})
		}
		e.seen[k] = struct{}{}
	}
	e.depth++
	return true
}

func (e *encoder) leave(v reflect.Value) {
	e.depth--
	if e.depth >= cycleDepth {
		k := seenKey{v.Pointer(), 0, v.Type()}
		if v.Kind() == reflect.Slice {
			k.len = v.Len()
		}
		delete(e.seen, k)
	}
}

// nilPart encodes a nil pointer or an empty slice or map: a zero byte, or
// nothing at all beyond maxDepth, where the decoder reads nothing.
func (e *encoder) nilPart() {
	if e.depth < maxDepth {
		e.buf = append(e.buf, 0)
	}
}

// beginCollection starts the encoding of a slice or map: nothing but the
// nil part if it is empty, else its length, once the encoder has entered
// it. ok says that its elements follow, and the caller leaves it after
// them.
func (e *encoder) beginCollection(v reflect.Value) (n int, ok bool) {
	n = v.Len()
	if n == 0 {
		e.nilPart()
		return 0, false
	}
	if !e.enter(v) {
		return 0, false
	}
	e.uvarint(uint64(n))
	return n, true
}

// element marks the start of a slice or map element: the data must not end
// before it, or the decoder would end the slice or map there.
func (e *encoder) element() int {
	start := len(e.buf)
	e.minLen = max(e.minLen, start+1)
	return start
}

type codecEntry struct {
	c   *codec
	err error
}

var codecs sync.Map // reflect.Type -> codecEntry

func codecFor(t reflect.Type) (*codec, error) {
	if t == nil {
		return nil, errors.New("unsupported type: nil")
	}
	if e, ok := codecs.Load(t); ok {
		return e.(codecEntry).c, e.(codecEntry).err
	}
	root := t.Name()
	if root == "" {
		root = "(" + t.String() + ")"
	}
	b := builder{codecs: make(map[reflect.Type]*codec)}
	c, err := b.build(t, root)
	if err != nil {
		c = nil
	}
	// Two goroutines may build the same type at once; both results are
	// equivalent, and the first one stored wins.
	e, _ := codecs.LoadOrStore(t, codecEntry{c, err})
	return e.(codecEntry).c, e.(codecEntry).err
}

// A builder builds the codec of one root type and of the types inside it.
type builder struct {
	codecs map[reflect.Type]*codec // built or being built
}

func (b *builder) build(t reflect.Type, path string) (*codec, error) {
	if c, ok := b.codecs[t]; ok {
		return c, nil // done, or a recursive reference filled in later
	}
	c := new(codec)
	b.codecs[t] = c
	if IsCustom(t) {
		customCodec(c)
		return c, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		boolCodec(c)
	case reflect.Int8, reflect.Uint8:
		byteCodec(c, t.Kind())
	case reflect.Int, reflect.Int16, reflect.Int32, reflect.Int64:
		intCodec(c, t.Bits())
	case reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		uintCodec(c, t.Bits())
	case reflect.Float32:
		float32Codec(c, t)
	case reflect.Float64:
		float64Codec(c)
	case reflect.String:
		stringCodec(c)
	case reflect.Pointer:
		elem, err := b.build(t.Elem(), path)
		if err != nil {
			return nil, err
		}
		pointerCodec(c, t, elem)
	case reflect.Slice:
		elem, err := b.build(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		if t.Elem().Kind() == reflect.Uint8 {
			bytesCodec(c)
		} else {
			sliceCodec(c, elem)
		}
	case reflect.Array:
		elem, err := b.build(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		switch {
		case t.Len() == 0 || elem.empty:
			emptyCodec(c)
		case t.Elem().Kind() == reflect.Uint8:
			byteArrayCodec(c, t.Len())
		default:
			arrayCodec(c, t.Len(), elem)
		}
	case reflect.Map:
		key, err := b.build(t.Key(), path+"[key]")
		if err != nil {
			return nil, err
		}
		elem, err := b.build(t.Elem(), path+"[value]")
		if err != nil {
			return nil, err
		}
		mapCodec(c, t, key, elem)
	case reflect.Struct:
		var fields []structField
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			fc, err := b.build(f.Type, path+"."+f.Name)
			if err != nil {
				return nil, err
			}
			fields = append(fields, structField{i, fc})
		}
		if len(fields) == 0 {
			return nil, fmt.Errorf("%s: unsupported type %v: struct with no exported fields", path, t)
		}
		// A field's codec is complete here (a struct cannot contain itself
		// but through a pointer, slice or map), so its empty flag is final.
		if !slices.ContainsFunc(fields, func(f structField) bool { return !f.c.empty }) {
			emptyCodec(c)
		} else {
			structCodec(c, fields)
		}
	default: // Func, Chan, Interface, UnsafePointer, Complex64, Complex128, Uintptr
		return nil, fmt.Errorf("%s: unsupported type %v", path, t)
	}
	return c, nil
}

func pointerCodec(c *codec, t reflect.Type, elem *codec) {
	et := t.Elem()
	c.dec = func(d *decoder, v reflect.Value) {
		if d.eof() || d.depth >= maxDepth || d.byte()&1 == 0 {
			return
		}
		p := reflect.New(et)
		d.depth++
		elem.dec(d, p.Elem())
		d.depth--
		v.Set(p)
	}
	c.enc = func(e *encoder, v reflect.Value) {
		if v.IsNil() {
			e.nilPart()
			return
		}
		if !e.enter(v) {
			return
		}
		e.buf = append(e.buf, 1)
		elem.enc(e, v.Elem())
		e.leave(v)
	}
}

func sliceCodec(c *codec, elem *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		if d.eof() || d.depth >= maxDepth {
			return
		}
		n := d.length()
		if n == 0 {
			return
		}
		v.Grow(d.alloc(n))
		d.depth++
		for i := 0; i < n && !d.eof(); i++ {
			if i == v.Cap() {
				v.Grow(1)
			}
			v.SetLen(i + 1)
			start := d.pos
			elem.dec(d, v.Index(i))
			if d.pos == start {
				d.pos++ // a zero-size element takes one byte
			}
		}
		d.depth--
	}
	c.enc = func(e *encoder, v reflect.Value) {
		n, ok := e.beginCollection(v)
		if !ok {
			return
		}
		for i := range n {
			start := e.element()
			elem.enc(e, v.Index(i))
			if len(e.buf) == start {
				e.buf = append(e.buf, 0)
			}
		}
		e.leave(v)
	}
}

// bytesCodec is sliceCodec for byte elements, copying them at once. The
// format is the same: a length, then one byte per element.
func bytesCodec(c *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		if d.eof() || d.depth >= maxDepth {
			return
		}
		n := d.length()
		if n == 0 {
			return
		}
		b := make([]byte, n)
		d.pos += copy(b, d.data[d.pos:])
		v.SetBytes(b)
	}
	c.enc = func(e *encoder, v reflect.Value) {
		n := v.Len()
		if n == 0 {
			e.nilPart()
			return
		}
		if e.depth >= maxDepth {
			e.enter(v) // fails
			return
		}
		e.uvarint(uint64(n))
		e.buf = append(e.buf, v.Bytes()...)
		e.minLen = max(e.minLen, len(e.buf))
	}
}

func emptyCodec(c *codec) {
	c.empty = true
	c.dec = func(*decoder, reflect.Value) {}
	c.enc = func(*encoder, reflect.Value) {}
}

func arrayCodec(c *codec, n int, elem *codec) {
	c.dec = func(d *decoder, v reflect.Value) {
		for i := 0; i < n && !d.eof(); i++ {
			elem.dec(d, v.Index(i))
		}
	}
	c.enc = func(e *encoder, v reflect.Value) {
		for i := range n {
			elem.enc(e, v.Index(i))
		}
	}
}

// byteArrayCodec is arrayCodec for byte elements, copying them at once.
func byteArrayCodec(c *codec, n int) {
	c.dec = func(d *decoder, v reflect.Value) {
		d.pos += copy(v.Bytes(), d.data[d.pos:])
	}
	c.enc = func(e *encoder, v reflect.Value) {
		if v.CanAddr() {
			e.buf = append(e.buf, v.Bytes()...)
			return
		}
		for i := range n {
			e.buf = append(e.buf, byte(v.Index(i).Uint()))
		}
	}
}

func mapCodec(c *codec, t reflect.Type, key, elem *codec) {
	kt, et := t.Key(), t.Elem()
	c.dec = func(d *decoder, v reflect.Value) {
		if d.eof() || d.depth >= maxDepth {
			return
		}
		n := d.length()
		if n == 0 {
			return
		}
		m := reflect.MakeMapWithSize(t, d.alloc(n))
		k, x := reflect.New(kt).Elem(), reflect.New(et).Elem()
		d.depth++
		for i := 0; i < n && !d.eof(); i++ {
			if i > 0 {
				k.SetZero()
				x.SetZero()
			}
			start := d.pos
			key.dec(d, k)
			elem.dec(d, x)
			if d.pos == start {
				d.pos++
			}
			m.SetMapIndex(k, x)
		}
		d.depth--
		v.Set(m)
	}
	c.enc = func(e *encoder, v reflect.Value) {
		n, ok := e.beginCollection(v)
		if !ok {
			return
		}
		// Encode the entries one after the other, then sort them by their
		// encodings, so that equal maps encode alike whatever their
		// iteration order. minLen is kept per entry, relative to its start,
		// and applied once the entries have moved.
		base, outerMin := len(e.buf), e.minLen
		ents := make([]mapEntry, 0, n)
		k, x := reflect.New(kt).Elem(), reflect.New(et).Elem()
		it := v.MapRange()
		for it.Next() {
			k.SetIterKey(it)
			x.SetIterValue(it)
			start := len(e.buf)
			e.minLen = start + 1
			key.enc(e, k)
			elem.enc(e, x)
			if len(e.buf) == start {
				e.buf = append(e.buf, 0)
			}
			ents = append(ents, mapEntry{start, len(e.buf), e.minLen - start})
		}
		region := e.buf[base:]
		slices.SortFunc(ents, func(a, b mapEntry) int {
			return bytes.Compare(region[a.start-base:a.end-base], region[b.start-base:b.end-base])
		})
		sorted := make([]byte, 0, len(region))
		e.minLen = outerMin
		for _, ent := range ents {
			e.minLen = max(e.minLen, base+len(sorted)+ent.minLen)
			sorted = append(sorted, region[ent.start-base:ent.end-base]...)
		}
		copy(region, sorted)
		e.leave(v)
	}
}

type mapEntry struct {
	start, end int
	minLen     int // relative to start
}

type structField struct {
	index int
	c     *codec
}

func structCodec(c *codec, fields []structField) {
	c.dec = func(d *decoder, v reflect.Value) {
		for _, f := range fields {
			if d.eof() {
				return
			}
			f.c.dec(d, v.Field(f.index))
		}
	}
	c.enc = func(e *encoder, v reflect.Value) {
		for _, f := range fields {
			f.c.enc(e, v.Field(f.index))
		}
	}
}
