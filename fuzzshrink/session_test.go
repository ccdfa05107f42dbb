package fuzzshrink

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// TestTestOutput checks that the session reads a subtest's log as the
// command reads it from the test's output: were the testing package to
// keep it elsewhere, the in-process search would judge a t.Error by its
// position alone. (A log, not an error, so that this test passes.)
func TestTestOutput(t *testing.T) {
	if testing.Verbose() {
		t.Skip("a verbose test's log is written as it goes, not kept")
	}
	var pos, msg string
	t.Run("sub", func(t *testing.T) {
		defer func() { pos, msg = failure.LastLog(testOutput(t)) }()
		t.Log("a log line")
		t.Logf("got %v,\nwant %v", []int{1}, []int{2})
	})
	if pos != "session_test.go:21" || msg != "got [1],\nwant [2]" {
		t.Errorf("read %q at %q, want the second log entry at session_test.go:21", msg, pos)
	}
}
