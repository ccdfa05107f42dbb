package cli

import (
	"context"
	"flag"
)

// knownCmd is fuzzmin known: it replays the entries -run selects and adds
// the failure of each that fails to the known failures of its module.
type knownCmd struct {
	common
	pattern string   // the entries, Target/entry
	known   string   // the file to add to, instead of the module's
	m       *matcher // of -run, once validated
}

func newKnownCmd() cmd { return &knownCmd{common: defaultCommon()} }

func (o *knownCmd) flags(fs *flag.FlagSet) {
	addBuildFlags(fs, &o.buildOptions)
	fs.StringVar(&o.pattern, "run", o.pattern, "The entries whose failures to add, as `Target/entry` (regular expressions, as for go test -run).")
	fs.StringVar(&o.known, "known", o.known, "Add to `file` instead of "+knownName+" at the root of the package's module.")
	addRunFlags(fs, &o.runOptions, "one target's entries each.", true)
	addOutputFlags(fs, &o.outputOptions, false)
}

func (o *knownCmd) validate([]string) (err error) {
	o.m, err = newMatcher(o.pattern)
	return err
}

func (o *knownCmd) run(ctx context.Context, c *runContext, patterns []string) int {
	return c.addKnown(ctx, orDot(patterns), o.m, o.known)
}
