package pipeline

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

func TestMain(m *testing.M) { testbintest.Main(m) }
