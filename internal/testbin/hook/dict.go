//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"bufio"
	"math"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"
)

// DictEnv names the file of the literals of the package under test that
// a fuzz test run by fuzzOn tries in its inputs' places, beside the
// toolchain's mutations: one a line, "int N" (N an integer that fits an
// int64 or a uint64), "float F" or "string Q" (Q quoted as strconv.Quote
// quotes).
const DictEnv = "FUZZMIN_FUZZ_DICT"

// varyOneIn is how rarely an input gets a variant: one input in
// varyOneIn, on average, runs a second time with one value changed.
const varyOneIn = 16

// maxVaried bounds the length of a string or byte slice that a variant
// inserts a literal into.
const maxVaried = 1 << 16

// A dict holds the literals a worker tries. The toolchain's mutator
// changes an integer by at most 100 at a time and writes no word it has
// not seen, so a comparison with a constant (n == 31337, a+b < 0 at the
// edge of int, a keyword) is out of its reach; a variant puts such a
// constant, or an edge of the value's type, in one value's place. Its
// run only looks for failures: its coverage is not kept, so the
// coordinator's corpus and its replays stay the toolchain's own.
type dict struct {
	ints   []int64
	uints  []uint64
	floats []float64
	strs   []string
	rnd    *rand.Rand // a worker runs one input at a time
}

// readDict reads the literals of the file at path; with no path, the
// edges of the types alone are tried. An integer serves every numeric
// type, and its decimal form the strings.
func readDict(path string) (*dict, error) {
	d := &dict{rnd: rand.New(rand.NewSource(time.Now().UnixNano() ^ int64(os.Getpid())))}
	if path == "" {
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		kind, lit, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "int":
			if n, err := strconv.ParseInt(lit, 10, 64); err == nil {
				d.ints = append(d.ints, n)
				if n >= 0 {
					d.uints = append(d.uints, uint64(n))
				}
			} else if n, err := strconv.ParseUint(lit, 10, 64); err == nil {
				d.uints = append(d.uints, n)
			} else {
				continue
			}
			if x, err := strconv.ParseFloat(lit, 64); err == nil {
				d.floats = append(d.floats, x)
			}
			d.strs = append(d.strs, lit)
		case "float":
			if x, err := strconv.ParseFloat(lit, 64); err == nil {
				d.floats = append(d.floats, x)
			}
		case "string":
			if s, err := strconv.Unquote(lit); err == nil {
				d.strs = append(d.strs, s)
			}
		}
	}
	return d, sc.Err()
}

// vary returns vals with one value changed, or nil if this input gets
// no variant. vals is the worker's own, which its mutator changes in
// place: vary copies what it changes.
func (d *dict) vary(vals []interface{}) []interface{} {
	if len(vals) == 0 || d.rnd.Intn(varyOneIn) != 0 {
		return nil
	}
	out := make([]interface{}, len(vals))
	copy(out, vals)
	i := d.rnd.Intn(len(vals))
	switch v := vals[i].(type) {
	case int:
		out[i] = int(d.signed(math.MinInt, math.MaxInt))
	case int8:
		out[i] = int8(d.signed(math.MinInt8, math.MaxInt8))
	case int16:
		out[i] = int16(d.signed(math.MinInt16, math.MaxInt16))
	case int32:
		out[i] = int32(d.signed(math.MinInt32, math.MaxInt32))
	case int64:
		out[i] = d.signed(math.MinInt64, math.MaxInt64)
	case uint:
		out[i] = uint(d.unsigned(math.MaxUint))
	case uint8:
		out[i] = uint8(d.unsigned(math.MaxUint8))
	case uint16:
		out[i] = uint16(d.unsigned(math.MaxUint16))
	case uint32:
		out[i] = uint32(d.unsigned(math.MaxUint32))
	case uint64:
		out[i] = d.unsigned(math.MaxUint64)
	case float32:
		out[i] = float32(d.float(math.MaxFloat32))
	case float64:
		out[i] = d.float(math.MaxFloat64)
	case bool:
		out[i] = !v
	case string:
		out[i] = string(d.text([]byte(v)))
	case []byte:
		out[i] = d.text(v)
	}
	return out
}

// signed picks a literal of the package, its negation, one off either,
// or an edge of the type whose bounds are lo and hi.
func (d *dict) signed(lo, hi int64) int64 {
	if len(d.ints) > 0 && d.rnd.Intn(2) == 0 {
		n := d.ints[d.rnd.Intn(len(d.ints))]
		if d.rnd.Intn(4) == 0 {
			n = -n
		}
		return n + int64(d.rnd.Intn(3)-1)
	}
	edges := [...]int64{0, 1, -1, lo, lo + 1, hi, hi - 1, hi/2 + 1}
	return edges[d.rnd.Intn(len(edges))]
}

// unsigned is signed for an unsigned type of maximum hi.
func (d *dict) unsigned(hi uint64) uint64 {
	if len(d.uints) > 0 && d.rnd.Intn(2) == 0 {
		return d.uints[d.rnd.Intn(len(d.uints))] + uint64(d.rnd.Intn(3)) - 1
	}
	edges := [...]uint64{0, 1, hi, hi - 1, hi/2 + 1}
	return edges[d.rnd.Intn(len(edges))]
}

// float is signed for a floating-point type of maximum hi.
func (d *dict) float(hi float64) float64 {
	if len(d.floats) > 0 && d.rnd.Intn(2) == 0 {
		x := d.floats[d.rnd.Intn(len(d.floats))]
		if d.rnd.Intn(4) == 0 {
			x = -x
		}
		return x
	}
	edges := [...]float64{0, math.Copysign(0, -1), 1, -1, hi, -hi, math.Inf(1), math.Inf(-1), math.NaN()}
	return edges[d.rnd.Intn(len(edges))]
}

// text puts a string literal of the package in b's place, or inserts it
// or writes it over b at a random place; b is not changed.
func (d *dict) text(b []byte) []byte {
	if len(d.strs) == 0 || len(b) > maxVaried {
		return b
	}
	lit := d.strs[d.rnd.Intn(len(d.strs))]
	at := d.rnd.Intn(len(b) + 1)
	switch d.rnd.Intn(3) {
	case 0:
		return []byte(lit)
	case 1:
		out := make([]byte, 0, len(b)+len(lit))
		return append(append(append(out, b[:at]...), lit...), b[at:]...)
	default:
		out := append([]byte(nil), b...)
		if end := at + len(lit); end > len(out) {
			out = append(out, make([]byte, end-len(out))...)
		}
		copy(out[at:], lit)
		return out
	}
}
