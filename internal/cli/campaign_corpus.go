package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// fuzzmin fuzz -corpus DIR keeps the generated corpora of its targets in
// DIR, laid out as $GOCACHE/fuzz is (<import path>/<Target>/), so that CI
// keeps them between runs with an ordinary cache: before fuzzing, the
// entries of DIR that the fuzz cache does not have are copied into it;
// after, each target's generated corpus is copied back, and one that has
// grown past -corpus-max entries is distilled there as fuzzmin cmin
// distills. Nothing else in the fuzz cache is touched.

// keptCorpus returns the directory of t's generated corpus in dir.
func keptCorpus(dir string, t *campaignTarget) string {
	return filepath.Join(dir, filepath.FromSlash(t.pkg.ImportPath), t.target.Name)
}

// mergeCorpus copies the entries -corpus keeps of each target into the
// fuzz cache, those it does not have.
func (c *command) mergeCorpus(targets []*campaignTarget) bool {
	n := 0
	for _, t := range targets {
		k, err := copyCorpus(keptCorpus(c.opts.corpus, t), c.cacheCorpus(t.pkg, t.target.Name))
		n += k
		if err != nil {
			c.rep.errorf("-corpus: %v", err)
			c.fail(exitFailure)
			return false
		}
	}
	c.rep.infof("fuzzmin fuzz: %s from %s added to the fuzz cache", plural(n, "entry", "entries"), c.rel(c.opts.corpus))
	return true
}

// keepCorpus copies each target's generated corpus back into -corpus's
// directory, and distills those past -corpus-max.
func (c *command) keepCorpus(ctx context.Context, targets []*campaignTarget) {
	n := 0
	over := map[*pkg][]string{}
	var order []*pkg
	for _, t := range targets {
		dir := keptCorpus(c.opts.corpus, t)
		k, err := copyCorpus(c.cacheCorpus(t.pkg, t.target.Name), dir)
		n += k
		if err != nil {
			c.rep.errorf("-corpus: %v", err)
			c.fail(exitFailure)
			return
		}
		if des, _ := os.ReadDir(dir); len(des) > c.opts.corpusMax {
			if over[t.pkg] == nil {
				order = append(order, t.pkg)
			}
			over[t.pkg] = append(over[t.pkg], regexp.QuoteMeta(t.target.Name))
		}
	}
	c.rep.infof("fuzzmin fuzz: %s kept in %s", plural(n, "new entry", "new entries"), c.rel(c.opts.corpus))
	// Distill, as fuzzmin cmin -fuzzcache DIR does, the targets past the
	// bound.
	saved, cache := c.match, c.opts.fuzzcache
	defer func() { c.match, c.opts.fuzzcache = saved, cache }()
	c.opts.fuzzcache = c.opts.corpus
	for i, p := range order {
		if ctx.Err() != nil {
			return
		}
		c.match = &matcher{target: regexp.MustCompile("^(" + strings.Join(over[p], "|") + ")$")}
		c.cminPackage(ctx, p, filepath.Join(c.disk.path, fmt.Sprint("cmin", i)))
	}
}

// copyCorpus copies the corpus files of src that dst does not hold into
// dst, and returns how many it copied. A src that does not exist holds
// none.
func copyCorpus(src, dst string) (int, error) {
	des, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, de := range des {
		if !de.Type().IsRegular() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dst, de.Name())); err == nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err != nil {
			return n, err
		}
		if _, err := os.Stat(filepath.Join(dst, corpus.Name(data))); err == nil {
			continue // held under the name go test gives it
		}
		if _, err := corpus.WriteFile(dst, data); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
