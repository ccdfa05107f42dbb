package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
)

// migrateCmd is fuzzmin migrate.
type migrateCmd struct {
	pipeline.Common
	target string // -run: the target's name
	args   argList
	from   string
	dryRun bool
	m      *pipeline.Migration // once validated
}

// argList is a flag that may be given many times.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(s string) error { *a = append(*a, s); return nil }

func newMigrateCmd() cmd { return &migrateCmd{Common: pipeline.DefaultCommon()} }

// flags adds migrate's own flags and the command's it takes.
func (o *migrateCmd) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.target, "run", o.target, "The fuzz target whose entries to migrate, by its `name` (required).")
	fs.Var(&o.args, "arg", "Where an argument of the target's new signature comes from: one -arg per argument, in order (required). A `source` is @N, the old argument N (from 1); T(@N), the old argument N converted to the native type T; or a value, as a corpus file spells it: int64(0), string(\"\"), []byte(\"\").")
	fs.StringVar(&o.from, "from", o.from, "The old signature, Go `types` separated by commas, as string,int. Without it the old signature is that of the target's stale entries, if they all have one.")
	addBuildFlags(fs, &o.BuildOptions)
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Migrate, but write nothing: show what would change.")
}

// validate checks the flags and the package arguments, and parses the
// mapping and -from.
func (o *migrateCmd) validate(pkgs []string) (err error) {
	if o.m, err = pipeline.NewMigration(o.target, o.args, o.from, o.dryRun); err == nil && len(pkgs) > 1 {
		err = fmt.Errorf("want one package, not %d", len(pkgs))
	}
	return err
}

func (o *migrateCmd) run(ctx context.Context, c *pipeline.Run, patterns []string) int {
	return c.MigrateTarget(ctx, orDot(patterns), o.m)
}
