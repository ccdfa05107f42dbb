package pipeline

import (
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

func TestJudgeFlaky(t *testing.T) {
	pass := failure.Signature{}
	race := failure.Signature{Kind: failure.Race, Pos: "race_test.go:25"}
	other := failure.Signature{Kind: failure.Race, Pos: "race_test.go:40"}
	panics := failure.Signature{Kind: failure.Panic, Text: "boom", Pos: "x_test.go:9"}
	tests := []struct {
		name  string
		sigs  []failure.Signature
		flaky string // "" if not flaky
		want  failure.Signature
	}{
		{"agree", []failure.Signature{panics, panics}, "", panics},
		{"passes", []failure.Signature{pass, pass}, "", pass},
		{"panic missed once", []failure.Signature{pass, panics, panics, panics}, "in 3 of 4 runs", panics},
		{"race missed first", []failure.Signature{pass, race, race, race}, "", race},
		{"race missed later", []failure.Signature{race, race, pass, race}, "", race},
		{"race missed twice", []failure.Signature{race, pass, race, pass}, "in 2 of 4 runs", race},
		{"another race", []failure.Signature{race, other, race, race}, "in 3 of 4 runs", race},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &entryJob{want: tt.sigs[0]}
			got := j.judgeFlaky(tt.sigs)
			if got != (tt.flaky != "") || !strings.Contains(j.flaky, tt.flaky) {
				t.Errorf("judgeFlaky = %v, flaky %q; want %v, %q", got, j.flaky, tt.flaky != "", tt.flaky)
			}
			if j.want != tt.want {
				t.Errorf("want = %v, want %v", j.want, tt.want)
			}
		})
	}
}
