package cli

import (
	"context"
	"flag"
	"time"
)

// checkCmd is fuzzmin check: it replays the packages' seed corpora and what
// else go test replays, and reports what it finds.
type checkCmd struct {
	common
	sel selectOptions
	checking
}

// newCheckCmd returns check with its defaults: -minimal runs a bounded
// search, which only says whether one would find something.
func newCheckCmd() cmd {
	s := defaultSearch()
	s.timeout, s.maxRuns, s.explain = 30*time.Second, 1000, 0
	return &checkCmd{common: defaultCommon(), sel: selectOptions{shard: shard{1, 1}}, checking: checking{search: s}}
}

func (o *checkCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.buildOptions)
	addSelectFlags(fs, &o.sel, "Check")
	addRunFlags(fs, &o.runOptions, "one target's entries each.", true)
	addOutputFlags(fs, &o.outputOptions, false)
	fs.BoolVar(&o.minimal, "minimal", o.minimal, "Also run a bounded search on each failing entry, and report those it can shrink. Nothing is written.")
	fs.BoolVar(&o.github, "github", o.github, "Also print each finding as a GitHub Actions annotation (::error or ::warning), as when GITHUB_ACTIONS is true.")
	fs.DurationVar(&o.search.timeout, "timeout", o.search.timeout, "With -minimal, the time budget of the search of an entry.")
	fs.IntVar(&o.search.maxRuns, "max-runs", o.search.maxRuns, "With -minimal, stop the search of an entry after `n` candidates.")
}

func (o *checkCmd) validate([]string) (err error) {
	o.m, err = o.sel.matcher()
	if err == nil {
		err = o.search.validate()
	}
	return err
}

func (o *checkCmd) run(ctx context.Context, c *runContext, patterns []string) int {
	return c.check(ctx, orDot(patterns), &o.checking)
}
