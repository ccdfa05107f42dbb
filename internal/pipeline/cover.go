package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// fuzzmin cover measures what the corpora of fuzz targets cover, the seed
// corpus and the generated one, as cmin measures it (each entry alone, by
// the test binary built for the set coverage of the main module's packages
// it links), and writes the union as a coverage profile that go tool cover
// reads (-func, -html).

// A Profile is a set coverage profile: its blocks, by position.
type Profile map[string]*profileBlock

// A profileBlock is a block of a profile: its statements, and whether a
// run covered it.
type profileBlock struct {
	stmts   int
	covered bool
}

// add adds the blocks of a profile in cmd/cover's format (a mode line,
// then "file:start.col,end.col statements count" a block).
func (pr Profile) add(data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || strings.HasPrefix(f[0], "mode:") {
			continue
		}
		stmts, err1 := strconv.Atoi(f[1])
		count, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			continue
		}
		b := pr[f[0]]
		if b == nil {
			b = &profileBlock{stmts: stmts}
			pr[f[0]] = b
		}
		b.covered = b.covered || count > 0
	}
}

// merge adds the blocks of o.
func (pr Profile) merge(o Profile) {
	for k, b := range o {
		if a := pr[k]; a != nil {
			a.covered = a.covered || b.covered
		} else {
			pr[k] = &profileBlock{b.stmts, b.covered}
		}
	}
}

// Statements returns the statements covered, and all of them.
func (pr Profile) Statements() (covered, all int) {
	for _, b := range pr {
		all += b.stmts
		if b.covered {
			covered += b.stmts
		}
	}
	return covered, all
}

// Percent spells covered of all statements as go test -cover does; "-"
// for none at all.
func Percent(covered, all int) string {
	if all == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(covered)/float64(all))
}

// bytes returns the profile in cmd/cover's format, blocks in order.
func (pr Profile) bytes() []byte {
	keys := make([]string, 0, len(pr))
	for k := range pr {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteString("mode: set\n")
	for _, k := range keys {
		n := 0
		if pr[k].covered {
			n = 1
		}
		fmt.Fprintf(&b, "%s %d %d\n", k, pr[k].stmts, n)
	}
	return b.Bytes()
}

// A corpusRun is what running each entry of a target's corpora measured.
type corpusRun struct {
	Profile Profile         // the union of what they covered
	entries int             // how many ran
	crashed int             // how many ended their process before go test wrote what they covered
	Failed  map[string]bool // the paths of those that failed
}

// TargetCoverage runs each entry of t's corpora, the seed corpus and the
// generated one, alone with the binary built for coverage, on -p runners
// at once, and returns what the runs measured. slowest, if not 0, is the
// slowest passing run of t the caller has seen (TargetJob.Slowest).
func (c *Run) TargetCoverage(ctx context.Context, p *Package, t *Target, cov *CoverBuild, work string, slowest time.Duration) (corpusRun, error) {
	var entries []corpus.Entry
	// The generated corpus first: its entries pass, and teach the runners
	// the hang limit before a seed entry that hangs (a failure just
	// found) runs.
	for _, dir := range []string{c.CacheCorpus(p, t.Name), corpus.SeedCorpus(p.Dir, t.Name)} {
		es, err := corpus.Read(dir)
		if err != nil {
			return corpusRun{}, err
		}
		entries = append(entries, validEntries(es)...)
	}
	run := corpusRun{Profile: Profile{}, entries: len(entries), Failed: map[string]bool{}}
	var mu sync.Mutex
	w := max(1, min(c.Procs, len(entries)))
	errs := make([]error, w)
	var wg sync.WaitGroup
	shape := func(_ int, _ failure.Signature, msg string) string { return failure.Shape(msg, nil) }
	for k := range w {
		r, err := cov.bin.Runner(t.Name, fmt.Sprintf("%s-%d", work, k))
		if err != nil {
			return corpusRun{}, err
		}
		r.LearnSlowest(slowest)
		wg.Go(func() {
			defer r.Close()
			for i := k; i < len(entries) && errs[k] == nil && ctx.Err() == nil; i += w {
				res, data, err := r.CoverProfile(ctx, entries[i].Data, testbin.Judge{Shape: shape})
				errs[k] = err
				failed := err == nil && len(res.Outcomes) > 0 && res.Outcomes[0].Failed()
				mu.Lock()
				run.Profile.add(data)
				if failed {
					run.Failed[entries[i].Path] = true
					if len(data) == 0 {
						run.crashed++
					}
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return corpusRun{}, err
		}
	}
	return run, ctx.Err()
}

// writeFile writes data to path through a temporary file beside it, so
// that path holds its old contents or the new, never a part.
func writeFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Cover is fuzzmin cover: it writes to out (-o) the coverage profile of
// the corpora of the targets m selects.
func (c *Run) Cover(ctx context.Context, patterns []string, m *Matcher, out string) int {
	if out == "" {
		c.Rep.Errorf("cover: -o names the file to write the coverage profile to")
		return ExitUsage
	}
	out = c.Abs(out)
	return c.WithPackages(ctx, patterns, 0, m, func(pkgs []*Package) {
		all := Profile{}
		n := 0
		for i, p := range pkgs {
			var targets []*Target
			for _, t := range p.Targets {
				if m.MatchTarget(t.Name) {
					targets = append(targets, t)
				}
			}
			if len(targets) == 0 || ctx.Err() != nil {
				continue
			}
			tmp := filepath.Join(c.Disk.Path, fmt.Sprint(i))
			cov, ok := c.BuildCoverage(ctx, p, tmp)
			if !ok {
				continue
			}
			for k, t := range targets {
				run, err := c.TargetCoverage(ctx, p, t, cov, filepath.Join(tmp, fmt.Sprint("work", k)), 0)
				pr, entries, crashed := run.Profile, run.entries, run.crashed
				if err != nil {
					if ctx.Err() == nil {
						c.Rep.Errorf("%s %s: %v", p.ImportPath, t.Name, err)
						c.Fail(ExitFailure)
					}
					return
				}
				covered, stmts := pr.Statements()
				switch {
				case stmts == 0 && crashed > 0 && crashed == entries:
					c.Rep.Infof("%s %s: %s, each of which ended its process (a panic, an exit, a hang) before go test wrote what it covered: nothing counted", p.ImportPath, t.Name, Plural(entries, "entry", "entries"))
				case stmts == 0:
					c.Rep.Infof("%s %s: %s; %s has no statements to cover outside its tests", p.ImportPath, t.Name, Plural(entries, "entry", "entries"), packageList(cov.pkgs))
				default:
					c.Rep.Infof("%s %s: %s cover %s of the statements of %s", p.ImportPath, t.Name, Plural(entries, "entry", "entries"), Percent(covered, stmts), packageList(cov.pkgs))
				}
				if crashed > 0 && crashed < entries {
					c.Rep.Infof("%s %s: %s of them ended the process before go test wrote what it covered, and counted nothing", p.ImportPath, t.Name, Plural(crashed, "entry", "entries"))
				}
				all.merge(pr)
				n++
			}
		}
		if ctx.Err() != nil || c.Exit != ExitOK {
			return
		}
		if n == 0 {
			c.Rep.Infof("fuzzmin cover: no fuzz target matches %s", DescribeSelection(m.Pattern, Shard{1, 1}))
			return
		}
		if err := writeFile(out, all.bytes()); err != nil {
			c.Rep.Errorf("%v", err)
			c.Fail(ExitFailure)
			return
		}
		covered, stmts := all.Statements()
		if stmts == 0 {
			// Only the main module's packages are measured: a vendored
			// or required module's are not, unless named.
			c.Rep.Infof("fuzzmin cover: no statements measured (only the main module's packages are; a vendored package is not, unless named); the profile is %s", c.Rel(out))
			return
		}
		c.Rep.Infof("fuzzmin cover: %s of the statements covered; the profile is %s (go tool cover -func=%s)", Percent(covered, stmts), c.Rel(out), c.Rel(out))
	})
}
