package cli

import (
	"context"
	"flag"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/campaign"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// fuzzCmd is fuzzmin fuzz.
type fuzzCmd struct {
	pipeline.Common
	pattern   string                 // -run: the targets
	shard     pipeline.Shard         // -shard: of the targets
	search    pipeline.SearchOptions // of the failures found
	budget    time.Duration          // -fuzztime: for all the targets
	known     string                 // the file of known failures, instead of the module's
	corpus    string                 // a directory that keeps the generated corpora
	corpusMax int                    // entries of a target's kept corpus past which it is distilled
	m         *pipeline.Matcher      // of -run and -shard, once validated
}

func newFuzzCmd() cmd {
	return &fuzzCmd{Common: pipeline.DefaultCommon(), shard: pipeline.Shard{I: 1, N: 1}, search: pipeline.DefaultSearch(), budget: 5 * time.Minute, corpusMax: 1000}
}

func (o *fuzzCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "Fuzz only the targets matching `regexp`.")
	fs.Var(&o.shard, "shard", "Fuzz only shard `i/n` of the targets: they are split into n shards by a hash of package and target, so that n jobs of a CI matrix, given 1/n to n/n, fuzz each target exactly once.")
	fs.DurationVar(&o.budget, "fuzztime", o.budget, "How long to fuzz and minimize what the fuzzing finds, all the targets together: the turns of the targets that run at once overlap, and the last eighth (20s at most) is for minimizing. Building, and the coverage and kept corpus after it, come on top.")
	fs.StringVar(&o.known, "known", o.known, "Read the known failures from `file` instead of "+pipeline.KnownName+" at the root of each package's module.")
	fs.StringVar(&o.corpus, "corpus", o.corpus, "Keep the generated corpora of the targets in `dir`, laid out as $GOCACHE/fuzz (<import path>/<Target>/): its entries are added to the fuzz cache before fuzzing, and the cache's copied back after, so that CI can keep the directory between runs with an ordinary cache. Nothing else in the fuzz cache is touched.")
	fs.IntVar(&o.corpusMax, "corpus-max", o.corpusMax, "With -corpus, distill a target's kept corpus, as fuzzmin cmin does, once it holds more than `n` entries.")
	addRunFlags(fs, &o.RunOptions, "targets fuzzed at once, each with GOMAXPROCS/n fuzz workers; minimizing a failure runs its candidates on n processes too.", true)
	addOutputFlags(fs, &o.OutputOptions, true)
	addSearchFlags(fs, &o.search, true)
}

func (o *fuzzCmd) validate([]string) (err error) {
	if o.m, err = (pipeline.SelectOptions{Pattern: o.pattern, Shard: o.shard}).Matcher(); err != nil {
		return err
	}
	return o.search.Validate()
}

func (o *fuzzCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return campaign.Run(ctx, c, orDot(patterns), campaign.Config{Match: o.m, Minimizing: pipeline.Minimizing{Search: o.search},
		Known: o.known, Fuzztime: o.budget, Corpus: o.corpus, CorpusMax: o.corpusMax})
}
