package pipeline

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/ossfuzz"
)

// fuzzmin export writes the corpora of fuzz targets, the seed corpus and
// the generated one, as the raw testcases that OSS-Fuzz's and
// ClusterFuzzLite's builds of native Go fuzz targets read
// (compile_native_go_fuzzer_v2), so that a project can seed them: the
// other way from import, which reads such testcases back into entries.

// An exported target, and the name of its fuzzer: the directory of its
// testcases and its seed corpus archive.
type exported struct {
	p    *Package
	t    *Target
	name string
}

// fuzzerNames names the fuzzers of sel: a target by its own name, unless
// another package's target of the same name is exported too; then each of
// those by its package's path in the module with its target's name, as
// OSS-Fuzz projects name the fuzzers of several packages
// (parser_FuzzDecode), so that two targets never share a directory.
func fuzzerNames(sel []exported) {
	count := map[string]int{}
	for _, e := range sel {
		count[e.t.Name]++
	}
	for i, e := range sel {
		if count[e.t.Name] < 2 {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(e.p.ImportPath, e.p.ModulePath), "/")
		if rel == "" {
			rel = filepath.Base(e.p.ImportPath)
		}
		sel[i].name = strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(rel) + "_" + e.t.Name
	}
}

// exportTarget writes the testcases of e's corpora into out/<name>, in
// format, and with archive their seed corpus archive beside, and returns how many it
// wrote.
func (c *Run) exportTarget(e exported, out, format string, archive bool) int {
	p, t := e.p, e.t
	dir := filepath.Join(out, e.name)
	files := map[string][]byte{}
	var refused []string
	for _, from := range []string{corpus.SeedCorpus(p.Dir, t.Name), c.CacheCorpus(p, t.Name)} {
		entries, err := corpus.Read(from)
		if err != nil {
			c.Rep.Errorf("%s %s: %v", p.ImportPath, t.Name, err)
			c.Fail(ExitFailure)
			return 0
		}
		for _, e := range entries {
			if e.Err != nil {
				continue // malformed: go test and fuzzmin check say so
			}
			data, err := exportEncode(e.Values, format)
			if err != nil {
				refused = append(refused, fmt.Sprintf("%s (%v)", c.Rel(e.Path), err))
				continue
			}
			name := corpus.Name(data)
			if _, ok := files[name]; !ok {
				files[name] = data
				if _, err := corpus.WriteFile(dir, data); err != nil {
					c.Rep.Errorf("%v", err)
					c.Fail(ExitFailure)
					return 0
				}
			}
		}
	}
	if archive && len(files) > 0 {
		if err := writeZip(filepath.Join(out, e.name+"_seed_corpus.zip"), files); err != nil {
			c.Rep.Errorf("%v", err)
			c.Fail(ExitFailure)
			return 0
		}
	}
	line := fmt.Sprintf("%s %s: %s written to %s", p.ImportPath, t.Name, Plural(len(files), "testcase", "testcases"), c.Rel(dir))
	if e.name != t.Name {
		line += " (fuzzer " + e.name + ": another package's target has its name)"
	}
	if len(refused) > 0 {
		line += fmt.Sprintf("; %s not written: %s", Plural(len(refused), "entry", "entries"), strings.Join(refused, ", "))
		c.Fail(ExitFailure)
	}
	c.Rep.Infof("%s", line)
	return len(files)
}

// exportEncode encodes an entry's values in format (-format).
func exportEncode(vals []any, format string) ([]byte, error) {
	if format == FormatRaw {
		return ossfuzz.EncodeRaw(vals)
	}
	return ossfuzz.EncodeV2(vals)
}

// writeZip writes files, by name, into a zip archive at path, in name
// order, replacing what was there.
func writeZip(path string, files map[string][]byte) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		w, err := zw.Create(name)
		if err != nil {
			return err
		}
		if _, err := w.Write(files[name]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeFile(path, buf.Bytes())
}

// Export is fuzzmin export: it writes the testcases of the targets m
// selects into out (-o), in format, and with archive their seed corpus
// archives.
func (c *Run) Export(ctx context.Context, patterns []string, m *Matcher, out, format string, archive bool) int {
	switch {
	case out == "":
		c.Rep.Errorf("export: -o names the directory to write the testcases into")
		return ExitUsage
	case format != FormatV2 && format != FormatRaw:
		c.Rep.Errorf("export: -format %q: want v2 or raw", format)
		return ExitUsage
	}
	out = c.Abs(out)
	return c.WithPackages(ctx, patterns, 0, m, func(pkgs []*Package) {
		var sel []exported
		for _, p := range pkgs {
			for _, t := range p.Targets {
				if m.MatchTarget(t.Name) {
					sel = append(sel, exported{p, t, t.Name})
				}
			}
		}
		fuzzerNames(sel)
		testcases, targets := 0, 0
		for _, e := range sel {
			if ctx.Err() != nil {
				break
			}
			if n := c.exportTarget(e, out, format, archive); n > 0 {
				testcases += n
				targets++
			}
		}
		switch {
		case len(sel) == 0 && c.Exit == ExitOK:
			c.Rep.Infof("fuzzmin export: no fuzz target matches %s", DescribeSelection(m.Pattern, Shard{1, 1}))
		case len(sel) > 0:
			c.Rep.Infof("fuzzmin export: %s of %s written to %s", Plural(testcases, "testcase", "testcases"), Plural(targets, "fuzzer", "fuzzers"), c.Rel(out))
		}
	})
}
