package testbin_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// protocolFiles are the toolchain's files checkProtocol reads, below src.
var protocolFiles = []string{"internal/fuzz/worker.go", "internal/fuzz/mem.go", "internal/fuzz/sys_posix.go", "testing/fuzz.go"}

func TestCheckProtocol(t *testing.T) {
	goroot, _ := testbintest.GoEnv(t)
	if err := testbin.CheckProtocol(filepath.Join(goroot, "src")); err != nil {
		t.Fatalf("the protocol of the toolchain on PATH: %v", err)
	}
}

// TestCheckProtocol_Drift checks that each change of the protocol that
// fuzzmin's worker would misread is found, in a copy of the toolchain's
// source changed as a release might change it.
func TestCheckProtocol_Drift(t *testing.T) {
	goroot, _ := testbintest.GoEnv(t)
	for _, tt := range []struct {
		name, file, old, new, want string
	}{
		{"a renamed call", "internal/fuzz/worker.go", "\tFuzz     *fuzzArgs", "\tFuzzing  *fuzzArgs", "worker.go: call has no field Fuzz"},
		{"a retyped argument", "internal/fuzz/worker.go", "\tLimit int64\n\n\t// Warmup", "\tLimit int32\n\n\t// Warmup", "worker.go: fuzzArgs.Limit is a int32, not a int64"},
		{"a response without its count", "internal/fuzz/worker.go", "\tCount int64\n\n\t// CoverageData is set", "\n\t// CoverageData is set", "worker.go: fuzzResponse has no field Count"},
		{"a minimize response without its mark", "internal/fuzz/worker.go", "\tWroteToMem bool", "\tWrote bool", "worker.go: minimizeResponse has no field WroteToMem"},
		{"a renamed minimize call", "internal/fuzz/worker.go", "\tMinimize *minimizeArgs", "\tMinimizing *minimizeArgs", "worker.go: call has no field Minimize"},
		{"reordered call fields", "internal/fuzz/worker.go", "\tPing     *pingArgs\n\tFuzz     *fuzzArgs", "\tFuzz     *fuzzArgs\n\tPing     *pingArgs", "worker.go: call has the fields [Fuzz Ping Minimize], not [Ping Fuzz Minimize]"},
		{"answers written otherwise", "internal/fuzz/worker.go", "enc := json.NewEncoder(ws.fuzzOut)", "enc := gob.NewEncoder(ws.fuzzOut)", "worker.go: calls and answers are no longer written by a json.Encoder"},
		{"a bigger header", "internal/fuzz/mem.go", "\trawInMem bool", "\trawInMem bool\n\tgeneration uint64", "mem.go: sharedMemHeader has the fields [count valueLen randState randInc rawInMem generation]"},
		{"reordered header fields", "internal/fuzz/mem.go", "randState, randInc uint64", "randInc, randState uint64", "mem.go: sharedMemHeader has the fields [count valueLen randInc randState rawInMem]"},
		{"an input at another offset", "internal/fuzz/mem.go", "valueOffset := int(unsafe.Sizeof(sharedMemHeader{}))", "valueOffset := int(unsafe.Sizeof(sharedMemHeader{})) + 8", "mem.go: the input no longer follows the header"},
		{"another descriptor", "internal/fuzz/sys_posix.go", `os.NewFile(5, "fuzz_mem")`, `os.NewFile(6, "fuzz_mem")`, "sys_posix.go: the worker no longer takes fuzz_mem as descriptor 5"},
		{"a renamed flag", "testing/fuzz.go", `"test.fuzzworker"`, `"test.fuzzworkermode"`, "testing/fuzz.go: no flag -test.fuzzworker"},
		{"a missing file", "internal/fuzz/sys_posix.go", "", "", "reading the toolchain's source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := t.TempDir()
			for _, f := range protocolFiles {
				b, err := os.ReadFile(filepath.Join(goroot, "src", f))
				if err != nil {
					t.Fatal(err)
				}
				if f == tt.file {
					if tt.old == "" {
						continue // the file is missing
					}
					if !strings.Contains(string(b), tt.old) {
						t.Fatalf("%s has no %q: the test no longer fits the toolchain", f, tt.old)
					}
					b = []byte(strings.Replace(string(b), tt.old, tt.new, 1))
				}
				os.MkdirAll(filepath.Join(src, filepath.Dir(f)), 0o777)
				if err := os.WriteFile(filepath.Join(src, f), b, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			err := testbin.CheckProtocol(src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("checkProtocol = %v, want %q", err, tt.want)
			}
		})
	}
}
