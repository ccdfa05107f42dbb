package shrink

import (
	"bytes"
	"iter"
	"reflect"
	"slices"
	"unicode/utf8"
)

// Counts: an integer argument that counts the units of another, as in
// FuzzX(s string, n int) failing when len(s) == n, or an index or a limit
// into the other argument, as in failing when s[n-1] == ' '. Lowering n
// alone, or removing units alone, passes; the count pass lowers the
// integer by k and removes the last k units of the other argument in one
// candidate, then the first k units: its
// bytes ([]byte, and strings that are not valid UTF-8), runes (valid
// strings), lines, or comma-separated elements. For each pair of an
// integer above 0 and a sized argument, and each kind of unit it has, k is
// found by the binary search of [magnitudes] on what remains, min(n,
// units) - k: all first (what remains is 0), then the search toward the
// largest k that still fails. Both arguments decrease, so the tuple does.
// The cursor is (pos.k, pos.s) = (pair and kind of unit, and end or start,
// search state).

// A unit is a way to cut an argument into parts that a count may count.
type unit struct {
	name string
	cut  func(b []byte) [][]byte // the parts, which concatenate to b
}

var units = []unit{
	{"bytes", func(b []byte) [][]byte {
		ps := make([][]byte, len(b))
		for i := range b {
			ps[i] = b[i : i+1]
		}
		return ps
	}},
	{"runes", func(b []byte) [][]byte {
		if !utf8.Valid(b) {
			return nil
		}
		var ps [][]byte
		for len(b) > 0 {
			_, n := utf8.DecodeRune(b)
			ps, b = append(ps, b[:n]), b[n:]
		}
		return ps
	}},
	{"lines", func(b []byte) [][]byte { return bytes.SplitAfter(b, []byte("\n")) }},
	{"elements", func(b []byte) [][]byte { return bytes.SplitAfter(b, []byte(",")) }},
}

// countTuple lowers an integer argument with the units of another.
func countTuple(t []any, from pos) iter.Seq2[pos, []any] {
	type job struct {
		num, sized int
		n          uint64 // the count
		parts      [][]byte
	}
	var jobs []job
	for i, a := range t {
		n, ok := count(a)
		if !ok || n == 0 {
			continue
		}
		for j, b := range t {
			data, ok := sized(b)
			if !ok || j == i || len(data) == 0 {
				continue
			}
			for _, u := range units {
				parts := u.cut(data)
				if len(parts) < 2 && u.name != "bytes" && u.name != "runes" {
					continue // no line or element to count
				}
				if _, isString := b.(string); u.name == "bytes" && isString && utf8.Valid(data) {
					continue // a valid string counts runes
				}
				if parts != nil {
					jobs = append(jobs, job{i, j, n, parts})
				}
			}
		}
	}
	return func(yield func(pos, []any) bool) {
		for k := from.k; k < 2*len(jobs); k++ {
			jb, front := jobs[k/2], k%2 == 1
			m := min(jb.n, uint64(len(jb.parts)))
			start := magSearch{}
			if k == from.k {
				start = from.s
			}
			for s, r := range magnitudes(false, m, m, start) {
				drop := int(m - r.mag)
				kept := jb.parts[:len(jb.parts)-drop]
				if front {
					kept = jb.parts[drop:]
				}
				c := slices.Clone(t)
				c[jb.num] = lowered(t[jb.num], uint64(drop))
				c[jb.sized] = withBytes(t[jb.sized], bytes.Join(kept, nil))
				if !yield(pos{k: k, s: s}, c) {
					return
				}
			}
		}
	}
}

// count returns the value of a nonnegative integer argument.
func count(a any) (uint64, bool) {
	v := reflect.ValueOf(a)
	if !isInt(v) {
		return 0, false
	}
	if v.CanInt() {
		if v.Int() < 0 {
			return 0, false
		}
		return uint64(v.Int()), true
	}
	return v.Uint(), true
}

// lowered returns integer argument a lower by d, of its type.
func lowered(a any, d uint64) any {
	v := reflect.ValueOf(a)
	c := reflect.New(v.Type()).Elem()
	if v.CanInt() {
		c.SetInt(v.Int() - int64(d))
	} else {
		c.SetUint(v.Uint() - d)
	}
	return c.Interface()
}

// sized returns the bytes of a string or []byte argument.
func sized(a any) ([]byte, bool) {
	switch x := a.(type) {
	case string:
		return []byte(x), true
	case []byte:
		return x, true
	}
	return nil, false
}

// withBytes returns b as a value of the type of a, a string or []byte.
func withBytes(a any, b []byte) any {
	if _, ok := a.(string); ok {
		return string(b)
	}
	return b
}
