package shrink

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestCuts(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range cuts("abcd", pos{}, false) {
		got = append(got, c)
	}
	want := `["ab" "abc" "" "d" "cd" "a" "ad" "ab"]`
	if g := fmt.Sprintf("%q", got); g != want {
		t.Errorf("cuts = %s, want %s", g, want)
	}
	got = got[:0]
	for _, c := range cuts("héé", pos{}, true) {
		got = append(got, c)
	}
	for _, c := range got {
		if !strings.HasPrefix("héé", c) && !strings.HasSuffix("héé", c) && c != "hé" {
			t.Errorf("cuts of text proposed %q", c)
		}
	}
}

// toolchainMinimize is the toolchain's minimizer
// ($GOROOT/src/internal/fuzz/minimize.go, minimizeBytes), for comparison:
// try reports whether a candidate fails the same way.
func toolchainMinimize(v []byte, try func([]byte) bool) []byte {
	v = slices.Clone(v)
	for n := 1024; n != 0; n /= 2 {
		for len(v) > n && try(v[:len(v)-n]) {
			v = v[:len(v)-n]
		}
	}
	for i := 0; i < len(v)-1; i++ {
		if c := slices.Concat(v[:i], v[i+1:]); try(c) {
			v, i = c, i-1
		}
	}
	for i := 0; i < len(v)-1; i++ {
		for j := len(v); j > i+1; j-- {
			if c := slices.Concat(v[:i], v[j:]); try(c) {
				v, j = c, len(c)+1
			}
		}
	}
	return v // its printable replacements do not change the length
}

// TestCuts_NeverBehindToolchain: on random binary inputs and failures that
// depend on bytes at distances (a few marker bytes in order, a length
// field and the bytes it counts, a byte that must stay at an offset,
// records of a size no block removal has), the result is never longer
// than the toolchain's on the same input.
func TestCuts_NeverBehindToolchain(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	fails := []struct {
		name string
		f    func(b []byte) bool
	}{
		{"markers in order", func(b []byte) bool {
			i := slices.Index(b, 0xAA)
			return i >= 0 && slices.Contains(b[i:], 0xBB) && slices.Contains(b, 0xCC)
		}},
		{"a length and its bytes", func(b []byte) bool {
			return len(b) >= 2 && int(b[0]) == len(b)-1 && b[len(b)-1] > 0x80
		}},
		{"at an offset", func(b []byte) bool { return len(b) > 9 && b[9] == 0xEE && b[0] != 0 }},
		{"two runs", func(b []byte) bool {
			return strings.Count(string(b), "\xDD\xDD") >= 2
		}},
		{"records of 7 bytes", func(b []byte) bool {
			return len(b)%7 == 3 && slices.Contains(b, 0xAA)
		}},
	}
	for _, fc := range fails {
		for seed := range 50 {
			in := make([]byte, 20+rng.IntN(80))
			for i := range in {
				in[i] = byte(rng.Uint32())
			}
			// Plant what fails.
			switch fc.name {
			case "markers in order":
				in[rng.IntN(10)], in[10+rng.IntN(len(in)-10)], in[rng.IntN(len(in))] = 0xAA, 0xBB, 0xCC
			case "a length and its bytes":
				in[0], in[len(in)-1] = byte(len(in)-1), 0xF0
			case "at an offset":
				in[0], in[9] = 1, 0xEE
			case "records of 7 bytes":
				in = in[:(len(in)-3)/7*7+3]
				in[len(in)/2] = 0xAA
			case "two runs":
				copy(in[3:], "\xDD\xDD")
				copy(in[len(in)-4:], "\xDD\xDD")
			}
			if !fc.f(in) {
				continue
			}
			r, err := Shrink(context.Background(), []any{in}, Predicate(func(args []any) bool { return fc.f(args[0].([]byte)) }))
			if err != nil {
				t.Fatal(err)
			}
			got := r.Args[0].([]byte)
			tc := toolchainMinimize(in, fc.f)
			if len(got) > len(tc) {
				t.Errorf("%s, seed %d: %x → %d bytes %x, the toolchain's %d bytes %x", fc.name, seed, in, len(got), got, len(tc), tc)
			}
		}
	}
}
