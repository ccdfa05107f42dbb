package gj

import (
	"testing"

	"github.com/tidwall/gjson"
)

func FuzzGet(f *testing.F) {
	f.Add(`{"a":{"b":[1,2,3]}}`, "a.b.1")
	f.Fuzz(func(t *testing.T, json, path string) {
		gjson.Get(json, path)
	})
}

func FuzzParse(f *testing.F) {
	f.Add(`{"a":{"b":[1,2,3]}}`)
	f.Fuzz(func(t *testing.T, json string) {
		r := gjson.Parse(json)
		r.ForEach(func(k, v gjson.Result) bool { _ = v.String(); return true })
		_ = gjson.Valid(json)
	})
}

func FuzzModifiers(f *testing.F) {
	f.Add(`{"a":[3,1,2]}`, "a|@reverse")
	f.Fuzz(func(t *testing.T, json, path string) {
		gjson.Get(json, "@pretty|"+path)
		gjson.GetMany(json, path, path+".#")
	})
}

func FuzzSelf(f *testing.F) {
	f.Add(`{"a":{"b":[1,2,3]}}`)
	f.Fuzz(func(t *testing.T, s string) {
		gjson.Get(s, s)
	})
}
