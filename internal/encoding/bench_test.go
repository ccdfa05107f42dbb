package encoding

import (
	"math"
	"math/rand/v2"
	"testing"
)

// benchFiles are the inputs of the format benchmarks: a 1 MiB []byte of
// random bytes (most of them escaped, so the line is about 3 MiB), 1 MiB of
// printable text, and a file of 16 small values of every type.
func benchFiles() map[string][]any {
	rng := rand.New(rand.NewPCG(5, 6))
	random := make([]byte, 1<<20)
	text := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(rng.Uint32())
		text[i] = byte(' ' + rng.IntN(95))
	}
	return map[string][]any{
		"1MiBRandom": {random},
		"1MiBText":   {text},
		"16Values": {"hello, world", []byte("\x00\x01\xff"), true, -42, int8(-8), int16(1600), rune('☺'), int64(math.MinInt64),
			uint(42), byte('x'), uint16(65535), uint32(1 << 31), uint64(math.MaxUint64), float32(1.5), math.Pi, math.NaN()},
	}
}

func BenchmarkMarshal(b *testing.B) {
	for name, vals := range benchFiles() {
		b.Run(name, func(b *testing.B) {
			data, _ := Marshal(vals...)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(vals...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUnmarshal compares Unmarshal with the same decoding done through
// go/parser, as the toolchain does it.
func BenchmarkUnmarshal(b *testing.B) {
	for name, vals := range benchFiles() {
		data, err := Marshal(vals...)
		if err != nil {
			b.Fatal(err)
		}
		for _, impl := range []struct {
			name string
			fn   func([]byte) ([]any, error)
		}{{"scanner", Unmarshal}, {"goparser", referenceUnmarshal}} {
			b.Run(name+"/"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := impl.fn(data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
