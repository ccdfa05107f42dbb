package campaign

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/pipeline"
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

// mergeCorpus copies the entries kept (-corpus) holds of each target into the
// fuzz cache, those it does not have and that fit the target: corpus files
// of its argument types (the toolchain's fuzzer stops on a cached entry
// that does not fit).
func (c *campaign) mergeCorpus(ctx context.Context, targets []*campaignTarget, kept string) bool {
	n := 0
	for i, t := range targets {
		src := keptCorpus(kept, t)
		if des, _ := os.ReadDir(src); len(des) == 0 {
			continue
		}
		fits, err := c.fitsTarget(ctx, t, filepath.Join(c.Disk.Path, fmt.Sprint("types", i)))
		if err != nil {
			c.Rep.Errorf("-corpus: %s: %v", t.name(), err)
			c.Fail(pipeline.ExitFailure)
			return false
		}
		k, refused, err := copyCorpus(src, c.CacheCorpus(t.pkg, t.target.Name), fits)
		n += k
		if err != nil {
			c.Rep.Errorf("-corpus: %v", err)
			c.Fail(pipeline.ExitFailure)
			return false
		}
		if len(refused) > 0 {
			c.Rep.Infof("%s: %s of %s left out of the fuzz cache: %s", t.name(), pipeline.Plural(len(refused), "file", "files"), c.Rel(kept), strings.Join(refused, "; "))
		}
	}
	c.Rep.Infof("fuzzmin fuzz: %s from %s added to the fuzz cache", pipeline.Plural(n, "entry", "entries"), c.Rel(kept))
	return true
}

// keepCorpus copies each target's generated corpus back into kept, -corpus's
// directory, and distills those past -corpus-max.
func (c *campaign) keepCorpus(ctx context.Context, targets []*campaignTarget, kept string) {
	n := 0
	over := map[*pipeline.Package][]string{}
	var order []*pipeline.Package
	for _, t := range targets {
		dir := keptCorpus(kept, t)
		k, _, err := copyCorpus(c.CacheCorpus(t.pkg, t.target.Name), dir, nil)
		n += k
		if err != nil {
			c.Rep.Errorf("-corpus: %v", err)
			c.Fail(pipeline.ExitFailure)
			return
		}
		if des, _ := os.ReadDir(dir); len(des) > c.CorpusMax {
			if over[t.pkg] == nil {
				order = append(order, t.pkg)
			}
			over[t.pkg] = append(over[t.pkg], t.target.Name)
		}
	}
	c.Rep.Infof("fuzzmin fuzz: %s kept in %s", pipeline.Plural(n, "new entry", "new entries"), c.Rel(kept))
	// Distill, as fuzzmin cmin -fuzzcache DIR does, the targets past the
	// bound.
	for i, p := range order {
		if ctx.Err() != nil {
			return
		}
		m := pipeline.MatchNames(over[p], nil)
		c.CminPackage(ctx, p, filepath.Join(c.Disk.Path, fmt.Sprint("cmin", i)), m, kept, pipeline.Selecting{Purpose: pipeline.ForCmin})
	}
}

// fitsTarget returns a check of the values of a corpus file against t's
// argument types, which the test binary tells (testbin.Runner.ArgTypes),
// working in dir.
func (c *campaign) fitsTarget(ctx context.Context, t *campaignTarget, dir string) (func([]any) error, error) {
	r, err := t.bin.Runner(t.target.Name, dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	types, err := r.ArgTypes(ctx)
	if err != nil {
		return nil, err
	}
	return func(vals []any) error {
		name := func(t reflect.Type) string { return strings.ReplaceAll(t.String(), "uint8", "byte") } // as corpus files spell it
		got := make([]string, len(vals))
		for i, v := range vals {
			got[i] = name(reflect.TypeOf(v))
		}
		want := make([]string, len(types))
		for i, ty := range types {
			want[i] = name(ty)
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("values of types [%s], want [%s]", strings.Join(got, " "), strings.Join(want, " "))
		}
		return nil
	}, nil
}

// maxFuzzInput bounds the corpus files copied into the fuzz cache: the
// toolchain's fuzzer hands each input to its workers in 100 MB of shared
// memory (internal/fuzz's workerSharedMemSize, less a small header), and
// its coordinator panics on a larger one.
const maxFuzzInput = 100<<20 - 1<<10

// copyCorpus copies the corpus files of src whose content dst does not
// hold, under any name, into dst, and returns how many it copied, and why
// it left out the files that are not corpus files (go test fuzz v1, of
// values the format holds), too large for the fuzzer (maxFuzzInput), or
// that fits (if not nil) refuses. A src that does not exist holds none.
func copyCorpus(src, dst string, fits func([]any) error) (int, []string, error) {
	des, err := os.ReadDir(src)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	held := map[string]bool{} // the names go test gives dst's contents
	if dds, err := os.ReadDir(dst); err == nil {
		for _, de := range dds {
			if data, err := os.ReadFile(filepath.Join(dst, de.Name())); err == nil && de.Type().IsRegular() {
				held[corpus.Name(data)] = true
			}
		}
	}
	n := 0
	var refused []string
	for _, de := range des {
		if !de.Type().IsRegular() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		if fi, err := de.Info(); err == nil && fi.Size() > maxFuzzInput {
			refused = append(refused, fmt.Sprintf("%s: %d bytes, more than the toolchain's fuzz workers hold (100 MB)", de.Name(), fi.Size()))
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, de.Name()))
		if err != nil {
			return n, refused, err
		}
		if held[corpus.Name(data)] {
			continue // dst holds it, under this name or another
		}
		vals, err := encoding.Unmarshal(data)
		if err == nil && fits != nil {
			err = fits(vals)
		}
		if err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", de.Name(), err))
			continue
		}
		if _, err := corpus.WriteFile(dst, data); err != nil {
			return n, refused, err
		}
		held[corpus.Name(data)] = true
		n++
	}
	return n, refused, nil
}
