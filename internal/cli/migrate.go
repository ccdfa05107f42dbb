package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// fuzzmin migrate rewrites the entries of a fuzz target whose arguments
// changed (go.dev/issue/48717: go test then refuses every old entry) by an
// explicit mapping (mapping.go), checked against the target's new
// signature, which the test binary tells, before any file changes.

// migrateOptions are migrate's flags.
type migrateOptions struct {
	options // run is the target's name
	args    argList
	from    string
}

// argList is a flag that may be given many times.
type argList []string

func (a *argList) String() string     { return strings.Join(*a, " ") }
func (a *argList) Set(s string) error { *a = append(*a, s); return nil }

func defaultMigrateOptions() migrateOptions {
	return migrateOptions{options: defaultOptions()}
}

// ownFlags adds migrate's own flags to fs.
func (o *migrateOptions) ownFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.run, "run", o.run, "The fuzz target whose entries to migrate, by its `name` (required).")
	fs.Var(&o.args, "arg", "Where an argument of the target's new signature comes from: one -arg per argument, in order (required). A `source` is @N, the old argument N (from 1); T(@N), the old argument N converted to the native type T; or a value, as a corpus file spells it: int64(0), string(\"\"), []byte(\"\").")
	fs.StringVar(&o.from, "from", o.from, "The old signature, Go `types` separated by commas, as string,int. Without it the old signature is that of the target's stale entries, if they all have one.")
}

// flagSet returns migrate's flags: its own and the command's it takes;
// the commands table gives the manual the same set.
func (o *migrateOptions) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin migrate", flag.ContinueOnError)
	o.ownFlags(fs)
	o.addBuildFlags(fs)
	fs.BoolVar(&o.dryRun, "n", o.dryRun, "Migrate, but write nothing: show what would change.")
	return fs
}

// parse checks the flags and the package arguments, and parses the
// mapping and -from.
func (o *migrateOptions) parse(pkgs []string) (srcs []source, from []reflect.Type, err error) {
	if err := checkTargetName(o.run, "whose entries to migrate"); err != nil {
		return nil, nil, err
	}
	if len(o.args) == 0 {
		return nil, nil, errors.New("want one -arg per argument of the target's new signature")
	}
	if len(pkgs) > 1 {
		return nil, nil, fmt.Errorf("want one package, not %d", len(pkgs))
	}
	for _, a := range o.args {
		s, err := parseSource(a)
		if err != nil {
			return nil, nil, err
		}
		srcs = append(srcs, s)
	}
	if o.from != "" {
		if from, err = parseTypeList(o.from); err != nil {
			return nil, nil, err
		}
	}
	return srcs, from, o.checkDir()
}

func runMigrate(args []string, stdout, stderr io.Writer) int {
	o := defaultMigrateOptions()
	fs := o.flagSet()
	if code, ok := parseFlags(fs, "migrate", args, stdout, stderr); !ok {
		return code
	}
	srcs, from, err := o.parse(fs.Args())
	if err != nil {
		return subUsage(stderr, "migrate", err)
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &command{opts: o.options, match: &matcher{}, rep: newReporter(stdout, stderr, false, false), env: os.Environ()}
	return c.withPackages(ctx, patterns, writesSeeds, func(pkgs []*pkg) {
		m := &migration{srcs: srcs, from: from}
		if m.p, m.t, err = findTarget(pkgs, o.run); err != nil {
			c.rep.errorf("%v", err)
			c.fail(exitUsage)
			return
		}
		c.migrate(ctx, m)
	})
}

// A migration is the rewriting of one target's entries.
type migration struct {
	p        *pkg
	t        *target
	srcs     []source
	from, to []reflect.Type
	dir      string
	tracked  tracking
	steps    []migrateStep
}

// migrate builds the package, learns the target's signature, and rewrites
// its entries, each under its new name, if the mapping makes them fit it.
func (c *command) migrate(ctx context.Context, m *migration) {
	b, ok := c.build(ctx, m.p, filepath.Join(c.disk.path, "0"), []string{m.t.Name})
	if !ok {
		return
	}
	defer b.finish(ctx) // ends the go test run, which has nothing to check
	var err error
	if m.to, err = c.targetTypes(ctx, b, m.t); err != nil {
		c.rep.errorf("%s: %v", m.p.ImportPath, err)
		c.fail(exitFailure)
		return
	}
	if err := checkNew(m.srcs, m.to); err != nil {
		c.rep.errorf("%s%s: %v", m.t.Name, encoding.TypeList(m.to), err)
		c.fail(exitUsage)
		return
	}
	m.dir = corpus.SeedCorpus(m.p.Dir, m.t.Name)
	unlock, err := lockDir(m.dir)
	if err != nil {
		c.rep.errorf("%s: %v; nothing was migrated", c.rel(m.dir), err)
		c.fail(exitFailure)
		return
	}
	defer unlock()
	if !c.opts.dryRun {
		if err := corpus.RemoveTemporary(m.dir); err != nil {
			c.rep.verbosef("%s: removing temporary files: %v", c.rel(m.dir), err)
		}
	}
	entries, err := corpus.Read(m.dir)
	if err == nil && len(entries) > 0 {
		m.tracked = c.trackedFiles(ctx, m.dir)
	}
	if err != nil {
		c.rep.errorf("%s: %v", m.t.Name, err)
		c.fail(exitFailure)
		return
	}
	if !c.oldSignature(m, entries) {
		return
	}
	c.plan(m, entries)
	if !c.checkMigrated(ctx, b, m) {
		return
	}
	c.writeMigrated(m)
	c.reportMigration(m)
}

// oldSignature settles the signature the mapping maps from: -from, or the
// one that the entries go test refuses all have (none if there are none:
// m.from stays nil). It reports false if the mapping does not fit it.
func (c *command) oldSignature(m *migration, entries []corpus.Entry) bool {
	if m.from == nil {
		sigs := map[string]int{}
		var order []string
		for _, e := range entries {
			if e.Err != nil || slices.Equal(encoding.ValueTypes(e.Values), m.to) {
				continue
			}
			sig := encoding.TypeList(encoding.ValueTypes(e.Values))
			if sigs[sig] == 0 {
				order = append(order, sig)
				m.from = encoding.ValueTypes(e.Values)
			}
			sigs[sig]++
		}
		switch {
		case len(order) == 0:
			c.rep.infof("fuzzmin: %s%s: no entry has another signature: nothing to migrate (-from names an old signature that go test does not refuse, as when arguments of one type swap places)",
				m.t.Name, encoding.TypeList(m.to))
			return true
		case len(order) > 1:
			var each []string
			for _, sig := range order {
				each = append(each, fmt.Sprintf("%s in %s", sig, plural(sigs[sig], "entry", "entries")))
			}
			c.rep.errorf("the stale entries of %s have %d signatures, %s: name the one to migrate with -from", m.t.Name, len(order), strings.Join(each, ", "))
			c.fail(exitUsage)
			return false
		}
	}
	if err := checkOld(m.srcs, m.from, m.to); err != nil {
		c.rep.errorf("%s%s → %s%s: %v", m.t.Name, encoding.TypeList(m.from), m.t.Name, encoding.TypeList(m.to), err)
		c.fail(exitUsage)
		return false
	}
	var args []string
	for _, s := range m.srcs {
		args = append(args, strings.TrimSpace(s.text))
	}
	c.rep.infof("fuzzmin: %s%s → %s%s: %s%s", m.t.Name, encoding.TypeList(m.from), m.t.Name, encoding.TypeList(m.to), strings.Join(args, ", "), dropped(m.srcs, m.from))
	return true
}
