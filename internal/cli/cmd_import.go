package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
)

// importCmd is fuzzmin import.
type importCmd struct {
	common
	importing
}

// defaultMaxSize bounds the files import reads: crash testcases are small
// (OSS-Fuzz caps inputs at a few MiB), and a file larger than this is more
// likely a mistake, such as /dev/zero or a disk image, than a crash.
const defaultMaxSize = 16 << 20

func newImportCmd() cmd {
	return &importCmd{common: defaultCommon(), importing: importing{mz: minimizing{search: defaultSearch()}, pkg: ".", format: formatGofuzz, maxSize: defaultMaxSize}}
}

// flags adds import's own flags and the command's groups it takes, with
// the meaning they have for the command.
func (o *importCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.target, "run", o.target, "The fuzz target the files are crashes of, by its `name` (required).")
	fs.StringVar(&o.pkg, "pkg", o.pkg, "The `package` of the target, as go test names it.")
	fs.Var(&o.maxSize, "max-size", "Refuse a file larger than `size` bytes (a number, or with a suffix KiB, MiB or GiB); only regular files are read.")
	fs.StringVar(&o.format, "format", o.format, "How to read each file: `gofuzz`, a go test fuzz v1 file, as go test, CI artifacts and bug reports hold them; v1 or v2, a raw libFuzzer testcase of an OSS-Fuzz or ClusterFuzzLite build made with compile_native_go_fuzzer (v1) or compile_native_go_fuzzer_v2 (v2); raw, the bytes as the value of the target's one []byte or string argument. Nothing in a raw testcase tells which build made it, so fuzzmin never guesses: a file that is not a go test fuzz v1 file needs -format.")
	addBuildFlags(fs, &o.buildOptions)
	addRunFlags(fs, &o.runOptions, minimizeProcs, false)
	addOutputFlags(fs, &o.outputOptions, true)
	addWriteFlags(fs, &o.mz.write)
	addSearchFlags(fs, &o.mz.search, true)
}

func (o *importCmd) validate(files []string) error {
	if err := checkTargetName(o.target, "the files are crashes of"); err != nil {
		return err
	}
	switch o.format {
	case formatGofuzz, formatV1, formatV2, formatRaw:
	default:
		return fmt.Errorf("-format %q: want gofuzz, v1, v2 or raw", o.format)
	}
	if len(files) == 0 {
		return errors.New("want the files to import")
	}
	return o.mz.search.validate()
}

func (o *importCmd) run(ctx context.Context, c *runContext, files []string) int {
	return c.importCrashes(ctx, &o.importing, files)
}
