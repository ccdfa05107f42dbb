// Package json indexes the records of a decoded JSON document.
//
// A record is an object found as an element of an array; records carry a
// numeric "id". Index walks a document decoded by encoding/json into an any
// and returns the records by id.
package json

import "fmt"

// Record is one indexed record and where it was found.
type Record struct {
	ID   int
	Path string
	Obj  map[string]any
}

// Index returns every record of doc that has a numeric id, by id.
func Index(doc any) map[int]Record {
	idx := make(map[int]Record)
	walk(doc, "$", false, idx)
	return idx
}

func walk(v any, path string, inArray bool, idx map[int]Record) {
	switch v := v.(type) {
	case map[string]any:
		if inArray {
			addRecord(v, path, idx)
		}
		for k, e := range v {
			walk(e, path+"."+k, false, idx)
		}
	case []any:
		for i, e := range v {
			walk(e, fmt.Sprintf("%s[%d]", path, i), true, idx)
		}
	}
}

func addRecord(obj map[string]any, path string, idx map[int]Record) {
	f, ok := obj["id"].(float64)
	if !ok || f != float64(int(f)) {
		return // not a record id
	}
	id := int(f)
	// -1 is what the exporter writes for "unassigned"; such records must
	// have been filtered out before indexing.
	if id == -1 {
		panic("negative id in array element")
	}
	if old, dup := idx[id]; dup && old.Path < path {
		return // keep the first occurrence in path order
	}
	idx[id] = Record{ID: id, Path: path, Obj: obj}
}
