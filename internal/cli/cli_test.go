package cli

import (
	"os"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

func TestMain(m *testing.M) {
	// The tests that run Main make this binary go test's -exec program.
	if len(os.Args) > 1 && os.Args[1] == testbin.ExecArg {
		os.Exit(testbin.RunExecWrapper(os.Args[2:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	testbintest.Cleanup()
	os.Exit(code)
}
