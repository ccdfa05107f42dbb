//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestReadDict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dict")
	text := "int 31337\nint 18446744073709551615\nfloat 2.5\nstring \"FUZZ\\x00ME\"\nint x\nstring unquoted\nbogus 1\n"
	if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	d, err := readDict(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int64{31337}; !slices.Equal(d.ints, want) {
		t.Errorf("ints = %v, want %v", d.ints, want)
	}
	if want := []uint64{31337, math.MaxUint64}; !slices.Equal(d.uints, want) {
		t.Errorf("uints = %v, want %v", d.uints, want)
	}
	if want := []float64{31337, 18446744073709551615, 2.5}; !slices.Equal(d.floats, want) {
		t.Errorf("floats = %v, want %v", d.floats, want)
	}
	if want := []string{"31337", "18446744073709551615", "FUZZ\x00ME"}; !slices.Equal(d.strs, want) {
		t.Errorf("strs = %q, want %q", d.strs, want)
	}
	if _, err := readDict(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("readDict of a missing file succeeded")
	}
}

// TestVary checks that a variant changes one value at most, keeps every
// value's type, leaves the worker's values alone, and reaches the
// package's literals and the edges of the types.
func TestVary(t *testing.T) {
	d := &dict{ints: []int64{31337}, uints: []uint64{31337}, floats: []float64{2.5}, strs: []string{"FUZZME"},
		rnd: rand.New(rand.NewSource(1))}
	b := []byte("abc")
	vals := []interface{}{int(1), uint16(80), "xyz", b, 1.5, true, int8(3)}
	orig := slices.Clone(vals)
	seen := map[string]bool{}
	variants := 0
	for i := 0; i < 20000; i++ {
		out := d.vary(vals)
		if out == nil {
			continue
		}
		variants++
		if !reflect.DeepEqual(vals, orig) || string(b) != "abc" {
			t.Fatalf("vary changed its argument: %v", vals)
		}
		changed := 0
		for k := range out {
			if reflect.TypeOf(out[k]) != reflect.TypeOf(vals[k]) {
				t.Fatalf("value %d: %T became %T", k, vals[k], out[k])
			}
			if !reflect.DeepEqual(out[k], vals[k]) {
				changed++
			}
		}
		if changed > 1 {
			t.Fatalf("variant %v changes %d values", out, changed)
		}
		switch {
		case out[0] == math.MaxInt:
			seen["max int"] = true
		case out[1] == uint16(31337):
			seen["31337"] = true
		case out[2] == "FUZZME":
			seen["FUZZME"] = true
		case string(out[3].([]byte)) == "aFUZZMEbc":
			seen["inserted"] = true
		case out[4] == 2.5:
			seen["2.5"] = true
		case out[5] == false:
			seen["flipped"] = true
		case out[6] == int8(math.MinInt8):
			seen["min int8"] = true
		}
	}
	if variants < 20000/varyOneIn/2 || variants > 20000/varyOneIn*2 {
		t.Errorf("%d variants of 20000 inputs, want about one in %d", variants, varyOneIn)
	}
	for _, want := range []string{"max int", "31337", "FUZZME", "inserted", "2.5", "flipped", "min int8"} {
		if !seen[want] {
			t.Errorf("no variant gave %s", want)
		}
	}
}
