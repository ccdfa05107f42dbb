package fuzzshrink

import (
	"iter"
	"math"
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
