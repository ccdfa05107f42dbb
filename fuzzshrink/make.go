package fuzzshrink

import (
	"fmt"
	"math"
	"reflect"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// Make returns a generator of values of type V derived from the type, as
// [Fuzz] derives values from the arguments of a fuzz function: numbers,
// bools and strings from the primitives of their kind (Int8 for int8, …,
// String for strings), structs field by field (exported fields; the others
// stay zero), slices, arrays and maps element by element, pointers nil or
// not, and types that implement [Custom] from bytes through UnmarshalFuzz.
// Pointers, slices and maps nested more than 8 deep are nil, so recursive
// types are finite. It panics for a type Fuzz rejects (func, chan,
// interface, complex, unsafe.Pointer, a struct with no exported fields).
func Make[V any]() *Gen[V] {
	t := reflect.TypeFor[V]()
	if err := structured.CheckType(t); err != nil {
		panic(fmt.Sprintf("fuzzshrink.Make[%v]: %v", t, err))
	}
	m := makerFor(t, map[reflect.Type]*maker{})
	return newGen(fmt.Sprintf("Make[%v]()", t),
		func(tt *T) V { return m.value(tt, 0).Interface().(V) },
		func(tt *T, v V) error { return m.forceValue(tt, reflect.ValueOf(&v).Elem(), 0) })
}

// maxMakeDepth is how deep Make nests pointers, slices and maps.
const maxMakeDepth = 8

// A maker draws and forces values of one type.
type maker struct {
	t     reflect.Type
	info  *shrink.Drawer // the spans of its values: one identity per type, so that a tree's subtrees are its descendants
	elem  *shrink.Drawer // the spans of its elements, for slices and maps
	draw  func(t *T, depth int) reflect.Value
	force func(t *T, v reflect.Value, depth int) error
}

// value draws a value in a span of the maker's type.
func (m *maker) value(t *T, depth int) reflect.Value {
	if !t.recording {
		return m.draw(t, depth)
	}
	i := t.begin(m.info, "")
	v := m.draw(t, depth)
	t.end(i)
	return v
}

func (m *maker) forceValue(t *T, v reflect.Value, depth int) error { return m.force(t, v, depth) }

func makerFor(t reflect.Type, seen map[reflect.Type]*maker) *maker {
	if m := seen[t]; m != nil {
		return m
	}
	m := &maker{t: t, info: &shrink.Drawer{Name: "Make[" + t.String() + "]()"}}
	seen[t] = m
	switch k := t.Kind(); {
	case structured.IsCustom(t):
		bs := Bytes()
		m.draw = func(tt *T, _ int) reflect.Value { return structured.UnmarshalCustom(bs.value(tt), t) }
		m.force = func(tt *T, v reflect.Value, _ int) error { return bs.force(tt, structured.MarshalCustom(v)) }
	case k == reflect.Array:
		m.array(makerFor(t.Elem(), seen))
	case k == reflect.Struct:
		m.structure(seen)
	case k == reflect.Pointer:
		m.pointer(makerFor(t.Elem(), seen))
	case k == reflect.Slice:
		m.slice(makerFor(t.Elem(), seen))
	case k == reflect.Map:
		m.mapOf(makerFor(t.Key(), seen), makerFor(t.Elem(), seen))
	default:
		m.scalar()
	}
	return m
}

func (m *maker) zero() reflect.Value { return reflect.New(m.t).Elem() }

// scalar makes m draw bools, numbers and strings with the primitives.
func (m *maker) scalar() {
	switch k := m.t.Kind(); {
	case k == reflect.Bool:
		m.draw = func(tt *T, _ int) reflect.Value {
			v := m.zero()
			v.SetBool(tt.drawBool(0.5))
			return v
		}
		m.force = func(tt *T, v reflect.Value, _ int) error {
			tt.putRank(shrink.BoolInterval, boolRank(v.Bool()))
			return nil
		}
	case reflect.Int <= k && k <= reflect.Int64:
		bits := m.t.Bits()
		r := shrink.SignedInterval(-1<<(bits-1), 1<<(bits-1)-1)
		m.draw = func(tt *T, _ int) reflect.Value {
			v := m.zero()
			v.SetInt(int64(tt.drawInt(r, biased)))
			return v
		}
		m.force = func(tt *T, v reflect.Value, _ int) error {
			tt.putRank(r, r.Rank(uint64(v.Int())))
			return nil
		}
	case reflect.Uint <= k && k <= reflect.Uintptr:
		r := shrink.UnsignedInterval(0, math.MaxUint64>>(64-m.t.Bits()))
		m.draw = func(tt *T, _ int) reflect.Value {
			v := m.zero()
			v.SetUint(tt.drawInt(r, biased))
			return v
		}
		m.force = func(tt *T, v reflect.Value, _ int) error {
			tt.putRank(r, r.Rank(v.Uint()))
			return nil
		}
	case k == reflect.Float32 || k == reflect.Float64:
		m.draw = func(tt *T, _ int) reflect.Value {
			v := m.zero()
			v.SetFloat(tt.drawFloat(shrink.AnyFloat))
			return v
		}
		m.force = func(tt *T, v reflect.Value, _ int) error {
			tt.putFloat(shrink.AnyFloat, v.Float())
			return nil
		}
	case k == reflect.String:
		s := String()
		m.draw = func(tt *T, _ int) reflect.Value {
			v := m.zero()
			v.SetString(s.draw(tt))
			return v
		}
		m.force = func(tt *T, v reflect.Value, _ int) error {
			if !utf8.ValidString(v.String()) {
				return fmt.Errorf("%q is not valid UTF-8", v.String())
			}
			return s.force(tt, v.String())
		}
	default:
		panic(fmt.Sprintf("fuzzshrink.Make: unsupported type %v", m.t)) // CheckType rejects it first
	}
}

// array makes m draw arrays, element by element with e.
func (m *maker) array(e *maker) {
	m.draw = func(tt *T, depth int) reflect.Value {
		v := m.zero()
		for i := range v.Len() {
			v.Index(i).Set(e.value(tt, depth))
		}
		return v
	}
	m.force = func(tt *T, v reflect.Value, depth int) error {
		for i := range v.Len() {
			if err := e.force(tt, v.Index(i), depth); err != nil {
				return err
			}
		}
		return nil
	}
}

// structure makes m draw structs, exported field by exported field.
func (m *maker) structure(seen map[reflect.Type]*maker) {
	var fields []int
	for i := range m.t.NumField() {
		if m.t.Field(i).IsExported() {
			fields = append(fields, i)
		}
	}
	fms := make([]*maker, len(fields))
	for i, f := range fields {
		fms[i] = makerFor(m.t.Field(f).Type, seen)
	}
	m.draw = func(tt *T, depth int) reflect.Value {
		v := m.zero()
		for i, f := range fields {
			v.Field(f).Set(fms[i].value(tt, depth))
		}
		return v
	}
	m.force = func(tt *T, v reflect.Value, depth int) error {
		for i, f := range fields {
			if err := fms[i].force(tt, v.Field(f), depth); err != nil {
				return fmt.Errorf("field %s: %w", m.t.Field(f).Name, err)
			}
		}
		return nil
	}
}

// pointer makes m draw pointers, nil or to a value of e, nil deeper than
// maxMakeDepth.
func (m *maker) pointer(e *maker) {
	m.draw = func(tt *T, depth int) reflect.Value {
		v := m.zero()
		if depth < maxMakeDepth && tt.drawBool(0.7) {
			p := reflect.New(m.t.Elem())
			p.Elem().Set(e.value(tt, depth+1))
			v.Set(p)
		}
		return v
	}
	m.force = func(tt *T, v reflect.Value, depth int) error {
		if depth >= maxMakeDepth {
			if !v.IsNil() {
				return fmt.Errorf("pointers nest deeper than %d", maxMakeDepth)
			}
			return nil
		}
		if v.IsNil() {
			tt.putRank(shrink.BoolInterval, 0)
			return nil
		}
		tt.putRank(shrink.BoolInterval, 1)
		return e.force(tt, v.Elem(), depth+1)
	}
}

// slice makes m draw slices of e's values, empty deeper than maxMakeDepth.
func (m *maker) slice(e *maker) {
	m.elem = elementOf(m.info.Name)
	m.draw = func(tt *T, depth int) reflect.Value {
		v := m.zero()
		if depth >= maxMakeDepth {
			return v
		}
		collect(tt, m.elem, 0, -1, func() bool {
			v = reflect.Append(v, e.value(tt, depth+1))
			return true
		})
		return v
	}
	m.force = func(tt *T, v reflect.Value, depth int) error {
		if depth >= maxMakeDepth {
			if v.Len() > 0 {
				return fmt.Errorf("slices nest deeper than %d", maxMakeDepth)
			}
			return nil
		}
		return forceElems(tt, m.info.Name, 0, -1, v.Len(), func(i int) error { return e.force(tt, v.Index(i), depth+1) })
	}
}

// mapOf makes m draw maps of km's keys and vm's values, nil deeper than
// maxMakeDepth.
func (m *maker) mapOf(km, vm *maker) {
	m.elem = elementOf(m.info.Name)
	m.draw = func(tt *T, depth int) reflect.Value {
		v := m.zero()
		if depth >= maxMakeDepth {
			return v
		}
		collect(tt, m.elem, 0, -1, func() bool {
			key := km.value(tt, depth+1)
			if v.IsNil() {
				v.Set(reflect.MakeMap(m.t))
			} else if v.MapIndex(key).IsValid() || (key.Kind() == reflect.Float32 || key.Kind() == reflect.Float64) && math.IsNaN(key.Float()) {
				return false // a duplicate; NaN keys, never equal, would grow the map forever
			}
			v.SetMapIndex(key, vm.value(tt, depth+1))
			return true
		})
		return v
	}
	m.force = func(tt *T, v reflect.Value, depth int) error {
		if depth >= maxMakeDepth {
			if v.Len() > 0 {
				return fmt.Errorf("maps nest deeper than %d", maxMakeDepth)
			}
			return nil
		}
		keys := shrink.SortedKeys(v)
		return forceElems(tt, m.info.Name, 0, -1, len(keys), func(i int) error {
			if err := km.force(tt, keys[i], depth+1); err != nil {
				return err
			}
			return vm.force(tt, v.MapIndex(keys[i]), depth+1)
		})
	}
}
