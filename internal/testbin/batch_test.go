package testbin_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// typesSrc is a target of every native fuzz type in an external test
// package, which fails with all its values printed.
const typesSrc = `package types_test

import "testing"

func FuzzTypes(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, s string, ok bool, i int, i8 int8, i16 int16, r rune, i64 int64,
		u uint, u8 byte, u16 uint16, u32 uint32, u64 uint64, f32 float32, f64 float64) {
		if ok {
			t.Fatalf("%q %q %v %d %d %d %q %d %d %d %d %d %d %v %v", b, s, ok, i, i8, i16, r, i64, u, u8, u16, u32, u64, f32, f64)
		}
	})
}
`

// TestBatch_Values checks that the batch worker runs every native type's
// values as the toolchain's worker does, in a target of the external test
// package.
func TestBatch_Values(t *testing.T) {
	dir, bin := testbintest.Build(t, "fuzzmin.test/types", map[string]string{"types_test.go": typesSrc, "types.go": "package types\n"})
	in, err := encoding.Marshal([]byte("\x00\xff"), "ünï\x00", true, -1, int8(-128), int16(300), 'ä', int64(-1<<63),
		uint(1<<63), byte(255), uint16(65535), uint32(1<<31), uint64(1<<64-1), float32(-1.5), 1e300)
	if err != nil {
		t.Fatal(err)
	}
	msgs := map[bool]string{}
	for _, batch := range []bool{true, false} {
		r := testbintest.Runner(t, bin, dir, "FuzzTypes", 5*time.Second)
		if !batch {
			testbin.NoHook(r)
		}
		sig, msg, err := testbin.JudgeInWorker(r, context.Background(), in, time.Second)
		if err != nil || sig.Kind != failure.Fail || r.InBatches() != batch {
			t.Fatalf("batch=%v: %v, %q, %v; batch worker: %v", batch, sig, msg, err, r.InBatches())
		}
		msgs[batch] = msg
	}
	want := `"\x00\xff" "ünï\x00" true -1 -128 300 'ä' -9223372036854775808 9223372036854775808 255 65535 2147483648 18446744073709551615 -1.5 1e+300`
	if msgs[true] != want || msgs[false] != want {
		t.Errorf("the batch worker's message:\n%s\nthe toolchain worker's:\n%s\nwant:\n%s", msgs[true], msgs[false], want)
	}
}

// TestBatch_Fallback checks that where the binary has no batch worker,
// candidates run in the toolchain's, and the user is told why under -v.
func TestBatch_Fallback(t *testing.T) {
	dir, bin := testbintest.BuildWithoutHooks(t, "fuzzmin.test/probe", map[string]string{"probe_test.go": probeSrc, "slow_test.go": slowSrc, "data.txt": "the user's file"})
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	var notes []string
	r.Note = func(msg string) { notes = append(notes, msg) }
	for range 2 {
		res, err := r.RunInWorker(context.Background(), [][]byte{probeInput(0), probeInput(2)}, testbin.Judge{})
		if err != nil || fmt.Sprint(res.Outcomes) != "[ok fail at probe_test.go:18]" {
			t.Fatalf("RunInWorker: %v, %v", res.Outcomes, err)
		}
		if !testbin.HasWorker(r) || r.InBatches() {
			t.Fatal("not in the toolchain's worker")
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "one per call in the toolchain's fuzz worker") {
		t.Errorf("notes: %q, want one that says the candidates run in the toolchain's worker", notes)
	}
}

// TestBatch_Calls checks that the batch worker runs a call's candidates
// up to the first that fails, and the rest in the next calls: each
// outcome is its own input's.
func TestBatch_Calls(t *testing.T) {
	dir, bin := buildProbe(t)
	r := testbintest.Runner(t, bin, dir, "FuzzProbe", 2*time.Second)
	var inputs [][]byte
	want := make([]string, 40)
	for i := range want {
		n := 0
		want[i] = "ok"
		if i%7 == 3 {
			n, want[i] = 2, "fail at probe_test.go:18"
		}
		inputs = append(inputs, probeInput(n))
	}
	// Enough passing inputs first for calls of many candidates.
	if _, err := r.RunInWorker(context.Background(), inputs[:1], testbin.Judge{}); err != nil {
		t.Fatal(err)
	}
	res, err := r.RunInWorker(context.Background(), inputs, testbin.Judge{})
	if err != nil || len(res.Outcomes) != len(want) {
		t.Fatalf("RunInWorker: %v, %v", res.Outcomes, err)
	}
	for i, sig := range res.Outcomes {
		if got := sig.String(); got != want[i] && !(want[i] == "ok" && !sig.Failed()) {
			t.Errorf("input %d: %s, want %s", i, got, want[i])
		}
	}
	// Stop ends the run at the input it names, as it does in processes.
	res, err = r.RunInWorker(context.Background(), inputs, testbin.Judge{Stop: func(i int, _ failure.Signature) bool { return i == 5 }})
	if err != nil || len(res.Outcomes) != 6 {
		t.Errorf("stopped at 5: %d outcomes, %v", len(res.Outcomes), err)
	}
	if !r.InBatches() {
		t.Error("not in the batch worker")
	}
}
