package fuzzshrink

import (
	"cmp"
	"iter"
	"reflect"
	"slices"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// Composite arguments (structs, slices, arrays, maps, pointers, and named
// types, built from the native types) are shrunk structurally. Every pass
// walks the value's nodes in preorder: the value itself, then for a struct
// its exported fields in order, for a slice or array its elements, for a
// pointer its pointee, for a map its entries in key order, key before value.
// The remove and zero passes work on the nodes themselves; the other passes
// apply the native shrinkers to the leaves (bools, numbers, strings, []byte),
// converting named types to their native type and back. A cursor's node
// field is the preorder index of the node a candidate changed.
//
// The order of composite values: first their weight, the number of nodes
// plus the bytes of their strings and []byte leaves (removing an element,
// setting a pointer to nil or a field to its zero value makes it smaller),
// then their leaves in preorder compared as native values (lowering a leaf,
// or a map key, makes it smaller: keys are visited in order, so a lower key
// moves no later). A nil and an empty slice or map are equal.

// composite reports whether v is an argument that is shrunk structurally.
func composite(v any) bool { return v != nil && !supported(v) }

// A node is one value inside a composite argument. Nodes are listed in
// preorder, each with the index of its parent and the step from there, so
// that the path to a node is built only for the nodes a candidate changes.
type node struct {
	v      reflect.Value
	parent int  // -1 for the root
	step   step // from the parent to the node
	leaf   bool // a bool, number, string or []byte: the native passes apply
}

// path returns the steps from the root to node i of ns.
func path(ns []node, i int) []step {
	var p []step
	for ; ns[i].parent >= 0; i = ns[i].parent {
		p = append(p, ns[i].step)
	}
	slices.Reverse(p)
	return p
}

// A step goes from a value to one of its parts.
type step struct {
	kind stepKind
	i    int           // field or element index
	key  reflect.Value // map key
}

type stepKind uint8

const (
	stepField stepKind = iota
	stepElem
	stepDeref
	stepMapKey
	stepMapValue
)

var bytesType = reflect.TypeFor[[]byte]()

// isLeaf reports whether values of t are shrunk by the native shrinkers:
// bools, numbers, strings, []byte, and custom types (see [Custom]), which
// shrink through their encoding.
func isLeaf(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Slice:
		if t.Elem() == bytesType.Elem() {
			return true
		}
	}
	return isCustom(t)
}

// customTypes caches structured.IsCustom, which nodes asks of every node.
var customTypes sync.Map // reflect.Type → bool

func isCustom(t reflect.Type) bool {
	if c, ok := customTypes.Load(t); ok {
		return c.(bool)
	}
	c := structured.IsCustom(t)
	customTypes.Store(t, c)
	return c
}

// nativeType is the native fuzz type a leaf of type t converts to.
func nativeType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Slice || isCustom(t) {
		return bytesType
	}
	return basicTypes[t.Kind()]
}

var basicTypes = map[reflect.Kind]reflect.Type{
	reflect.Bool: reflect.TypeFor[bool](), reflect.String: reflect.TypeFor[string](),
	reflect.Int: reflect.TypeFor[int](), reflect.Int8: reflect.TypeFor[int8](),
	reflect.Int16: reflect.TypeFor[int16](), reflect.Int32: reflect.TypeFor[int32](),
	reflect.Int64: reflect.TypeFor[int64](), reflect.Uint: reflect.TypeFor[uint](),
	reflect.Uint8: reflect.TypeFor[uint8](), reflect.Uint16: reflect.TypeFor[uint16](),
	reflect.Uint32: reflect.TypeFor[uint32](), reflect.Uint64: reflect.TypeFor[uint64](),
	reflect.Float32: reflect.TypeFor[float32](), reflect.Float64: reflect.TypeFor[float64](),
}

// nodes returns the nodes of v in preorder.
func nodes(v reflect.Value) []node {
	var out []node
	var walk func(v reflect.Value, parent int, s step)
	walk = func(v reflect.Value, parent int, s step) {
		leaf := isLeaf(v.Type())
		me := len(out)
		out = append(out, node{v: v, parent: parent, step: s, leaf: leaf})
		if leaf {
			return
		}
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), me, step{kind: stepField, i: i})
				}
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), me, step{kind: stepElem, i: i})
			}
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem(), me, step{kind: stepDeref})
			}
		case reflect.Map:
			for _, k := range sortedKeys(v) {
				walk(k, me, step{kind: stepMapKey, key: k})
				walk(v.MapIndex(k), me, step{kind: stepMapValue, key: k})
			}
		}
	}
	walk(v, -1, step{})
	return out
}

// sortedKeys returns the keys of map m from simplest to most complex.
func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	slices.SortFunc(keys, compareNodes)
	return keys
}

// weight is what removal decreases: nodes plus the bytes of strings,
// []byte and the encodings of custom values.
func weight(v reflect.Value) int {
	w := 0
	for _, n := range nodes(v) {
		w++
		if !n.leaf {
			continue
		}
		switch x := native(n.v).(type) {
		case string:
			w += len(x)
		case []byte:
			w += len(x)
		}
	}
	return w
}

// compareNodes orders values of one composite type: by weight, then
// lexicographically by their nodes in preorder, a node by its kind and a
// leaf then by its native value.
func compareNodes(a, b reflect.Value) int {
	if c := cmp.Compare(weight(a), weight(b)); c != 0 {
		return c
	}
	na, nb := nodes(a), nodes(b)
	for i := range min(len(na), len(nb)) {
		if c := cmp.Compare(na[i].v.Kind(), nb[i].v.Kind()); c != 0 {
			return c
		}
		if na[i].leaf {
			if c := compareValue(native(na[i].v), native(nb[i].v)); c != 0 {
				return c
			}
		}
	}
	return cmp.Compare(len(na), len(nb))
}

func compareComposite(a, b any) int {
	return compareNodes(reflect.ValueOf(a), reflect.ValueOf(b))
}

// native converts a leaf to its native fuzz type: a custom value to its
// encoding.
func native(v reflect.Value) any {
	if isCustom(v.Type()) {
		return structured.MarshalCustom(v)
	}
	return v.Convert(nativeType(v.Type())).Interface()
}

// fromNative converts a native fuzz value to a leaf of type t.
func fromNative(x any, t reflect.Type) reflect.Value {
	if isCustom(t) {
		return structured.UnmarshalCustom(x.([]byte), t)
	}
	return reflect.ValueOf(x).Convert(t)
}

// isZero reports whether v is its type's zero value, a nil and an empty slice
// or map counting alike.
func isZero(v reflect.Value) bool {
	if (v.Kind() == reflect.Slice || v.Kind() == reflect.Map) && v.Len() == 0 {
		return true
	}
	return v.IsZero()
}

// replaced returns a deep copy of root with the node at path set to nv, or
// false if that is impossible (a new map key that collides with another).
func replaced(root reflect.Value, path []step, nv reflect.Value) (any, bool) {
	c := deepCopy(root)
	if !setAt(c, path, nv) {
		return nil, false
	}
	return c.Interface(), true
}

// setAt sets the node of addressable v at path to nv.
func setAt(v reflect.Value, path []step, nv reflect.Value) bool {
	if len(path) == 0 {
		v.Set(nv)
		return true
	}
	s, rest := path[0], path[1:]
	switch s.kind {
	case stepField:
		return setAt(v.Field(s.i), rest, nv)
	case stepElem:
		return setAt(v.Index(s.i), rest, nv)
	case stepDeref:
		return setAt(v.Elem(), rest, nv)
	case stepMapValue:
		old := v.MapIndex(s.key)
		if !old.IsValid() { // a NaN key cannot be looked up
			return false
		}
		val := reflect.New(old.Type()).Elem()
		val.Set(old)
		if !setAt(val, rest, nv) {
			return false
		}
		v.SetMapIndex(s.key, val)
		return true
	case stepMapKey:
		val := v.MapIndex(s.key)
		if !val.IsValid() {
			return false
		}
		k := reflect.New(s.key.Type()).Elem()
		k.Set(deepCopy(s.key))
		if !setAt(k, rest, nv) || v.MapIndex(k).IsValid() {
			return false // no collisions: the map would lose an entry
		}
		v.SetMapIndex(s.key, reflect.Value{})
		v.SetMapIndex(k, val)
		return true
	}
	return false
}

// deepCopy returns an addressable copy of v that shares no memory with it
// (exported parts; unexported fields are copied shallowly).
func deepCopy(v reflect.Value) reflect.Value {
	if isCustom(v.Type()) {
		return structured.UnmarshalCustom(structured.MarshalCustom(v), v.Type())
	}
	c := reflect.New(v.Type()).Elem()
	switch v.Kind() {
	case reflect.Struct:
		c.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				c.Field(i).Set(deepCopy(v.Field(i)))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			break
		}
		c.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
		if flat(v.Type().Elem()) {
			reflect.Copy(c, v)
			break
		}
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
	case reflect.Array:
		if flat(v.Type().Elem()) {
			c.Set(v)
			break
		}
		for i := range v.Len() {
			c.Index(i).Set(deepCopy(v.Index(i)))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			p := reflect.New(v.Type().Elem())
			p.Elem().Set(deepCopy(v.Elem()))
			c.Set(p)
		}
	case reflect.Map:
		if v.IsNil() {
			break
		}
		c.Set(reflect.MakeMapWithSize(v.Type(), v.Len()))
		iter := v.MapRange()
		for iter.Next() {
			c.SetMapIndex(deepCopy(iter.Key()), deepCopy(iter.Value()))
		}
	default:
		c.Set(v)
	}
	return c
}

// flat reports whether values of t share no mutable memory, so that a copy
// of the value is a deep copy: scalars and strings (which are immutable).
func flat(t reflect.Type) bool {
	return isLeaf(t) && t.Kind() != reflect.Slice && !isCustom(t)
}

// structural yields, for every node of composite v from the cursor's node
// on, the candidates that shrink proposes for the node, as whole values.
func structural(v any, from pos, shrink func(n node, from pos) iter.Seq2[pos, reflect.Value]) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		root := reflect.ValueOf(v)
		ns := nodes(root)
		for i := from.node; i < len(ns); i++ {
			start := pos{}
			if i == from.node {
				start = from
			}
			seq := shrink(ns[i], start)
			if seq == nil {
				continue
			}
			var at []step
			for p, nv := range seq {
				if at == nil {
					at = path(ns, i)
				}
				c, ok := replaced(root, at, nv)
				if !ok {
					continue
				}
				p.node = i
				if !yield(p, c) {
					return
				}
			}
		}
	}
}

// leaves lifts a native shrinker to the leaves of composite values. A
// custom value shrinks through its encoding: a candidate encoding is
// decoded, and kept only if the value re-encodes to something smaller than
// the current encoding, so that a type whose decoding does not invert its
// encoding cannot make the search cycle.
func leaves(arg func(any, pos) iter.Seq2[pos, any]) func(n node, from pos) iter.Seq2[pos, reflect.Value] {
	return func(n node, from pos) iter.Seq2[pos, reflect.Value] {
		if !n.leaf {
			return nil
		}
		cur := native(n.v)
		seq := arg(cur, from)
		if seq == nil {
			return nil
		}
		t := n.v.Type()
		custom := isCustom(t)
		return func(yield func(pos, reflect.Value) bool) {
			for p, c := range seq {
				v := fromNative(c, t)
				if custom && compareValue(native(v), cur) >= 0 {
					continue
				}
				if !yield(p, v) {
					return
				}
			}
		}
	}
}

// zeroNode proposes the zero value of a node that is not zero: the whole
// argument first, then each field, element, pointer and map value in turn,
// so that what does not matter vanishes before anything inside is shrunk.
func zeroNode(n node, from pos) iter.Seq2[pos, reflect.Value] {
	if isZero(n.v) || n.step.kind == stepMapKey && n.parent >= 0 {
		return nil
	}
	return func(yield func(pos, reflect.Value) bool) {
		yield(pos{}, reflect.Zero(n.v.Type()))
	}
}

// removeNode removes blocks of elements from slices and of entries from
// maps, with halving sizes at aligned offsets as [removeBlocks] does for
// bytes; strings and []byte are leaves, shrunk by the native remove pass.
func removeNode(n node, from pos) iter.Seq2[pos, reflect.Value] {
	if n.leaf {
		return leaves(removeArg)(n, from)
	}
	v := n.v
	switch {
	case v.Kind() == reflect.Slice && v.Len() > 0:
		return func(yield func(pos, reflect.Value) bool) {
			for p, block := range blocks(v.Len(), from) {
				c := reflect.Zero(v.Type()) // nil when all is removed
				if n := v.Len() - (block[1] - block[0]); n > 0 {
					c = reflect.MakeSlice(v.Type(), 0, n)
					c = reflect.AppendSlice(c, v.Slice(0, block[0]))
					c = reflect.AppendSlice(c, v.Slice(block[1], v.Len()))
				}
				if !yield(p, c) {
					return
				}
			}
		}
	case v.Kind() == reflect.Map && v.Len() > 0:
		keys := sortedKeys(v)
		return func(yield func(pos, reflect.Value) bool) {
			for p, block := range blocks(len(keys), from) {
				c := reflect.Zero(v.Type()) // nil when all is removed
				if block[1]-block[0] < len(keys) {
					c = reflect.MakeMapWithSize(v.Type(), len(keys))
				}
				for i, k := range keys {
					if (i < block[0] || i >= block[1]) && !c.IsNil() {
						c.SetMapIndex(k, v.MapIndex(k))
					}
				}
				if !yield(p, c) {
					return
				}
			}
		}
	}
	return nil
}

// blocks yields the [start, end) blocks that removal tries on n elements:
// sizes n, n/2, …, 1, each at offsets 0, size, 2·size, …; the cursor is
// (pos.i, pos.j) = (size, offset), as in [removeBlocks].
func blocks(n int, from pos) iter.Seq2[pos, [2]int] {
	return func(yield func(pos, [2]int) bool) {
		size, off := from.i, from.j
		if size == 0 {
			size, off = n, 0
		}
		size = min(size, n)
		for ; size > 0; size, off = size/2, 0 {
			for ; off < n; off += size {
				if !yield(pos{i: size, j: off}, [2]int{off, min(off+size, n)}) {
					return
				}
			}
		}
	}
}
