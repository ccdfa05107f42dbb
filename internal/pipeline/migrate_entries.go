package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// What migrate does with each entry of the target, once the mapping is
// known to fit: plan, check with the test binary, write, report.

// The outcomes of an entry.
const (
	migrated    = "migrated"
	migrateFits = "fits"      // of the target's signature already: left alone
	unchanged   = "unchanged" // the mapping gives the same file
	malformed   = "malformed"
	stale       = "stale"        // of neither signature
	notMigrated = "not-migrated" // a value does not fit its new type
	migFailed   = "failed"       // writing or removing went wrong
)

// A migrateStep is what becomes of one entry.
type migrateStep struct {
	e      corpus.Entry
	status string
	vals   []any  // the new values
	data   []byte // and the new file
	path   string // where it goes
	err    error
	note   string
	kept   bool // the old file stays: it is also where an entry went
}

// plan decides what becomes of each entry: the entries of the old
// signature are mapped, the others are left alone.
func (c *Run) plan(m *Migration, entries []corpus.Entry) {
	dest := map[string]string{} // new path → the first entry that goes there
	for _, e := range entries {
		st := migrateStep{e: e}
		types := encoding.ValueTypes(e.Values)
		switch {
		case errors.Is(e.Err, corpus.ErrIsDir):
			continue // go test skips it too
		case e.Err != nil:
			st.status, st.err = malformed, errors.New(c.RelErr(e.Err))
		case m.from != nil && slices.Equal(types, m.from):
			st.vals, st.err = apply(m.srcs, e.Values, m.to)
			if st.err == nil {
				st.data, st.err = encoding.Marshal(st.vals...)
			}
			switch {
			case st.err != nil:
				st.status = notMigrated
			case bytes.Equal(st.data, e.Data):
				st.status = unchanged
			default:
				st.status = migrated
				st.path = filepath.Join(m.dir, corpus.Name(st.data))
				if first, ok := dest[st.path]; ok {
					st.note = fmt.Sprintf("%s/%s migrates to the same entry: the two are one now", m.t.Name, first)
				} else {
					dest[st.path] = e.Name
				}
			}
		case slices.Equal(types, m.to):
			st.status = migrateFits
		default:
			st.status = stale
			st.err = fmt.Errorf("its values %s are of neither the old signature %s nor the target's %s", encoding.TypeList(types), encoding.TypeList(m.from), encoding.TypeList(m.to))
		}
		m.steps = append(m.steps, st)
	}
	leaving := map[string]bool{} // the old files of migrated entries
	for i := range m.steps {
		st := &m.steps[i]
		if st.status != migrated {
			continue
		}
		leaving[st.e.Path] = true
		if _, ok := dest[st.e.Path]; ok {
			// Another entry migrates to this one's file (arguments of one
			// type swapped): it stays, as that entry's result.
			st.kept = true
		}
	}
	for i := range m.steps {
		st := &m.steps[i]
		if st.status != migrated || st.note != "" || leaving[st.path] {
			continue
		}
		if _, err := os.Stat(st.path); err == nil {
			st.note = "the corpus holds the new entry already: the two are one now"
		}
	}
}

// checkMigrated has the test binary read the migrated entries, as go test
// reads a seed corpus, before any is written: it must find none stale.
func (c *Run) checkMigrated(ctx context.Context, b *built, m *Migration) bool {
	var inputs [][]byte
	for _, st := range m.steps {
		if st.status == migrated {
			inputs = append(inputs, st.data)
		}
	}
	if len(inputs) == 0 {
		return true
	}
	r, err := b.bin.Runner(m.t.Name, filepath.Join(b.dir, "check"))
	if err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(ExitFailure)
		return false
	}
	// The testing package reads every file before it runs one: once an
	// entry has run, all were read.
	out, err := r.Run(ctx, inputs, testbin.Judge{Stop: func(int, failure.Signature) bool { return true }})
	switch {
	case err != nil:
		c.Rep.Errorf("checking the migrated entries: %v; nothing was migrated", err)
	case out.Stale != "":
		c.Rep.Errorf("the test binary refuses a migrated entry: %s; nothing was migrated", out.Stale)
	case len(out.Outcomes) == 0:
		c.Rep.Errorf("the test binary ran none of the migrated entries; nothing was migrated; it said:\n%s", out.Tail)
	default:
		return true
	}
	c.Fail(ExitFailure)
	return false
}

// writeMigrated writes every migrated entry under its new name,
// atomically, and then removes the old files whose new one was written
// (and that are no other entry's new file).
func (c *Run) writeMigrated(m *Migration) {
	if m.dryRun {
		return
	}
	for i := range m.steps {
		st := &m.steps[i]
		if st.status != migrated {
			continue
		}
		if _, err := WriteEntry(m.p.ModuleDir, m.dir, st.data); err != nil {
			st.status, st.err = migFailed, fmt.Errorf("writing the new entry: %s; the old one is unchanged", c.RelErr(err))
		}
	}
	for i := range m.steps {
		st := &m.steps[i]
		if st.status != migrated || st.kept || st.path == st.e.Path {
			continue
		}
		if err := removeEntry(m.p.ModuleDir, st.e.Path); err != nil {
			st.status, st.err = migFailed, fmt.Errorf("removing the old entry: %v; the new one is written", err)
		}
	}
}

// reportMigration reports each entry, then the counts, and raises the exit
// code for the entries left stale.
func (c *Run) reportMigration(m *Migration) {
	counts := map[string]int{}
	var order []string
	tracked := 0
	for _, st := range m.steps {
		status := st.status
		if status == migrated && m.dryRun {
			status = "would-migrate"
		}
		if counts[status] == 0 {
			order = append(order, status)
		}
		counts[status]++
		name := m.t.Name + "/" + st.e.Name
		var b strings.Builder
		switch st.status {
		case migrated:
			verb, old := "migrated", "removed "+c.Rel(st.e.Path)
			if m.dryRun {
				verb = "would migrate"
			}
			if st.kept || st.path == st.e.Path {
				old = "kept " + c.Rel(st.e.Path) + ", another entry's new file"
			}
			fmt.Fprintf(&b, "%s: %s\n\t%s\n", name, verb, preview(gosyntax.Call("f.Add", st.vals, "")))
			if m.dryRun {
				fmt.Fprintf(&b, "\twould write %s, %s (-n: nothing written)\n", c.Rel(st.path), strings.Replace(old, "removed", "remove", 1))
			} else {
				fmt.Fprintf(&b, "\twrote %s, %s\n", c.Rel(st.path), old)
			}
			if st.note != "" {
				fmt.Fprintf(&b, "\tnote: %s\n", st.note)
			}
			if m.tracked.files[st.e.Name] {
				fmt.Fprintf(&b, "\tnote: git tracks %s", c.Rel(st.e.Path))
				if !m.dryRun {
					b.WriteString(": commit the change")
				}
				b.WriteString("\n")
				tracked++
			}
		case migrateFits:
			fmt.Fprintf(&b, "%s: fits %s%s already; left alone\n", name, m.t.Name, encoding.TypeList(m.to))
		case unchanged:
			fmt.Fprintf(&b, "%s: the mapping leaves it as it is\n", name)
		default:
			fmt.Fprintf(&b, "%s: %s: %v; left alone\n", name, strings.ReplaceAll(st.status, "-", " "), st.err)
			c.Fail(ExitFailure)
		}
		c.Rep.Output(c.Rep.Out, m.p.ImportPath, name, b.String())
	}
	var parts []string
	for _, st := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[st], st))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to do")
	}
	c.Rep.Infof("fuzzmin: %s: %s: %s", m.t.Name, Plural(len(m.steps), "entry", "entries"), strings.Join(parts, ", "))
	if tracked > 0 && !m.dryRun {
		c.Rep.Infof("fuzzmin: git tracked %d of the old files: commit the change (git add -A %s)", tracked, c.Rel(m.dir))
	}
}
