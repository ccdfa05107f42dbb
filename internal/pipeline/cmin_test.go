package pipeline

import (
	"slices"
	"testing"

	"github.com/fuzzmin/fuzzmin/corpus"
)

func TestDistill(t *testing.T) {
	type in struct {
		name   string
		size   int
		blocks []int
		keep   bool
	}
	tests := []struct {
		name    string
		entries []in
		want    []string
	}{
		{"empty", nil, nil},
		{"no coverage", []in{{"a", 1, nil, false}}, nil},
		{"subset goes", []in{{"a", 1, []int{0, 1}, false}, {"b", 1, []int{1}, false}}, []string{"a"}},
		{"smaller among equals", []in{{"a", 9, []int{0, 1}, false}, {"b", 2, []int{0, 1}, false}}, []string{"b"}},
		{"name among equals", []in{{"b", 2, []int{0}, false}, {"a", 2, []int{0}, false}}, []string{"a"}},
		{"most new first", []in{
			{"a", 1, []int{0, 1}, false},
			{"b", 1, []int{2, 3}, false},
			{"c", 1, []int{0, 1, 2, 3, 4}, false},
			{"d", 1, []int{4, 5}, false},
		}, []string{"c", "d"}},
		{"kept whatever it covers", []in{
			{"a", 1, []int{0, 1}, false},
			{"f", 9, []int{0}, true},
			{"u", 9, nil, true},
		}, []string{"a", "f", "u"}},
		{"kept entries count as covering", []in{
			{"a", 1, []int{0, 1}, false},
			{"f", 9, []int{0, 1, 2}, true},
		}, []string{"f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []*cminEntry
			for _, e := range tt.entries {
				entries = append(entries, &cminEntry{
					Entry:  corpus.Entry{Name: e.name, Data: make([]byte, e.size)},
					blocks: e.blocks,
					keep:   e.keep,
				})
			}
			var got []string
			for e := range distill(entries) {
				got = append(got, e.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("distill kept %q, want %q", got, tt.want)
			}
		})
	}
}
