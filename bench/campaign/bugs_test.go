package campaignbench

import "testing"

func FuzzParseNum(f *testing.F) {
	f.Add("12")
	f.Fuzz(func(t *testing.T, s string) { ParseNum(s) })
}

func FuzzHeader(f *testing.F) {
	f.Add([]byte("data"))
	f.Fuzz(func(t *testing.T, b []byte) { Header(b) })
}

func FuzzSum(f *testing.F) {
	f.Add(1, 2)
	f.Fuzz(func(t *testing.T, a, b int) { Sum(a, b) })
}

func FuzzWords(f *testing.F) {
	f.Add("a few words")
	f.Fuzz(func(t *testing.T, s string) { Words(s) })
}

func FuzzPort(f *testing.F) {
	f.Add(uint16(80))
	f.Fuzz(func(t *testing.T, n uint16) { Port(n) })
}

func FuzzToken(f *testing.F) {
	f.Add("abc")
	f.Fuzz(func(t *testing.T, s string) { Token(s) })
}
