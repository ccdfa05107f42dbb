package shrink

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// testRanges are ranges of every shape: around zero, above and below it,
// one value, bools, and the full widths.
var testRanges = []Interval{
	SignedInterval(-3, 5), SignedInterval(-5, 3), SignedInterval(2, 9), SignedInterval(-9, -2),
	SignedInterval(0, 0), SignedInterval(-1, 0), BoolInterval, UnsignedInterval(3, 300),
	SignedInterval(math.MinInt64, math.MaxInt64), UnsignedInterval(0, math.MaxUint64),
	SignedInterval(math.MinInt64, 0), SignedInterval(0, math.MaxInt64), SignedInterval(math.MinInt64, math.MinInt64+2),
	UnsignedInterval(math.MaxUint64-2, math.MaxUint64), SignedInterval(-1000, 1000), SignedInterval(-100000, 7),
}

// simpler orders values by simplicity: the distance to the target, then
// the value above before the one below.
func simpler(r Interval, a, b uint64) bool {
	side := func(v uint64) (bool, uint64) {
		t := r.target()
		if r.Signed && int64(v) > int64(t) || !r.Signed && v > t {
			return true, v - t
		}
		return false, t - v
	}
	ua, da := side(a)
	ub, db := side(b)
	return da < db || da == db && ua && !ub
}

func TestIntRange_RanksOrderValues(t *testing.T) {
	t.Parallel()
	for _, r := range testRanges {
		n := min(r.Size(), 2000)
		for k := uint64(0); k <= n; k++ {
			// The ranks at both ends of wide ranges.
			for _, k := range []uint64{k, r.Size() - k} {
				v := r.Value(k)
				if !r.contains(v) || r.Rank(v) != k {
					t.Fatalf("%+v: value(%d) = %d, rank of it %d", r, k, int64(v), r.Rank(v))
				}
				if k > 0 && !simpler(r, r.Value(k-1), v) {
					t.Fatalf("%+v: rank %d (%d) is not simpler than rank %d (%d)", r, k-1, int64(r.Value(k-1)), k, int64(v))
				}
			}
		}
	}
	if r := SignedInterval(-3, 5); r.Value(0) != 0 || r.Value(1) != 1 || int64(r.Value(2)) != -1 || r.Value(7) != 4 || r.Value(8) != 5 {
		t.Errorf("ranks of [-3, 5]: 0 1 -1 … 4 5 expected")
	}
	if r := SignedInterval(math.MinInt64, math.MaxInt64); int64(r.Value(r.Size())) != math.MinInt64 || int64(r.Value(r.Size()-1)) != -math.MaxInt64 {
		t.Errorf("the last ranks of int64 are not its extremes")
	}
}

func TestIntTokens_OrderPreserving(t *testing.T) {
	t.Parallel()
	ks := []uint64{0, 1, 2, 100, 222, 223, 224, 225, 255, 256, 257, 0xFFFF, 0x10000, 1 << 56, 1<<63 - 1, 1 << 63, math.MaxUint64}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ks = append(ks, rng.Uint64()>>rng.IntN(64))
	}
	for _, a := range ks {
		for _, b := range ks[:40] {
			ta, tb := AppendIntToken(nil, a), AppendIntToken(nil, b)
			if a < b && compareTokens(ta, tb) >= 0 || a > b && compareTokens(ta, tb) <= 0 {
				t.Fatalf("rank %d has token %x, rank %d has %x: not in order", a, ta, b, tb)
			}
			if len(ta) != intTokenLen(a) {
				t.Fatalf("intTokenLen(%d) = %d, token %x", a, intTokenLen(a), ta)
			}
		}
	}
}

// checkIntToken checks that the token at data[0:] decodes under r to a
// rank whose canonical token decodes to it again, and that, unless it is a
// boundary token, the canonical token is not larger.
func checkIntToken(t *testing.T, r Interval, data []byte) {
	tk, next := ReadToken(data, 0)
	k := DecodeInt(r, tk)
	if k > r.Size() {
		t.Fatalf("%+v: %x decodes to rank %d, out of range", r, data, k)
	}
	canon := AppendIntToken(nil, k)
	if tk2, n2 := ReadToken(canon, 0); DecodeInt(r, tk2) != k || n2 != len(canon) {
		t.Fatalf("%+v: the canonical token %x of rank %d decodes to %d", r, canon, k, DecodeInt(r, tk2))
	}
	raw := data[:min(next, len(data))]
	padded := append(bytes.Clone(raw), make([]byte, max(0, next-len(data)))...)
	if tk.First < BoundaryTokens && compareTokens(canon, padded) > 0 {
		t.Fatalf("%+v: %x decodes to rank %d, whose canonical token %x is larger", r, padded, k, canon)
	}
}

func TestDecodeInt_Exhaustive2(t *testing.T) {
	t.Parallel()
	for _, r := range testRanges {
		for a := range 256 {
			for b := range 256 {
				checkIntToken(t, r, []byte{byte(a), byte(b)})
			}
			checkIntToken(t, r, []byte{byte(a)})
		}
	}
}

func TestDecodeInt_Boundaries(t *testing.T) {
	t.Parallel()
	r := SignedInterval(math.MinInt64, math.MaxInt64)
	seen := map[int64]bool{}
	for b := BoundaryTokens; b < 256; b++ {
		tk, _ := ReadToken([]byte{byte(b)}, 0)
		seen[int64(r.Value(DecodeInt(r, tk)))] = true
	}
	for _, v := range []int64{math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 1 << 31, 255, 256} {
		if !seen[v] {
			t.Errorf("no boundary token of int64 decodes to %d", v)
		}
	}
	r = SignedInterval(-5, 1000)
	for _, v := range []int64{-5, 1000, 999, -4} {
		found := false
		for b := BoundaryTokens; b < 256; b++ {
			tk, _ := ReadToken([]byte{byte(b)}, 0)
			found = found || int64(r.Value(DecodeInt(r, tk))) == v
		}
		if !found {
			t.Errorf("no boundary token of [-5, 1000] decodes to %d", v)
		}
	}
}

func TestReadToken_PastTheEnd(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		data  []byte
		first byte
		lo    uint64
		next  int
	}{
		{nil, 0, 0, 1},
		{[]byte{5}, 5, 0, 1},
		{[]byte{0xE1, 1}, 0xE1, 0x100, 3},
		{[]byte{0xE8, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0xE8, 0x0203040506070809, 10},
		{[]byte{0xE8, 1}, 0xE8, 0, 10},
	} {
		tk, next := ReadToken(tt.data, 0)
		if tk.First != tt.first || tk.lo != tt.lo || next != tt.next {
			t.Errorf("readToken(%x) = %+v, %d; want first %x lo %x next %d", tt.data, tk, next, tt.first, tt.lo, tt.next)
		}
	}
	if tk, _ := ReadToken([]byte{0xE8, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0); tk.hi != 1 {
		t.Errorf("the ninth payload byte from the end is %x, want 1", tk.hi)
	}
}

// testFloats are floats of every class.
var testFloats = []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 111, -111, 112, -112, 113, 0.5, -0.5, 1.5, 0.25,
	0.1, math.Pi, 1e300, -1e-300, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	0x1p-1022, math.Float64frombits(0x000FFFFFFFFFFFFF), 1 << 53, 1<<53 + 2, 1 << 60, 3e20, math.Inf(1), math.Inf(-1), math.NaN()}

func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func TestFloatTokens_RoundTrip(t *testing.T) {
	t.Parallel()
	fs := append([]float64(nil), testFloats...)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		fs = append(fs, math.Float64frombits(rng.Uint64()), float64(rng.Int64N(1<<20)-1<<19)/float64(uint64(1)<<rng.IntN(12)))
	}
	for _, f := range fs {
		tok := AppendFloatToken(nil, f)
		tk, next := ReadToken(tok, 0)
		if g := DecodeFloat(tk); !sameFloat(f, g) || next != len(tok) {
			t.Fatalf("%v (%x): token %x decodes to %v (%x)", f, math.Float64bits(f), tok, g, math.Float64bits(g))
		}
	}
	for _, tt := range []struct {
		f   float64
		len int
	}{{0, 1}, {1, 1}, {-1, 1}, {112, 1}, {-111, 1}, {-112, 3}, {0.5, 2}, {0.25, 2}, {1.5, 4}, {math.Copysign(0, -1), 2}} {
		if tok := AppendFloatToken(nil, tt.f); len(tok) != tt.len {
			t.Errorf("the token of %v is %x, want %d bytes", tt.f, tok, tt.len)
		}
	}
	// Simpler values have shorter tokens.
	for _, pair := range [][2]float64{{0.5, 0.1}, {1000, 1000.5}, {1000.5, 1008.5}, {1.5, 0.75}, {1.5, math.Pi},
		{1e20, math.Inf(1)}, {-1e20, math.NaN()}, {3e20, 3.1e20}, {1001, 1024}, {1000, 1 << 40}} {
		if a, b := AppendFloatToken(nil, pair[0]), AppendFloatToken(nil, pair[1]); compareTokens(a, b) >= 0 {
			t.Errorf("the token of %v (%x) is not smaller than that of %v (%x)", pair[0], a, pair[1], b)
		}
	}
}

// checkFloatToken checks the token at data[0:] as checkIntToken does.
func checkFloatToken(t *testing.T, r FloatInterval, data []byte) {
	tk, next := ReadToken(data, 0)
	f := r.Clamp(DecodeFloat(tk))
	if !r.Contains(f) {
		t.Fatalf("%+v: %x decodes to %v, out of range", r, data, f)
	}
	canon := AppendFloatToken(nil, f)
	if tk2, _ := ReadToken(canon, 0); !sameFloat(r.Clamp(DecodeFloat(tk2)), f) {
		t.Fatalf("the canonical token %x of %v decodes to %v", canon, f, DecodeFloat(tk2))
	}
	raw := data[:min(next, len(data))]
	padded := append(bytes.Clone(raw), make([]byte, max(0, next-len(data)))...)
	// The canonical token is the smallest, except that an integer up to
	// 2⁵³ takes the integer class even where its other token is shorter
	// (1024), so that integers are ordered by magnitude.
	smallInt := f == math.Trunc(f) && math.Abs(f) <= exactInts
	if tk.First < BoundaryTokens && r.Contains(DecodeFloat(tk)) && !smallInt && compareTokens(canon, padded) > 0 {
		t.Fatalf("%x decodes to %v, whose canonical token %x is larger", padded, f, canon)
	}
}

func TestDecodeFloat_Exhaustive2(t *testing.T) {
	t.Parallel()
	for a := range 256 {
		for b := range 256 {
			checkFloatToken(t, AnyFloat, []byte{byte(a), byte(b)})
			checkFloatToken(t, FloatInterval{Lo: 0.3, Hi: 0.7}, []byte{byte(a), byte(b)})
		}
	}
}

func TestFloatRange_Simplest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		lo, hi, want float64
	}{{-1, 1, 0}, {0.3, 0.7, 0.5}, {-0.7, -0.3, -0.5}, {2.5, 10, 3}, {-10, -2.5, -3}, {0.3, 0.31, 0.3046875}, {5, 5, 5}} {
		if got := (FloatInterval{Lo: tt.lo, Hi: tt.hi}).Simplest(); got != tt.want {
			t.Errorf("simplest of [%v, %v] = %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestExponentRank(t *testing.T) {
	t.Parallel()
	seen := map[uint64]bool{}
	for e := uint64(0); e < 2047; e++ {
		k := exponentRank(e)
		if k > 2046 || seen[k] || exponentOfRank(k) != e {
			t.Fatalf("exponent %d: rank %d, back %d", e, k, exponentOfRank(k))
		}
		seen[k] = true
	}
}

// FuzzChoiceDecode decodes any bytes as a sequence of choices of kinds the
// input picks, and checks that every choice is valid, that its canonical
// token decodes to it, and that it is no larger than what it was decoded
// from, unless a boundary token.
func FuzzChoiceDecode(f *testing.F) {
	f.Add([]byte{0, 1}, []byte{1, 2, 0xE1, 0xFF, 0xFF, 0xF0})
	f.Add([]byte{5}, []byte{0xE8, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, kinds, data []byte) {
		for pos, i := 0, 0; pos < len(data); i++ {
			k := byte(0)
			if len(kinds) > 0 {
				k = kinds[i%len(kinds)]
			}
			_, next := ReadToken(data, pos)
			if k%4 == 3 {
				checkFloatToken(t, AnyFloat, data[pos:])
			} else {
				checkIntToken(t, testRanges[int(k/4)%len(testRanges)], data[pos:])
			}
			pos = next
		}
	})
}

// FuzzChoiceRoundTrip checks decode(canonical(v)) = v for integers of any
// range and floats of any bits.
func FuzzChoiceRoundTrip(f *testing.F) {
	f.Add(uint64(0), uint64(5), uint64(3), true)
	f.Add(uint64(1<<63), uint64(1<<63-1), uint64(1<<63+7), true)
	f.Fuzz(func(t *testing.T, lo, hi, v uint64, signed bool) {
		r := Interval{signed, min(lo, hi), max(lo, hi)}
		if signed && int64(lo) > int64(hi) {
			r.Lo, r.Hi = hi, lo
		}
		if signed {
			if int64(r.Lo) > int64(r.Hi) {
				r.Lo, r.Hi = r.Hi, r.Lo
			}
		}
		if !r.contains(v) {
			v = r.Lo
		}
		k := r.Rank(v)
		tk, _ := ReadToken(AppendIntToken(nil, k), 0)
		if got := r.Value(DecodeInt(r, tk)); got != v {
			t.Fatalf("%+v: %d → rank %d → %d", r, v, k, got)
		}
		fv := math.Float64frombits(v)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		if tk, _ := ReadToken(AppendFloatToken(nil, fv), 0); !sameFloat(DecodeFloat(tk), fv) {
			t.Fatalf("float %v (%x) → %v", fv, v, DecodeFloat(tk))
		}
	})
}
