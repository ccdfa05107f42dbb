package testbin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFuzzStatsLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want FuzzStats
		ok   bool
	}{
		{"fuzz: elapsed: 3s, execs: 77360 (25785/sec), new interesting: 1 (total: 2)", FuzzStats{Elapsed: 3 * time.Second, Execs: 77360, New: 1, Corpus: 2}, true},
		{"fuzz: elapsed: 1m3s, execs: 12 (0/sec)", FuzzStats{Elapsed: 63 * time.Second, Execs: 12}, true},
		{"fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed", FuzzStats{}, false},
		{"fuzz: elapsed: 0s, execs: 1 (1/sec), new interesting: x (total: 2)", FuzzStats{}, false},
	} {
		m := fuzzStatsRE.FindStringSubmatch(tt.line)
		if (m != nil) != tt.ok {
			t.Errorf("%q: matched %v, want %v", tt.line, m != nil, tt.ok)
			continue
		}
		if m != nil && parseFuzzStats(m, 0) != tt.want {
			t.Errorf("%q: %+v, want %+v", tt.line, parseFuzzStats(m, 0), tt.want)
		}
	}
}

// TestCoverageBits checks the lines of GODEBUG=fuzzdebug=1 that say the
// coverage, and the setting added to the user's GODEBUG.
func TestCoverageBits(t *testing.T) {
	for line, want := range map[string]int{
		"2026-12-06 19:10:34.123456789 DEBUG finished processing input corpus, entries: 3, initial coverage bits: 41":                                41,
		"2026-12-06 19:10:35.5 DEBUG new interesting input, id: 5d3e, parent: 9a1b, gen: 2, new bits: 3, total bits: 44, size: 12, exec time: 1.2µs": 44,
		"2026-12-06 19:10:34.1 DEBUG processed an initial input, id: 9a1b, new bits: 7, size: 3, exec time: 4µs":                                     0,
		"2026-12-06 19:10:36.1 DEBUG worker reported interesting input that doesn't expand coverage, id: 77aa, parent: 5d3e, canMinimize: true":      0,
	} {
		_, debug, ok := strings.Cut(line, fuzzDebug)
		got := 0
		if m := coverageBitsRE.FindStringSubmatch(debug); ok && m != nil {
			got, _ = strconv.Atoi(m[1])
		}
		if got != want {
			t.Errorf("%q: %d bits, want %d", line, got, want)
		}
	}
	for _, tc := range []struct{ env, want []string }{
		{[]string{"HOME=/h"}, []string{"HOME=/h", "GODEBUG=fuzzdebug=1"}},
		{[]string{"GODEBUG=panicnil=1", "HOME=/h"}, []string{"HOME=/h", "GODEBUG=panicnil=1,fuzzdebug=1"}},
		{[]string{"GODEBUG=", "HOME=/h"}, []string{"HOME=/h", "GODEBUG=fuzzdebug=1"}},
	} {
		orig := slices.Clone(tc.env)
		if got := withGODEBUG(tc.env, "fuzzdebug=1"); !slices.Equal(got, tc.want) {
			t.Errorf("withGODEBUG(%q) = %q, want %q", tc.env, got, tc.want)
		}
		if !slices.Equal(tc.env, orig) {
			t.Errorf("withGODEBUG changed its argument: %q", tc.env)
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

// TestReadFound checks that the failures the hook's workers recorded are
// read one of each kind, the smallest input of the kind with the counts
// of every worker summed, the earliest time its first failed, and that
// the directory is emptied.
func TestReadFound(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"aaaa-10.input":      "go test fuzz v1\nstring(\"long input\")\n",
		"aaaa-10.count":      "4",
		"aaaa-10.first":      "2000000000",
		"aaaa-11.first":      "1000000000",
		"aaaa-11.input":      "go test fuzz v1\nstring(\"a\")\n",
		"aaaa-11.count":      "2",
		"bbbb-10.input":      "go test fuzz v1\nint(7)\n",
		"bbbb-10.count":      "1",
		"cccc-10.count":      "8", // its input not written yet: nothing to minimize
		"dddd-10.input.tmp":  "partial",
		"more-10.count":      "16",
		"variant-10":         "\x00\x00\x00\x00\x00\x00\x00\x00go test fuzz v1\nint(1)\n", // none running
		"variant-11":         "\x18\x00\x00\x00\x00\x00\x00\x00go test fuzz v1\nint(99)\n",
		"crash0-12.input":    "go test fuzz v1\nint(3)\n",
		"crash0-12.count":    "5",
		"crash0-12.first":    "3000000000",
		"crash0-12.variant0": "go test fuzz v1\nint(31337)\n",
		"slowest.ns":         "1500",
		"fatal-13":           "panic: a report left by a killed fuzzer",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	found, more, err := ReadFound(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Found{{Kind: "aaaa", Input: []byte("go test fuzz v1\nstring(\"a\")\n"), Count: 6, At: time.Unix(1, 0)}, {Kind: "bbbb", Input: []byte("go test fuzz v1\nint(7)\n"), Count: 1},
		{Kind: "crash0", Input: []byte("go test fuzz v1\nint(3)\n"), Count: 5, At: time.Unix(3, 0), Crash: true, Variants: [][]byte{[]byte("go test fuzz v1\nint(31337)\n")}},
		{Input: []byte("go test fuzz v1\nint(99)\n"), Count: 1, Variant: true}}
	if !reflect.DeepEqual(found, want) || more != 16 {
		t.Errorf("ReadFound = %v, %d; want %v, 16", found, more, want)
	}
	if des, _ := os.ReadDir(dir); len(des) != 1 || des[0].Name() != slowestFile {
		t.Errorf("left in the directory: %v, want %s alone", des, slowestFile)
	}
	if got := ReadSlowest(dir); got != 1500 {
		t.Errorf("ReadSlowest = %v, want 1.5µs", got)
	}
}

// TestRefused checks that the hook's refusal to fuzz past failures is read
// from the end of the fuzzer's output, with its reason.
func TestRefused(t *testing.T) {
	tail := []string{"--- FAIL: FuzzX (0.00s)", "    zz_fuzzmin_hook_test.go:7: fuzzmin cannot fuzz past failures: testing.F has no name", "FAIL"}
	if got := refused(tail); got != "testing.F has no name" {
		t.Errorf("refused = %q", got)
	}
	if got := refused([]string{"--- FAIL: FuzzX (0.00s)", "    x_test.go:9: boom"}); got != "" {
		t.Errorf("refused of a failure = %q, want \"\"", got)
	}
}

// TestHookStrings: what fuzzmin reads of the hook's output, and the
// variable it sets for it, are what the hook's source says.
func TestHookStrings(t *testing.T) {
	if !bytes.Contains(hookSource, []byte(`f.Fatalf("`+fuzzOnRefusal+`%v", err)`)) {
		t.Errorf("hook.go does not print %q when it refuses", fuzzOnRefusal)
	}
	if !bytes.Contains(fuzzOnSource, []byte(`const FuzzOnEnv = "`+fuzzOnEnv+`"`)) {
		t.Errorf("fuzzon.go does not name its directory %s", fuzzOnEnv)
	}
	if !bytes.Contains(fuzzOnSource, []byte(`const VariantPrefix = "`+variantPrefix+`"`)) {
		t.Errorf("fuzzon.go does not name its variants' files %s…", variantPrefix)
	}
	if !bytes.Contains(dictSource, []byte(`const DictEnv = "`+dictEnv+`"`)) {
		t.Errorf("dict.go does not name its file %s", dictEnv)
	}
	if !bytes.Contains(hangSource, []byte(`const MemEnv = "`+memEnv+`"`)) {
		t.Errorf("hang.go does not name its memory limit %s", memEnv)
	}
	if !bytes.Contains(shimSource, []byte(`const ShimEnv = "`+shimEnv+`"`)) {
		t.Errorf("the hook's ShimEnv is not %q", shimEnv)
	}
	if !bytes.Contains(hangSource, []byte(`const HangEnv = "`+hangEnv+`"`)) {
		t.Errorf("hang.go does not name its limit %s", hangEnv)
	}
	if !bytes.Contains(crashSource, []byte(`"`+fuzzingOnPast+`%v (%s)\n"`)) {
		t.Errorf("crash.go does not print %q when it goes on", fuzzingOnPast)
	}
	if !bytes.Contains(crashSource, []byte(`const CrashPrefix = "`+crashPrefix+`"`)) {
		t.Errorf("crash.go does not name its files %s…", crashPrefix)
	}
	if !bytes.Contains(crashSource, []byte(`const fatalPrefix = "`+fatalPrefix+`"`)) {
		t.Errorf("crash.go does not name its report files %s…", fatalPrefix)
	}
	if !bytes.Contains(hangSource, []byte(`const slowestFile = "`+slowestFile+`"`)) {
		t.Errorf("hang.go does not name its file %s", slowestFile)
	}
	// The hook judges hangs as Runner.Limit does.
	for _, c := range []string{fmt.Sprintf("hangFactor = %d", hangFactor), "hangFloor  = time.Second"} {
		if !bytes.Contains(hangSource, []byte(c)) {
			t.Errorf("hang.go does not say %q, as runner.go does", c)
		}
	}
	if hangFloor != time.Second {
		t.Errorf("hangFloor = %v: change hang.go's with it", hangFloor)
	}
}
