package cli

import (
	"context"
	"flag"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// exportCmd is fuzzmin export.
type exportCmd struct {
	pipeline.Common
	pattern string            // -run: the targets
	out     string            // -o: the directory
	format  string            // formatV2 or formatRaw
	zip     bool              // also <Target>_seed_corpus.zip
	m       *pipeline.Matcher // of -run, once validated
}

func newExportCmd() cmd {
	return &exportCmd{Common: pipeline.DefaultCommon(), format: pipeline.FormatV2}
}

func (o *exportCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "Export only the targets matching `regexp`.")
	fs.StringVar(&o.out, "o", o.out, "Write each target's testcases into `dir`/<Target>/ (required); where targets of two packages share a name, each into dir/<package>_<Target>/, the package's path in its module with _ for /, as OSS-Fuzz projects name such fuzzers.")
	fs.StringVar(&o.format, "format", o.format, "The layout of a testcase: `v2`, as a build made with compile_native_go_fuzzer_v2 reads it (the default of OSS-Fuzz and ClusterFuzzLite for native Go fuzz targets), or raw, the bytes of a target's one []byte or string argument.")
	fs.BoolVar(&o.zip, "zip", o.zip, "Also write <Target>_seed_corpus.zip beside each target's directory, the seed corpus archive an OSS-Fuzz build script copies to $OUT.")
	addOutputFlags(fs, &o.OutputOptions, false)
}

func (o *exportCmd) validate([]string) (err error) {
	o.m, err = pipeline.NewMatcher(o.pattern)
	return err
}

func (o *exportCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.Export(ctx, orDot(patterns), o.m, o.out, o.format, o.zip)
}
