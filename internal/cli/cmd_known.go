package cli

import (
	"context"
	"flag"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// knownCmd is fuzzmin known: it replays the entries -run selects and adds
// the failure of each that fails to the known failures of its module.
type knownCmd struct {
	pipeline.Common
	pattern string            // the entries, Target/entry
	known   string            // the file to add to, instead of the module's
	m       *pipeline.Matcher // of -run, once validated
}

func newKnownCmd() cmd { return &knownCmd{Common: pipeline.DefaultCommon()} }

func (o *knownCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.BuildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "The entries whose failures to add, as `Target/entry` (regular expressions, as for go test -run).")
	fs.StringVar(&o.known, "known", o.known, "Add to `file` instead of "+pipeline.KnownName+" at the root of the package's module.")
	addRunFlags(fs, &o.RunOptions, "one target's entries each.", true)
	addOutputFlags(fs, &o.OutputOptions, false)
}

func (o *knownCmd) validate([]string) (err error) {
	o.m, err = pipeline.NewMatcher(o.pattern)
	return err
}

func (o *knownCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.AddKnown(ctx, orDot(patterns), o.m, o.known)
}
