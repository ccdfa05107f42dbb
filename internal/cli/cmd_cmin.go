package cli

import (
	"context"
	"flag"
)

// cminCmd is fuzzmin cmin: it distills the packages' generated corpora.
type cminCmd struct {
	common
	sel       selectOptions
	dryRun    bool     // -n
	seed      bool     // the seed corpus too
	fuzzcache string   // instead of $GOCACHE/fuzz
	m         *matcher // sel's, once validated
}

func newCminCmd() cmd {
	return &cminCmd{common: defaultCommon(), sel: selectOptions{shard: shard{1, 1}}}
}

func (o *cminCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.buildOptions)
	addSelectFlags(fs, &o.sel, "Distill")
	addRunFlags(fs, &o.runOptions, "each measuring one entry at a time.", true)
	addOutputFlags(fs, &o.outputOptions, false)
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Measure and choose, but remove nothing: show what would be removed.")
	fs.BoolVar(&o.seed, "seed", o.seed, "Distill the seed corpus too: its passing entries that git does not track may go; the committed ones stay.")
	fs.StringVar(&o.fuzzcache, "fuzzcache", o.fuzzcache, "Distill the generated corpora under `dir` (as <import path>/<Target>) instead of $GOCACHE/fuzz: a fuzz cache kept by CI, say.")
}

func (o *cminCmd) validate([]string) (err error) {
	o.m, err = o.sel.matcher()
	return err
}

func (o *cminCmd) run(ctx context.Context, c *runContext, patterns []string) int {
	return c.cmin(ctx, orDot(patterns), o.m, o.fuzzcache, o.seed, o.dryRun)
}
