package testbin

import (
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

func TestWorkerFailure(t *testing.T) {
	const stack = "        goroutine 5 [running]:\n" +
		"        runtime/debug.Stack()\n" +
		"        \t/go/src/runtime/debug/stack.go:26 +0x5e\n" +
		"        testing.tRunner.func1()\n" +
		"        \t/go/src/testing/testing.go:1927 +0x1d0\n" +
		"        panic({0x5fc4a0?, 0x6343e9340c0?})\n" +
		"        \t/go/src/runtime/panic.go:860 +0x13a\n" +
		"        example.com/x.index(...)\n" +
		"        \t/src/x/x.go:5\n" +
		"        example.com/x.FuzzX.func1(0x0?, 0x32)\n" +
		"        \t/src/x/x_test.go:11 +0x7b\n"
	tests := []struct {
		name, out string
		want      failure.Signature
		msg       string
		ok        bool
	}{
		{"t.Fatal", "--- FAIL: FuzzX (0.00s)\n    x_test.go:9: a log line\n    x_test.go:12: too big\n",
			failure.Signature{Kind: failure.Fail, Pos: "x_test.go:12"}, "too big", true},
		{"runtime panic", "--- FAIL: FuzzX (0.00s)\n    x_test.go:9: a log line\n    testing.go:1927: panic: runtime error: index out of range [50] with length 2\n" + stack,
			failure.Signature{Kind: failure.Panic, Text: "runtime error: index out of range [N] with length N", Pos: "x.go:5"}, "", true},
		{"user panic", "--- FAIL: FuzzX (0.00s)\n    testing.go:1927: panic: bad header\n" + stack,
			failure.Signature{Kind: failure.Panic, Pos: "x.go:5"}, "bad header", true},
		{"message of two lines", "--- FAIL: FuzzX (0.00s)\n    testing.go:1927: panic: bad\n        header\n" + stack,
			failure.Signature{Kind: failure.Panic, Pos: "x.go:5"}, "bad", true},
		{"runtime.Goexit", "--- FAIL: FuzzX (0.00s)\n    testing.go:1927: test executed panic(nil) or runtime.Goexit\n" + stack,
			failure.Signature{}, "", false},
		{"not a test's output", "panic: boom\n", failure.Signature{}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig, msg, ok := workerFailure(tt.out, "/go")
			if sig != tt.want || msg != tt.msg || ok != tt.ok {
				t.Errorf("workerFailure = %v, %q, %v; want %v, %q, %v", sig, msg, ok, tt.want, tt.msg, tt.ok)
			}
		})
	}
}
