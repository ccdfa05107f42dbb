package cli

import (
	"context"
	"flag"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// coverCmd is fuzzmin cover.
type coverCmd struct {
	pipeline.Common
	pattern string            // -run: the targets
	out     string            // -o: the profile
	m       *pipeline.Matcher // of -run, once validated
}

func newCoverCmd() cmd { return &coverCmd{Common: pipeline.DefaultCommon()} }

func (o *coverCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "Measure only the targets matching `regexp`.")
	fs.StringVar(&o.out, "o", o.out, "Write the coverage profile to `file` (required).")
	addRunFlags(fs, &o.RunOptions, "each measuring one entry at a time.", false)
	addOutputFlags(fs, &o.OutputOptions, false)
}

func (o *coverCmd) validate([]string) (err error) {
	o.m, err = pipeline.NewMatcher(o.pattern)
	return err
}

func (o *coverCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.Cover(ctx, orDot(patterns), o.m, o.out)
}
