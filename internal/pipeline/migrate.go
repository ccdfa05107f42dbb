package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
)

// fuzzmin migrate rewrites the entries of a fuzz target whose arguments
// changed (go.dev/issue/48717: go test then refuses every old entry) by an
// explicit mapping (mapping.go), checked against the target's new
// signature, which the test binary tells, before any file changes.

// NewMigration returns the migration of the entries of the fuzz target
// named target by the mapping args (one source an argument) from the old
// signature from (Go types separated by commas; "" to learn it from the
// stale entries), writing nothing if dryRun.
func NewMigration(target string, args []string, from string, dryRun bool) (*Migration, error) {
	if err := CheckTargetName(target, "whose entries to migrate"); err != nil {
		return nil, err
	}
	if len(args) == 0 {
		return nil, errors.New("want one -arg per argument of the target's new signature")
	}
	m := &Migration{name: target, dryRun: dryRun}
	for _, a := range args {
		s, err := parseSource(a)
		if err != nil {
			return nil, err
		}
		m.srcs = append(m.srcs, s)
	}
	if from != "" {
		var err error
		if m.from, err = parseTypeList(from); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// MigrateTarget is fuzzmin migrate: it migrates m's target in the one
// package patterns name.
func (c *Run) MigrateTarget(ctx context.Context, patterns []string, m *Migration) int {
	return c.WithPackages(ctx, patterns, WritesSeeds, nil, func(pkgs []*Package) {
		var err error
		if m.p, m.t, err = findTarget(pkgs, m.name); err != nil {
			c.Rep.Errorf("%v", err)
			c.Fail(ExitUsage)
			return
		}
		c.migrate(ctx, m)
	})
}

// A Migration is the rewriting of one target's entries.
type Migration struct {
	name     string // of the target
	p        *Package
	t        *Target
	srcs     []source
	from, to []reflect.Type
	dir      string
	tracked  tracking
	steps    []migrateStep
	dryRun   bool // -n
}

// migrate builds the package, learns the target's signature, and rewrites
// its entries, each under its new name, if the mapping makes them fit it.
func (c *Run) migrate(ctx context.Context, m *Migration) {
	b, ok := c.Build(ctx, m.p, filepath.Join(c.Disk.Path, "0"), []string{m.t.Name})
	if !ok {
		return
	}
	defer b.finish(ctx) // ends the go test run, which has nothing to check
	var err error
	if m.to, err = c.targetTypes(ctx, b, m.t); err != nil {
		c.Rep.Errorf("%s: %v", m.p.ImportPath, err)
		c.Fail(ExitFailure)
		return
	}
	if err := checkNew(m.srcs, m.to); err != nil {
		c.Rep.Errorf("%s%s: %v", m.t.Name, encoding.TypeList(m.to), err)
		c.Fail(ExitUsage)
		return
	}
	m.dir = corpus.SeedCorpus(m.p.Dir, m.t.Name)
	unlock, err := lockDir(m.dir)
	if err != nil {
		c.Rep.Errorf("%s: %v; nothing was migrated", c.Rel(m.dir), err)
		c.Fail(ExitFailure)
		return
	}
	defer unlock()
	if !m.dryRun {
		if err := corpus.RemoveTemporary(m.dir); err != nil {
			c.Rep.Verbosef("%s: removing temporary files: %v", c.Rel(m.dir), err)
		}
	}
	entries, err := corpus.Read(m.dir)
	if err == nil && len(entries) > 0 {
		m.tracked = c.trackedFiles(ctx, m.dir)
	}
	if err != nil {
		c.Rep.Errorf("%s: %v", m.t.Name, err)
		c.Fail(ExitFailure)
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
func (c *Run) oldSignature(m *Migration, entries []corpus.Entry) bool {
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
			c.Rep.Infof("fuzzmin: %s%s: no entry has another signature: nothing to migrate (-from names an old signature that go test does not refuse, as when arguments of one type swap places)",
				m.t.Name, encoding.TypeList(m.to))
			return true
		case len(order) > 1:
			var each []string
			for _, sig := range order {
				each = append(each, fmt.Sprintf("%s in %s", sig, Plural(sigs[sig], "entry", "entries")))
			}
			c.Rep.Errorf("the stale entries of %s have %d signatures, %s: name the one to migrate with -from", m.t.Name, len(order), strings.Join(each, ", "))
			c.Fail(ExitUsage)
			return false
		}
	}
	if err := checkOld(m.srcs, m.from, m.to); err != nil {
		c.Rep.Errorf("%s%s → %s%s: %v", m.t.Name, encoding.TypeList(m.from), m.t.Name, encoding.TypeList(m.to), err)
		c.Fail(ExitUsage)
		return false
	}
	var args []string
	for _, s := range m.srcs {
		args = append(args, strings.TrimSpace(s.text))
	}
	c.Rep.Infof("fuzzmin: %s%s → %s%s: %s%s", m.t.Name, encoding.TypeList(m.from), m.t.Name, encoding.TypeList(m.to), strings.Join(args, ", "), dropped(m.srcs, m.from))
	return true
}
