package cli

import (
	"context"
	"flag"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// cminCmd is fuzzmin cmin: it distills the packages' generated corpora.
type cminCmd struct {
	pipeline.Common
	sel       pipeline.SelectOptions
	dryRun    bool              // -n
	seed      bool              // the seed corpus too
	fuzzcache string            // instead of $GOCACHE/fuzz
	m         *pipeline.Matcher // sel's, once validated
}

func newCminCmd() cmd {
	return &cminCmd{Common: pipeline.DefaultCommon(), sel: pipeline.SelectOptions{Shard: pipeline.Shard{I: 1, N: 1}}}
}

func (o *cminCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	addSelectFlags(fs, &o.sel, "Distill")
	addRunFlags(fs, &o.RunOptions, "each measuring one entry at a time.", true)
	addOutputFlags(fs, &o.OutputOptions, false)
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Measure and choose, but remove nothing: show what would be removed.")
	fs.BoolVar(&o.seed, "seed", o.seed, "Distill the seed corpus too: its passing entries that git does not track may go; the committed ones stay.")
	fs.StringVar(&o.fuzzcache, "fuzzcache", o.fuzzcache, "Distill the generated corpora under `dir` (as <import path>/<Target>) instead of $GOCACHE/fuzz: a fuzz cache kept by CI, say.")
}

func (o *cminCmd) validate([]string) (err error) {
	o.m, err = o.sel.Matcher()
	return err
}

func (o *cminCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.Cmin(ctx, orDot(patterns), o.m, o.fuzzcache, o.seed, o.dryRun)
}
