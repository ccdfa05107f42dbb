package shrink

import (
	"reflect"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// A node is one value inside a composite argument. Nodes are listed in
// preorder, each with the index of its parent and the step from there, so
// that the path to a node is built only for the nodes a candidate changes.
type node struct {
	v      reflect.Value
	parent int  // -1 for the root
	step   step // from the parent to the node
	leaf   bool // a bool, number, string or []byte: the native passes apply
}

// pathTo returns the steps from the root to node i of ns.
func pathTo(ns []node, i int) []step {
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

// nodes returns the nodes of v in preorder.
func nodes(v reflect.Value) []node {
	var out []node
	var walk func(v reflect.Value, parent int, s step)
	walk = func(v reflect.Value, parent int, s step) {
		leaf := IsLeaf(v.Type())
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
			for _, k := range SortedKeys(v) {
				walk(k, me, step{kind: stepMapKey, key: k})
				walk(v.MapIndex(k), me, step{kind: stepMapValue, key: k})
			}
		}
	}
	walk(v, -1, step{})
	return out
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
	return IsLeaf(t) && t.Kind() != reflect.Slice && !isCustom(t)
}
