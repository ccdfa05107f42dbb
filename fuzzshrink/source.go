package fuzzshrink

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// A T draws its choices from one of two sources: it replays a choice
// sequence (the fuzz input, a persisted file, a shrink candidate), or it
// generates one (Check), picking each choice with a biased distribution and
// writing the choice's canonical token, so that the sequence written
// replays to the same values. The record of a run lists the choices drawn
// and the spans of the draws that made them; the shrink passes work on it.

// The limits on a run, which keep generation and replay bounded whatever
// the generators do.
const (
	maxGenBytes = 8 << 10 // generation: past this many bytes, every choice is the simplest
	maxPastEnd  = 100_000 // replay: choices drawn past the end of the data before the case is invalid
	maxDepth    = 100     // nested draws of one recursive generator before OneOf takes its first branch
)

// A dist is how generation picks a choice: the default, biased toward the
// target and the bounds; uniformly; or a flag, 1 with probability p.
type dist struct {
	kind distKind
	p    float64
	cum  []float64 // distUniform, distFirst: weights cumulated by rank, if not all equal
}

type distKind uint8

const (
	distBiased distKind = iota
	distUniform
	distFlag
	distFirst // 0 with probability p, else uniform (or weighted)
	distRunes // rune indexes: printable ASCII most often
)

var (
	biased  = dist{}
	uniform = dist{kind: distUniform}
)

func flagDist(p float64) dist { return dist{kind: distFlag, p: p} }

// A generator picks the choices of a generated case.
type generator struct {
	rng  *rand.Rand
	size int    // 0 to 100: how large collections and numbers tend to be
	zero bool   // forcing (AddDraws): every choice not forced is the simplest
	copy []byte // the tokens that the next choices take, before rng's (collections.go)
	// nasty decides which strings are one of nastyStrings, apart from
	// rng: a case that draws none is the case rng alone makes.
	nasty *rand.Rand
}

// copied reads the next token of g.copy, if any.
func (g *generator) copied() (shrink.Token, bool) {
	if len(g.copy) == 0 {
		return shrink.Token{}, false
	}
	tk, n := shrink.ReadToken(g.copy, 0)
	g.copy = g.copy[min(n, len(g.copy)):]
	return tk, true
}

func newGenerator(seed uint64, size int) *generator {
	return &generator{rng: rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15)), size: size, nasty: rand.New(rand.NewPCG(seed^0xD1B54A32D192ED03, seed))}
}

// rank picks the rank of an integer choice in r.
func (g *generator) rank(r shrink.Interval, d dist) uint64 {
	n := r.Size()
	switch d.kind {
	case distUniform:
		return g.pick(n, d.cum)
	case distFlag:
		if n >= 1 && g.rng.Float64() < d.p {
			return 1
		}
		return 0
	case distFirst:
		if g.rng.Float64() < d.p {
			return 0
		}
		return g.pick(n, d.cum)
	case distRunes:
		switch x := g.rng.IntN(100); {
		case x < 65:
			return g.below(min(n, uint64(len(printableASCII)-1)))
		case x < 70:
			return g.below(min(n, asciiIndexes-1))
		case x < 75 && n >= 0x7FF: // two bytes of UTF-8: Latin, Greek, Cyrillic, Hebrew, Arabic
			return asciiIndexes + g.below(0x7FF-asciiIndexes)
		case x < 90:
			return g.below(min(n, 0xFFFF))
		}
		return g.below(n)
	}
	switch x := g.rng.IntN(100); {
	case x < 5: // a bound: "exact bounds often"
		if g.rng.IntN(2) == 0 {
			return r.Rank(r.Hi)
		}
		return r.Rank(r.Lo)
	case x < 10: // another boundary value
		bs := r.Boundaries()
		return r.Rank(bs[g.rng.IntN(len(bs))])
	case x < 50: // small: near the target, more spread at larger sizes
		k := g.rng.IntN(5 + g.size/20)
		return g.below(min(n, 1<<k-1))
	case x < 80: // log-uniform over the whole range
		b := g.rng.IntN(bits.Len64(n) + 1)
		if b == 0 {
			return 0
		}
		lo := uint64(1) << (b - 1)
		return min(n, lo+g.below(lo-1))
	}
	return g.below(n)
}

// below picks uniformly in [0, n].
func (g *generator) below(n uint64) uint64 {
	if n == math.MaxUint64 {
		return g.rng.Uint64()
	}
	return g.rng.Uint64N(n + 1)
}

// pick picks a rank in [0, n], uniformly, or by the weights cumulated in
// cum (one per rank) if it is not nil.
func (g *generator) pick(n uint64, cum []float64) uint64 {
	if cum == nil {
		return g.below(n)
	}
	x := g.rng.Float64() * cum[len(cum)-1]
	k, _ := slices.BinarySearchFunc(cum, x, func(c, x float64) int {
		if c <= x {
			return -1
		}
		return 1
	})
	return uint64(k)
}

// float picks a float in r.
func (g *generator) float(r shrink.FloatInterval) float64 {
	var f float64
	switch x := g.rng.IntN(100); {
	case x < 4: // a bound, or the finite extreme past an infinite one
		b := r.Lo
		if x >= 2 {
			b = r.Hi
		}
		if math.IsInf(b, 0) && g.rng.IntN(2) == 0 {
			b = math.Copysign(math.MaxFloat64, b)
		}
		f = b
	case x < 10: // a special value
		f = floatSpecials[g.rng.IntN(len(floatSpecials))]
	case x < 13: // a huge or a tiny magnitude
		e := uint64(2036 + g.rng.IntN(11))
		if g.rng.IntN(2) == 0 {
			e = uint64(g.rng.IntN(11))
		}
		f = math.Float64frombits(g.rng.Uint64()&(1<<63|1<<52-1) | e<<52)
	case x < 50: // a small integer
		k := g.rng.IntN(5 + g.size/20)
		f = float64(g.rng.Int64N(1 << k))
		if g.rng.IntN(2) == 0 {
			f = -f + 0 // -f + 0 is +0 for 0: -0 is a special value
		}
	case x < 70: // a simple fraction
		f = float64(g.rng.Int64N(1<<10)-1<<9) / float64(uint64(2)<<g.rng.IntN(8))
	default: // any bits
		f = math.Float64frombits(g.rng.Uint64())
	}
	if r.Contains(f) {
		return f
	}
	if w := r.Hi - r.Lo; !math.IsInf(w, 0) && !math.IsNaN(w) {
		return r.Clamp(r.Lo + w*g.rng.Float64())
	}
	return r.Simplest()
}

// floatSpecials are the values generation picks for floats often.
var floatSpecials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.Inf(1), math.Inf(-1), math.NaN(),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, 0x1p-1022,
	math.Float64frombits(0x000FFFFFFFFFFFFF), math.Nextafter(1, 2), 1e-300, 1e300}

// drawRank draws an integer choice in r and returns its rank.
func (t *T) drawRank(r shrink.Interval, d dist) uint64 {
	if t.gen != nil {
		var k uint64
		if tk, ok := t.gen.copied(); ok {
			k = shrink.DecodeInt(r, tk)
		} else if len(t.data) < maxGenBytes && !t.gen.zero {
			k = t.gen.rank(r, d)
		} else {
			t.overrun() // the simplest choice: a zero token
		}
		return t.putRank(r, k)
	}
	start := t.pos
	if start >= len(t.data) {
		t.overrun()
	}
	var tk shrink.Token
	tk, t.pos = shrink.ReadToken(t.data, t.pos)
	k := shrink.DecodeInt(r, tk)
	t.noteInt(r, k, start)
	return k
}

// putRank writes the canonical token of rank k of r (generation and
// forcing).
func (t *T) putRank(r shrink.Interval, k uint64) uint64 {
	start := len(t.data)
	t.data = shrink.AppendIntToken(t.data, k)
	t.pos = len(t.data)
	t.noteInt(r, k, start)
	return k
}

func (t *T) noteInt(r shrink.Interval, k uint64, start int) {
	if t.recording {
		n := len(t.data)
		t.rec.Choices = append(t.rec.Choices, shrink.Choice{Kind: shrink.KindInt, Signed: r.Signed, Lo: r.Lo, Hi: r.Hi, Val: k,
			Start: int32(min(start, n)), End: int32(min(t.pos, n))})
	}
}

// overrun counts a choice drawn past the end of the data (or of
// generation's budget), which is the simplest, and makes the case invalid
// when there are too many: a property that loops until a choice is not the
// simplest would never end.
func (t *T) overrun() {
	if t.pastEnd++; t.pastEnd > maxPastEnd {
		t.invalidate("the property drew more than %d choices past the end of its input", maxPastEnd)
	}
}

// drawInt draws an integer choice in r and returns its value.
func (t *T) drawInt(r shrink.Interval, d dist) uint64 { return r.Value(t.drawRank(r, d)) }

// drawBool draws a bool that generation makes true with probability p.
func (t *T) drawBool(p float64) bool { return t.drawRank(shrink.BoolInterval, flagDist(p)) == 1 }

// drawFloat draws a float choice in r.
func (t *T) drawFloat(r shrink.FloatInterval) float64 {
	if t.gen != nil {
		f := r.Simplest()
		if tk, ok := t.gen.copied(); ok {
			f = r.Clamp(shrink.DecodeFloat(tk))
		} else if len(t.data) < maxGenBytes && !t.gen.zero {
			f = t.gen.float(r)
		} else {
			t.overrun()
		}
		return t.putFloat(r, f)
	}
	start := t.pos
	if start >= len(t.data) {
		t.overrun()
	}
	var tk shrink.Token
	tk, t.pos = shrink.ReadToken(t.data, t.pos)
	f := r.Clamp(shrink.DecodeFloat(tk))
	t.noteFloat(r, f, start)
	return f
}

// putFloat writes the canonical token of f, which must lie in r.
func (t *T) putFloat(r shrink.FloatInterval, f float64) float64 {
	if math.IsNaN(f) {
		f = math.NaN() // one NaN, whose token replays to it: payloads are not choices
	}
	start := len(t.data)
	t.data = shrink.AppendFloatToken(t.data, f)
	t.pos = len(t.data)
	t.noteFloat(r, f, start)
	return f
}

func (t *T) noteFloat(r shrink.FloatInterval, f float64, start int) {
	if t.recording {
		n := len(t.data)
		t.rec.Choices = append(t.rec.Choices, shrink.Choice{Kind: shrink.KindFloat, NaN: r.NaN,
			Lo: math.Float64bits(r.Lo), Hi: math.Float64bits(r.Hi), Val: math.Float64bits(f),
			Start: int32(min(start, n)), End: int32(min(t.pos, n))})
	}
}
