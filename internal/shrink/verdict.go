package shrink

import (
	"fmt"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// Verdict is an oracle's judgement of one candidate: the one verdict of
// both oracles, the command's and the in-process session's, which
// [Classify] gives them.
type Verdict int

// The verdicts an [Oracle] can return.
const (
	Pass      Verdict = iota // the candidate does not fail
	Fail                     // fails the same way as the original: the engine may accept it
	OtherFail                // fails, but differently (another bug): never accepted, counted in Stats
)

var verdictNames = [...]string{Pass: "pass", Fail: "fail", OtherFail: "other fail"}

// String returns the verdict's name: "pass", "fail" or "other fail".
func (v Verdict) String() string {
	if v >= 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// MarshalText spells the verdict as its String.
func (v Verdict) MarshalText() ([]byte, error) {
	if v < 0 || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("invalid verdict %d", int(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText reads what MarshalText wrote.
func (v *Verdict) UnmarshalText(b []byte) error {
	for i, name := range verdictNames {
		if string(b) == name {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("invalid verdict %q", b)
}

// Classify compares the signature of a candidate with the one kept: the
// same failure is Fail, another is OtherFail.
func Classify(got, want failure.Signature) Verdict {
	switch {
	case got == want:
		return Fail
	case got.Failed():
		return OtherFail
	}
	return Pass
}
