package jp

import (
	"testing"

	"github.com/buger/jsonparser"
)

func FuzzGet(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,2,3]}}`), "a", "b")
	f.Fuzz(func(t *testing.T, data []byte, k1, k2 string) {
		jsonparser.Get(data, k1, k2)
	})
}

func FuzzDelete(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,2,3]}}`), "a", "b")
	f.Fuzz(func(t *testing.T, data []byte, k1, k2 string) {
		jsonparser.Delete(data, k1, k2)
	})
}

func FuzzSet(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,2,3]}}`), []byte(`1`), "a", "b")
	f.Fuzz(func(t *testing.T, data, v []byte, k1, k2 string) {
		jsonparser.Set(data, v, k1, k2)
	})
}

func FuzzEach(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		jsonparser.ObjectEach(data, func(k, v []byte, vt jsonparser.ValueType, off int) error { return nil })
		jsonparser.ArrayEach(data, func(v []byte, vt jsonparser.ValueType, off int, err error) {}, "a")
		jsonparser.EachKey(data, func(i int, v []byte, vt jsonparser.ValueType, err error) {}, []string{"a"}, []string{"a", "[1]", "b"})
	})
}
