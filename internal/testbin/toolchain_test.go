package testbin_test

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

func TestSplitVersion(t *testing.T) {
	for _, tt := range []struct{ in, release, experiments string }{
		{"go1.26.8", "go1.26.8", ""},
		{"go1.26.8-X:jsonv2", "go1.26.8", "jsonv2"},
		{"go1.27.3-X:nogreenteagc,fieldtrack", "go1.27.3", "nogreenteagc,fieldtrack"},
		{"go1.26.8 X:jsonv2", "go1.26.8", "jsonv2"}, // as runtime.Version says it
		{"devel go1.28-abcdef", "devel go1.28-abcdef", ""},
		{"", "", ""},
	} {
		release, experiments := testbin.SplitVersion(tt.in)
		if release != tt.release || experiments != tt.experiments {
			t.Errorf("SplitVersion(%q) = %q, %q; want %q, %q", tt.in, release, experiments, tt.release, tt.experiments)
		}
	}
}
