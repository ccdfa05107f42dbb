package failure

import "fmt"

// A Verdict is how a candidate's failure compares with the one a search
// keeps. Its values are those of fuzzshrink.Verdict, so both oracles, the
// command's and the in-process session's, classify with [Classify].
type Verdict int

// The verdicts.
const (
	Pass  Verdict = iota // the candidate does not fail
	Same                 // it fails with the signature kept
	Other                // it fails another way: another bug
)

// Classify compares the signature of a candidate with the one kept.
func Classify(got, want Signature) Verdict {
	switch {
	case got == want:
		return Same
	case got.Failed():
		return Other
	}
	return Pass
}

var verdictNames = [...]string{Pass: "pass", Same: "same", Other: "other"}

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
