package pipeline

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// fuzzTarget returns the one fuzz target of pkgs that the regexp -fuzz
// matches.
func fuzzTarget(pkgs []*Package, pattern string) (*Package, *Target, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, nil, usageError{fmt.Errorf("-fuzz: %w", err)}
	}
	var p *Package
	var t *Target
	for _, q := range pkgs {
		for _, u := range q.Targets {
			if re.MatchString(u.Name) {
				if p != nil {
					return nil, nil, usageError{fmt.Errorf("-fuzz %s matches more than one fuzz target (%s %s, %s %s): go test -fuzz takes one", pattern, p.ImportPath, t.Name, q.ImportPath, u.Name)}
				}
				p, t = q, u
			}
		}
	}
	if p == nil {
		return nil, nil, usageError{fmt.Errorf("-fuzz %s matches no fuzz target", pattern)}
	}
	return p, t, nil
}

// fuzzFirst is -fuzz: it runs go test -fuzz, for fuzztime, on the one
// target the regexp pattern matches, without the toolchain's own minimization (fuzzmin minimizes
// better). It returns the paths of the failing entries the fuzzer wrote,
// none when there is nothing more to do, and the matcher that selects
// them, the work of the minimizing that follows.
func (c *Run) fuzzFirst(ctx context.Context, pkgs []*Package, pattern, fuzztime string) ([]string, *Matcher, error) {
	p, t, err := fuzzTarget(pkgs, pattern)
	if err != nil {
		return nil, nil, err
	}
	dir := corpus.SeedCorpus(p.Dir, t.Name)
	before, err := entryNames(dir)
	if err != nil {
		return nil, nil, err
	}
	args := []string{"test", "-run=^$", "-fuzz=^" + t.Name + "$", "-fuzztime=" + fuzztime, "-fuzzminimizetime=0"}
	args = append(append(args, c.BuildFlags()...), p.Args...)
	cmd := testbin.GoFuzzCommand(ctx, c.Dir, c.Env, args...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			c.Rep.goOutput(p.ImportPath, sc.Text()+"\n")
		}
	}()
	err = cmd.Wait()
	pw.Close()
	<-done
	after, lerr := entryNames(dir)
	if lerr != nil {
		return nil, nil, lerr
	}
	var names []string
	for name := range after {
		if !before[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if ctx.Err() != nil {
		if len(names) == 0 {
			return nil, nil, fmt.Errorf("interrupted while go test -fuzz=%s ran; it wrote no entry, and nothing was changed", t.Name)
		}
		var paths []string
		for _, n := range names {
			paths = append(paths, c.Rel(filepath.Join(dir, n)))
		}
		run := "-run=" + t.Name
		if len(names) == 1 {
			run = runFlag(t.Name, names[0])
		}
		return nil, nil, fmt.Errorf("interrupted while go test -fuzz=%s ran; it wrote %s, kept as it wrote it: fuzzmin %s %s minimizes it",
			t.Name, strings.Join(paths, ", "), run, shellWords(p.Args))
	}
	if len(names) == 0 {
		if err != nil {
			return nil, nil, fmt.Errorf("go test -fuzz failed and wrote no entry: %w", err)
		}
		c.Rep.Infof("%s %s: go test -fuzz found no failure in %s", p.ImportPath, t.Name, fuzztime)
		return nil, nil, nil
	}
	m := MatchNames([]string{t.Name}, names)
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(dir, n))
	}
	return paths, m, nil
}

// entryNames returns the names of the files of a corpus directory.
func entryNames(dir string) (map[string]bool, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]bool{}, nil
	}
	names := map[string]bool{}
	for _, de := range des {
		names[de.Name()] = true
	}
	return names, err
}

// A usageError is a mistake in the command line found after loading the
// packages: exit 2.
type usageError struct{ error }
