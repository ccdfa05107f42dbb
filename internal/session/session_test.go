package session

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// TestConfigResult_RoundTrip pins that both files survive JSON both ways,
// verdicts and signatures included.
func TestConfigResult_RoundTrip(t *testing.T) {
	want := &failure.Signature{Kind: failure.Exit, Text: "exit status 3"}
	cfg := Config{Target: "FuzzX", Entry: "c000000", Verbose: true, MaxRuns: 10, Deadline: time.Unix(1e9, 5).UTC(), Runs: 3,
		Want: want, Known: map[string]shrink.Verdict{Key([]byte("a")): shrink.Pass, Key([]byte("b")): shrink.Fail, Key(nil): shrink.OtherFail}}
	res := Result{Best: []byte("go test fuzz v1\nint(1)\n"), Accepted: 2, Value: "int(1)", Add: "f.Add(int(1))", Want: *want,
		Runs: 9, Elapsed: 1500 * time.Millisecond, Stop: "done",
		Others: []Other{{Want: failure.Signature{Kind: failure.Panic, Pos: "x.go:1"}, Tuple: []byte{1, 2}}}, Error: "e"}
	for _, tt := range []struct{ in, out any }{{&cfg, &Config{}}, {&res, &Result{}}} {
		b, err := json.Marshal(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, tt.out); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(tt.in, tt.out) {
			t.Errorf("round trip of %s: got %+v", b, tt.out)
		}
	}
	// Verdicts are spelled by name, for a reader of the file.
	if b, _ := json.Marshal(map[string]shrink.Verdict{"k": shrink.OtherFail}); string(b) != `{"k":"other fail"}` {
		t.Errorf("a known verdict is written as %s, want {\"k\":\"other fail\"}", b)
	}
}

func TestRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), CurrentFile)
	if _, _, err := ReadRecord(path); !errors.Is(err, ErrNoRecord) {
		t.Fatalf("ReadRecord of a missing file: %v, want ErrNoRecord", err)
	}
	r, err := NewRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, _, err := ReadRecord(path); !errors.Is(err, ErrNoRecord) {
		t.Fatalf("ReadRecord of an empty file: %v, want ErrNoRecord", err)
	}
	// A shorter record written over a longer one: the length says where it
	// ends, nothing is truncated.
	for i, tuple := range [][]byte{[]byte("a longer tuple"), []byte("short"), {}} {
		if err := r.Write(i+7, tuple); err != nil {
			t.Fatal(err)
		}
		got, runs, err := ReadRecord(path)
		if err != nil || string(got) != string(tuple) || runs != i+7 {
			t.Errorf("ReadRecord after Write(%d, %q) = %q, %d, %v", i+7, tuple, got, runs, err)
		}
	}
}

func TestEvent_RoundTrip(t *testing.T) {
	for _, ev := range []Event{
		{Action: ActionPass, Pass: "remove", Round: 1, Runs: 0},
		{Action: ActionAccept, Pass: "ints", Round: 2, Runs: 17, Value: "Config{Items: []Item{{Count: 51}}}, int(4)"},
		{Action: ActionError, Error: "writing result.json: no space left on device"},
	} {
		line := AppendEvent(nil, ev)
		if line[len(line)-1] != '\n' {
			t.Fatalf("AppendEvent(%+v) = %q: no newline", ev, line)
		}
		got, ok := ParseEvent(line[:len(line)-1])
		if !ok || got != ev {
			t.Errorf("ParseEvent(%q) = %+v, %v, want %+v", line, got, ok, ev)
		}
	}
	for _, line := range []string{"", "--- FAIL: FuzzX", "fuzzmin event {}", "\x16fuzzmin event {", "\x16=== RUN   FuzzX/c"} {
		if ev, ok := ParseEvent([]byte(line)); ok {
			t.Errorf("ParseEvent(%q) = %+v, want no event", line, ev)
		}
	}
}

func TestKey(t *testing.T) {
	if Key([]byte("a")) == Key([]byte("b")) || Key([]byte("a")) != Key([]byte("a")) || len(Key(nil)) != 32 {
		t.Errorf("Key: want 32 hex digits, equal for equal tuples only")
	}
}
