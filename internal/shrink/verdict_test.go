package shrink

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

func TestClassify(t *testing.T) {
	want := failure.Signature{Kind: failure.Fail, Pos: "x.go:2"}
	for _, tt := range []struct {
		got  failure.Signature
		want Verdict
	}{
		{failure.Signature{}, Pass},
		{want, Fail},
		{failure.Signature{Kind: failure.Panic, Pos: "x.go:2"}, OtherFail},
		{failure.Signature{Kind: failure.Fail, Pos: "x.go:1"}, OtherFail},
	} {
		if v := Classify(tt.got, want); v != tt.want {
			t.Errorf("Classify(%v, %v) = %v, want %v", tt.got, want, v, tt.want)
		}
	}
	for _, v := range []Verdict{Pass, Fail, OtherFail} {
		b, err := v.MarshalText()
		var back Verdict
		if err != nil || back.UnmarshalText(b) != nil || back != v {
			t.Errorf("verdict %v does not survive MarshalText: %q, %v", v, b, err)
		}
	}
}
