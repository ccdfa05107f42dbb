package cli

import (
	"context"
	"flag"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// checkCmd is fuzzmin check: it replays the packages' seed corpora and what
// else go test replays, and reports what it finds.
type checkCmd struct {
	pipeline.Common
	sel pipeline.SelectOptions
	pipeline.Checking
}

// newCheckCmd returns check with its defaults: -minimal runs a bounded
// search, which only says whether one would find something.
func newCheckCmd() cmd {
	s := pipeline.DefaultSearch()
	s.Timeout, s.MaxRuns, s.Explain = 30*time.Second, 1000, 0
	return &checkCmd{Common: pipeline.DefaultCommon(), sel: pipeline.SelectOptions{Shard: pipeline.Shard{I: 1, N: 1}}, Checking: pipeline.Checking{Search: s}}
}

func (o *checkCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	addSelectFlags(fs, &o.sel, "Check")
	addRunFlags(fs, &o.RunOptions, "one target's entries each.", true)
	addOutputFlags(fs, &o.OutputOptions, false)
	fs.BoolVar(&o.Minimal, "minimal", o.Minimal, "Also run a bounded search on each failing entry, and report those it can shrink. Nothing is written.")
	fs.BoolVar(&o.Github, "github", o.Github, "Also print each finding as a GitHub Actions annotation (::error or ::warning), as when GITHUB_ACTIONS is true.")
	fs.DurationVar(&o.Search.Timeout, "timeout", o.Search.Timeout, "With -minimal, the time budget of the search of an entry.")
	fs.IntVar(&o.Search.MaxRuns, "max-runs", o.Search.MaxRuns, "With -minimal, stop the search of an entry after `n` candidates.")
}

func (o *checkCmd) validate([]string) (err error) {
	o.Match, err = o.sel.Matcher()
	if err == nil {
		err = o.Search.Validate()
	}
	return err
}

func (o *checkCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.Check(ctx, orDot(patterns), &o.Checking)
}
