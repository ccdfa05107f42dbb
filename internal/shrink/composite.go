package shrink

import (
	"iter"
	"reflect"
	"slices"
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
					at = pathTo(ns, i)
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
		cur := Native(n.v)
		seq := arg(cur, from)
		if seq == nil {
			return nil
		}
		t := n.v.Type()
		custom := isCustom(t)
		return func(yield func(pos, reflect.Value) bool) {
			for p, c := range seq {
				v := FromNative(c, t)
				if custom && compareValue(Native(v), cur) >= 0 {
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
// maps, with the block sizes and offsets of [blocks], as [removeBlocks] does for
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
		keys := SortedKeys(v)
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

// sortNode sorts the elements of a slice or array, or the values of a map
// in the order of its keys, from simplest to most complex (Hypothesis's
// reorder_examples), when that makes the value smaller: the result is then
// the same whatever order the failure had its parts in. Elements of equal
// shape sorted are always smaller; others are proposed only if they are.
func sortNode(n node, _ pos) iter.Seq2[pos, reflect.Value] {
	v := n.v
	if n.leaf || (v.Kind() != reflect.Slice && v.Kind() != reflect.Array && v.Kind() != reflect.Map) || v.Len() < 2 {
		return nil
	}
	var c reflect.Value
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		elems := make([]reflect.Value, v.Len())
		for i := range elems {
			elems[i] = v.Index(i)
		}
		slices.SortStableFunc(elems, compareNodes)
		c = reflect.New(v.Type()).Elem()
		if v.Kind() == reflect.Slice {
			c.Set(reflect.MakeSlice(v.Type(), v.Len(), v.Len()))
		}
		for i, e := range elems {
			c.Index(i).Set(deepCopy(e))
		}
	case reflect.Map:
		keys := SortedKeys(v)
		vals := make([]reflect.Value, len(keys))
		for i, k := range keys {
			vals[i] = v.MapIndex(k)
			if !vals[i].IsValid() {
				return nil // a NaN key
			}
		}
		slices.SortStableFunc(vals, compareNodes)
		c = reflect.MakeMapWithSize(v.Type(), len(keys))
		for i, k := range keys {
			c.SetMapIndex(deepCopy(k), deepCopy(vals[i]))
		}
	default:
		return nil
	}
	if compareNodes(c, v) >= 0 {
		return nil
	}
	return func(yield func(pos, reflect.Value) bool) { yield(pos{}, c) }
}
