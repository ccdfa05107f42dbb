package testbin

import (
	"testing"
	"time"
)

func TestFuzzStatsLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want FuzzStats
		ok   bool
	}{
		{"fuzz: elapsed: 3s, execs: 77360 (25785/sec), new interesting: 1 (total: 2)", FuzzStats{3 * time.Second, 77360, 1}, true},
		{"fuzz: elapsed: 1m3s, execs: 12 (0/sec)", FuzzStats{63 * time.Second, 12, 0}, true},
		{"fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed", FuzzStats{}, false},
		{"fuzz: elapsed: 0s, execs: 1 (1/sec), new interesting: x (total: 2)", FuzzStats{}, false},
	} {
		m := fuzzStatsRE.FindStringSubmatch(tt.line)
		if (m != nil) != tt.ok {
			t.Errorf("%q: matched %v, want %v", tt.line, m != nil, tt.ok)
			continue
		}
		if m != nil && parseFuzzStats(m) != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.line, parseFuzzStats(m), tt.want)
		}
	}
}

func TestDeadlineRace(t *testing.T) {
	for _, tt := range []struct {
		tail []string
		want bool
	}{
		{[]string{"fuzz: elapsed: 3s, execs: 77360 (0/sec), new interesting: 1 (total: 2)", "--- FAIL: FuzzSafe (3.04s)", "    context deadline exceeded", "FAIL"}, true},
		{[]string{"--- FAIL: FuzzSafe (3.04s)", "    x_test.go:9: context deadline exceeded by the code", "FAIL"}, false},
		{[]string{"--- FAIL: FuzzSafe (0.01s)", "    --- FAIL: FuzzSafe/abc (0.00s)", "        context deadline exceeded", "FAIL"}, false},
		{[]string{"PASS"}, false},
	} {
		if got := deadlineRace(tt.tail); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.tail, got, tt.want)
		}
	}
}
