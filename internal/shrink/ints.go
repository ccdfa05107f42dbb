package shrink

import (
	"iter"
	"math"
	"reflect"
	"slices"
)

// intArg shrinks integers of every width. byte and rune are uint8 and int32.
func intArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case int:
		return shrinkSigned(x, math.MaxInt, from)
	case int8:
		return shrinkSigned(x, math.MaxInt8, from)
	case int16:
		return shrinkSigned(x, math.MaxInt16, from)
	case int32:
		return shrinkSigned(x, math.MaxInt32, from)
	case int64:
		return shrinkSigned(x, math.MaxInt64, from)
	case uint:
		return shrinkUnsigned(x, from)
	case uint8:
		return shrinkUnsigned(x, from)
	case uint16:
		return shrinkUnsigned(x, from)
	case uint32:
		return shrinkUnsigned(x, from)
	case uint64:
		return shrinkUnsigned(x, from)
	}
	return nil
}

// shrinkSigned yields smaller values of v, whose type's maximum is maxPos.
// The cursor is pos.s (see [magnitudes]).
func shrinkSigned[T int | int8 | int16 | int32 | int64](v T, maxPos uint64, from pos) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		for s, m := range magnitudes(v < 0, magnitude(int64(v)), maxPos, from.s) {
			u := m.mag
			if m.neg {
				u = -u // two's complement: exact for the minimum of every width
			}
			if !yield(pos{s: s}, T(int64(u))) {
				return
			}
		}
	}
}

// shrinkUnsigned yields smaller values of v. The cursor is pos.s.
func shrinkUnsigned[T uint | uint8 | uint16 | uint32 | uint64](v T, from pos) iter.Seq2[pos, any] {
	return func(yield func(pos, any) bool) {
		for s, m := range magnitudes(false, uint64(v), uint64(v), from.s) {
			if !yield(pos{s: s}, T(m.mag)) {
				return
			}
		}
	}
}

// magSearch is the state of a magnitude search, the cursor of every pass that
// lowers a number (integers, integer-valued floats, bytes, runes). Phase 0
// proposes zero, phase 1 the positive counterpart of a negative value, phase
// 2 is a binary search toward zero keeping the sign, in which d is the
// distance from the current magnitude down to the largest magnitude known
// not to fail (zero, tried in phase 0, to start with).
type magSearch struct {
	phase uint8
	d     uint64
}

// signedMag is a number as a sign and a magnitude.
type signedMag struct {
	neg bool
	mag uint64
}

// magnitudes yields numbers smaller than the one with sign neg and magnitude
// mag, from state from, each with the state to resume from if it is accepted.
// maxPos is the largest positive magnitude representable: for a negative
// number whose positive counterpart is not representable (math.MinInt64),
// phase 1 proposes maxPos instead, which has a smaller magnitude.
//
// Phase 2 proposes mag-g for g = ⌈d/2⌉, then (each time the candidate does
// not fail) d = g and again: it tries mag/2 first, then closer and closer to
// mag, ending with mag-1. If mag-g is accepted the search resumes on it with
// d = ⌊d/2⌋, the distance to the same known-passing magnitude, so a search
// toward a threshold is a true binary search: it takes about log₂|v| runs
// and ends exactly at the threshold, and in any case on a number whose
// magnitude minus one was tried.
func magnitudes(neg bool, mag, maxPos uint64, from magSearch) iter.Seq2[magSearch, signedMag] {
	return func(yield func(magSearch, signedMag) bool) {
		phase, d := from.phase, from.d
		if phase == 0 {
			if mag == 0 && !neg { // neg and mag 0 is -0.0, which shrinks to +0
				return
			}
			if !yield(magSearch{phase: 3}, signedMag{}) {
				return
			}
			phase = 1
		}
		if phase == 1 {
			if neg && mag > 0 {
				p := min(mag, maxPos)
				if !yield(magSearch{phase: 2, d: p}, signedMag{mag: p}) {
					return
				}
			}
			phase, d = 2, mag
		}
		if phase != 2 {
			return
		}
		for d = min(d, mag); d >= 2; {
			g := d - d/2
			if !yield(magSearch{phase: 2, d: d / 2}, signedMag{neg, mag - g}) {
				return
			}
			d = g
		}
	}
}

// Lowering a common offset (Hypothesis's lower_common_block_offset): when
// integers fail only together, as with a == b or b-a == 5, lowering one
// alone passes, and lowering all of them by the same amount does not. The
// offset pass subtracts a common amount from the magnitudes of the nonzero
// integer arguments of a tuple, and of the nonzero integer fields or
// elements of each struct, slice or array, keeping signs: of all of them,
// then of each pair (see [offsetGroups]). The smallest magnitude m goes to
// 0, then by a binary search (see [magnitudes]) toward 0. Every integer
// changed decreases, so the tuple does. The cursor is (pos.k, pos.s) =
// (group, search state of the smallest magnitude).

// offsetTuple lowers the integer arguments of t by a common offset.
func offsetTuple(t []any, from pos) iter.Seq2[pos, []any] {
	var idx []int
	for i, a := range t {
		if v := reflect.ValueOf(a); isInt(v) && !v.IsZero() {
			idx = append(idx, i)
		}
	}
	if len(idx) < 2 {
		return nil
	}
	return func(yield func(pos, []any) bool) {
		for p, gv := range lowerOffset(idx, func(i int) reflect.Value { return reflect.ValueOf(t[i]) }, from) {
			c := slices.Clone(t)
			for k, v := range gv.vs {
				c[gv.g[k]] = v.Interface()
			}
			if !yield(p, c) {
				return
			}
		}
	}
}

// offsetNode lowers the integer fields or elements of a struct, slice or
// array node by a common offset.
func offsetNode(n node, from pos) iter.Seq2[pos, reflect.Value] {
	v := n.v
	var parts []int
	switch v.Kind() {
	case reflect.Struct:
		if isCustom(v.Type()) {
			return nil
		}
		for i := range v.NumField() {
			if f := v.Field(i); v.Type().Field(i).IsExported() && isInt(f) && !f.IsZero() {
				parts = append(parts, i)
			}
		}
	case reflect.Slice, reflect.Array:
		if isCustom(v.Type()) || v.Type() == BytesType || v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes are characters, not numbers
		}
		for i := range v.Len() {
			if e := v.Index(i); isInt(e) && !e.IsZero() {
				parts = append(parts, i)
			}
		}
	}
	if len(parts) < 2 {
		return nil
	}
	part := func(c reflect.Value, i int) reflect.Value {
		if c.Kind() == reflect.Struct {
			return c.Field(i)
		}
		return c.Index(i)
	}
	return func(yield func(pos, reflect.Value) bool) {
		for p, gv := range lowerOffset(parts, func(i int) reflect.Value { return part(v, i) }, from) {
			c := deepCopy(v)
			for k, x := range gv.vs {
				part(c, gv.g[k]).Set(x)
			}
			if !yield(p, c) {
				return
			}
		}
	}
}

// isInt reports whether v is an integer of any width that is not a custom
// type.
func isInt(v reflect.Value) bool {
	return (v.CanInt() || v.CanUint()) && !isCustom(v.Type())
}

// offsetGroups are the groups of integers that the offset pass lowers
// together, given their indices: all of them, then each pair (only
// neighbors if there are many), since one integer that is already small
// must not hold the others back.
func offsetGroups(idx []int) [][]int {
	groups := [][]int{idx}
	if len(idx) == 2 {
		return groups
	}
	for a := range idx {
		for b := a + 1; b < len(idx) && (len(idx) <= 8 || b == a+1); b++ {
			groups = append(groups, []int{idx[a], idx[b]})
		}
	}
	return groups
}

// lowerOffset yields, for each group of the integers get(i) with i in idx
// (all nonzero), the group and the integers with their magnitudes lowered by
// a common offset (see above).
func lowerOffset(idx []int, get func(int) reflect.Value, from pos) iter.Seq2[pos, groupValues] {
	return func(yield func(pos, groupValues) bool) {
		groups := offsetGroups(idx)
		for gi := from.k; gi < len(groups); gi++ {
			st := magSearch{}
			if gi == from.k {
				st = from.s
			}
			g := groups[gi]
			for p, vs := range lowerGroup(g, get, st) {
				p.k = gi
				if !yield(p, groupValues{g, vs}) {
					return
				}
			}
		}
	}
}

// groupValues are the new values of the integers of a group.
type groupValues struct {
	g  []int
	vs []reflect.Value
}

// lowerGroup yields the integers get(i), i in g, lowered by a common offset.
func lowerGroup(g []int, get func(int) reflect.Value, from magSearch) iter.Seq2[pos, []reflect.Value] {
	return func(yield func(pos, []reflect.Value) bool) {
		m := uint64(math.MaxUint64)
		for _, i := range g {
			m = min(m, intMagnitude(get(i)))
		}
		for st, sm := range magnitudes(false, m, m, from) {
			d := m - sm.mag
			vs := make([]reflect.Value, len(g))
			for k, i := range g {
				x := get(i)
				nv := reflect.New(x.Type()).Elem()
				if x.CanInt() {
					if x.Int() < 0 {
						nv.SetInt(x.Int() + int64(d))
					} else {
						nv.SetInt(x.Int() - int64(d))
					}
				} else {
					nv.SetUint(x.Uint() - d)
				}
				vs[k] = nv
			}
			if !yield(pos{s: st}, vs) {
				return
			}
		}
	}
}

func intMagnitude(v reflect.Value) uint64 {
	if v.CanInt() {
		return magnitude(v.Int())
	}
	return v.Uint()
}

// Moving magnitude between integers (Hypothesis's
// redistribute_numeric_pairs): when a failure depends on the sum of two
// integer arguments (a+b overflows, a+b == 100), lowering one alone
// passes, and lowering both does too. Moving part of an earlier
// argument's magnitude onto a later one keeps the sum, and the tuple
// decreases: its earlier argument is smaller. For each pair i < j of
// integer arguments, a_i nonzero, the amount moved is found by the binary
// search of [magnitudes] on what a_i keeps, 0 first; a move that a_j's
// type cannot hold is skipped. The cursor is (pos.k, pos.s) = (pair,
// search state).

// moveTuple moves magnitude from an integer argument of t to a later one.
func moveTuple(t []any, from pos) iter.Seq2[pos, []any] {
	var idx []int
	for i, a := range t {
		if isInt(reflect.ValueOf(a)) {
			idx = append(idx, i)
		}
	}
	var pairs [][2]int
	for x, i := range idx {
		if reflect.ValueOf(t[i]).IsZero() {
			continue
		}
		for _, j := range idx[x+1:] {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	return func(yield func(pos, []any) bool) {
		for k := from.k; k < len(pairs); k++ {
			st := magSearch{}
			if k == from.k {
				st = from.s
			}
			a, b := reflect.ValueOf(t[pairs[k][0]]), reflect.ValueOf(t[pairs[k][1]])
			mag := intMagnitude(a)
			neg := a.CanInt() && a.Int() < 0
			for s, keep := range magnitudes(false, mag, mag, st) {
				moved := mag - keep.mag
				na, okA := addInt(a, moved, !neg) // toward 0
				nb, okB := addInt(b, moved, neg)  // the sum kept
				if !okA || !okB {
					continue
				}
				c := slices.Clone(t)
				c[pairs[k][0]], c[pairs[k][1]] = na.Interface(), nb.Interface()
				if !yield(pos{k: k, s: s}, c) {
					return
				}
			}
		}
	}
}

// addInt returns the integer v plus d (minus d with sub), of v's type, or
// false if the type cannot hold it.
func addInt(v reflect.Value, d uint64, sub bool) (reflect.Value, bool) {
	nv := reflect.New(v.Type()).Elem()
	if v.CanUint() {
		x := v.Uint()
		if sub && d > x || !sub && x+d < x {
			return nv, false
		}
		if sub {
			x -= d
		} else {
			x += d
		}
		nv.SetUint(x)
		return nv, !nv.OverflowUint(x) && nv.Uint() == x
	}
	x := v.Int()
	if d > math.MaxInt64 {
		return nv, false
	}
	y := x + int64(d)
	if sub {
		y = x - int64(d)
	}
	if sub && y > x || !sub && y < x || nv.OverflowInt(y) {
		return nv, false
	}
	nv.SetInt(y)
	return nv, true
}
