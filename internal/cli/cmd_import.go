package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// importCmd is fuzzmin import.
type importCmd struct {
	pipeline.Common
	pipeline.Importing
}

// defaultMaxSize bounds the files import reads: crash testcases are small
// (OSS-Fuzz caps inputs at a few MiB), and a file larger than this is more
// likely a mistake, such as /dev/zero or a disk image, than a crash.
const defaultMaxSize = 16 << 20

func newImportCmd() cmd {
	return &importCmd{Common: pipeline.DefaultCommon(), Importing: pipeline.Importing{Minimizing: pipeline.Minimizing{Search: pipeline.DefaultSearch()}, Pkg: ".", Format: pipeline.FormatGofuzz, MaxSize: defaultMaxSize}}
}

// flags adds import's own flags and the command's groups it takes, with
// the meaning they have for the command.
func (o *importCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Target, "run", o.Target, "The fuzz target the files are crashes of, by its `name` (required).")
	fs.StringVar(&o.Pkg, "pkg", o.Pkg, "The `package` of the target, as go test names it.")
	fs.Var(&o.MaxSize, "max-size", "Refuse a file larger than `size` bytes (a number, or with a suffix KiB, MiB or GiB); only regular files are read.")
	fs.StringVar(&o.Format, "format", o.Format, "How to read each file: `gofuzz`, a go test fuzz v1 file, as go test, CI artifacts and bug reports hold them; v1 or v2, a raw libFuzzer testcase of an OSS-Fuzz or ClusterFuzzLite build made with compile_native_go_fuzzer (v1) or compile_native_go_fuzzer_v2 (v2); raw, the bytes as the value of the target's one []byte or string argument. Nothing in a raw testcase tells which build made it, so fuzzmin never guesses: a file that is not a go test fuzz v1 file needs -format.")
	addBuildFlags(fs, &o.BuildOptions)
	addRunFlags(fs, &o.RunOptions, minimizeProcs, false)
	addOutputFlags(fs, &o.OutputOptions, true)
	addWriteFlags(fs, &o.Minimizing.Write)
	addSearchFlags(fs, &o.Minimizing.Search, true)
}

func (o *importCmd) validate(files []string) error {
	if err := pipeline.CheckTargetName(o.Target, "the files are crashes of"); err != nil {
		return err
	}
	switch o.Format {
	case pipeline.FormatGofuzz, pipeline.FormatV1, pipeline.FormatV2, pipeline.FormatRaw:
	default:
		return fmt.Errorf("-format %q: want gofuzz, v1, v2 or raw", o.Format)
	}
	if len(files) == 0 {
		return errors.New("want the files to import")
	}
	return o.Minimizing.Search.Validate()
}

func (o *importCmd) run(ctx context.Context, c *pipeline.Run, files []string) int {
	return c.Import(ctx, &o.Importing, files)
}
