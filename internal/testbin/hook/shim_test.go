//go:build darwin || freebsd || linux || openbsd

package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FuzzInputLog: what a child writes to the input log before it runs an
// input, the shim reads back as the same values, of every type a fuzz
// target takes, whatever their sizes (the log grows past its first size).
func FuzzInputLog(f *testing.F) {
	f.Add([]byte("a"), "b", int64(-1), uint64(2), 1.5, int32(3), byte(4), true, 0)
	f.Add([]byte{}, "", int64(math.MinInt64), uint64(math.MaxUint64), math.NaN(), int32(-1), byte(0), false, 100_000)
	path := filepath.Join(f.TempDir(), "log")
	f.Fuzz(func(t *testing.T, b []byte, s string, i int64, u uint64, x float64, r int32, c byte, ok bool, grow int) {
		file, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		if err := file.Truncate(64); err != nil {
			t.Fatal(err)
		}
		grow = int(uint(grow) % 200_000)
		vals := []interface{}{b, s, i, int(i), int8(i), int16(i), u, uint(u), uint16(u), uint32(u), x, float32(x), r, c, ok, strings.Repeat("g", grow)}
		l := &inputLog{f: file}
		if err := l.grow(0); err != nil {
			t.Fatal(err)
		}
		defer func() { syscall.Munmap(l.m) }()
		l.put([]interface{}{"an input before"})
		l.put(vals)
		got := (&shim{log: file}).running()
		// NaN is not equal to itself: compare the bits.
		same := len(got) == len(vals)
		for k := 0; same && k < len(vals); k++ {
			switch v := vals[k].(type) {
			case float64:
				g, ok := got[k].(float64)
				same = ok && math.Float64bits(g) == math.Float64bits(v)
			case float32:
				g, ok := got[k].(float32)
				same = ok && math.Float32bits(g) == math.Float32bits(v)
			default:
				same = reflect.DeepEqual(got[k], v)
			}
		}
		if !same {
			t.Fatalf("the log read back %#v, want %#v", got, vals)
		}
	})
}

// TestInputLogNone: a log with no input written, as the shim leaves it
// before each call, reads as none.
func TestInputLogNone(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	file.Truncate(64)
	if got := (&shim{log: file}).running(); got != nil {
		t.Errorf("an empty log read as %#v", got)
	}
}

// TestReadCall: the shim tells the coordinator's calls apart as
// json.Encoder writes the toolchain's call (every field, in order, one
// set), and reads a minimization's coverage to keep.
func TestReadCall(t *testing.T) {
	type args struct {
		Timeout      time.Duration
		CoverageData []byte
	}
	type toolchainCall struct { // internal/fuzz's, its fields in order
		Ping     *struct{}
		Fuzz     *args
		Minimize *minimizeArgs
	}
	var lines [3]bytes.Buffer
	for i, c := range []toolchainCall{{Ping: &struct{}{}}, {Fuzz: &args{time.Second, []byte("cov\n}")}}, {Minimize: &minimizeArgs{KeepCoverage: []byte{1, 2}}}} {
		if err := json.NewEncoder(&lines[i]).Encode(c); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []string{"ping", "fuzz", "minimize [1 2]"} {
		c, err := readCall(lines[i].Bytes())
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case c.Ping != nil && c.Fuzz == nil && c.Minimize == nil:
			got = "ping"
		case c.Fuzz != nil && c.Ping == nil && c.Minimize == nil:
			got = "fuzz"
		case c.Minimize != nil && c.Ping == nil && c.Fuzz == nil:
			got = fmt.Sprint("minimize ", c.Minimize.KeepCoverage)
		}
		if got != want {
			t.Errorf("readCall(%q): %s, want %s", lines[i].String(), got, want)
		}
	}
	for _, line := range []string{"", "{}\n", `{"Fuzz":{},"Ping":null,"Minimize":null}` + "\n", `{"Ping":null,"Fuzz":null,"Minimize":{"KeepCoverage":1}}` + "\n"} {
		if _, err := readCall([]byte(line)); err == nil {
			t.Errorf("readCall(%q) read a call", line)
		}
	}
}
