package cli

import (
	"context"
	"flag"
)

// coverCmd is fuzzmin cover.
type coverCmd struct {
	common
	pattern string   // -run: the targets
	out     string   // -o: the profile
	m       *matcher // of -run, once validated
}

func newCoverCmd() cmd { return &coverCmd{common: defaultCommon()} }

func (o *coverCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.buildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "Measure only the targets matching `regexp`.")
	fs.StringVar(&o.out, "o", o.out, "Write the coverage profile to `file` (required).")
	addRunFlags(fs, &o.runOptions, "each measuring one entry at a time.", false)
	addOutputFlags(fs, &o.outputOptions, false)
}

func (o *coverCmd) validate([]string) (err error) {
	o.m, err = newMatcher(o.pattern)
	return err
}

func (o *coverCmd) run(ctx context.Context, c *runContext, patterns []string) int {
	return c.cover(ctx, orDot(patterns), o.m, o.out)
}
