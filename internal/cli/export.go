package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"flag"
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

// exportOptions are export's own.
type exportOptions struct {
	out    string // -o: export's directory, cover's file
	format string // formatV2 or formatRaw
	zip    bool   // also <Target>_seed_corpus.zip
}

// exportFlags returns export's flags, bound to o.
func exportFlags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin export", flag.ContinueOnError)
	o.addBuildFlags(fs)
	fs.StringVar(&o.run, "run", o.run, "Export only the targets matching `regexp`.")
	fs.StringVar(&o.out, "o", o.out, "Write each target's testcases into `dir`/<Target>/ (required); where targets of two packages share a name, each into dir/<package>_<Target>/, the package's path in its module with _ for /, as OSS-Fuzz projects name such fuzzers.")
	fs.StringVar(&o.exportOptions.format, "format", o.exportOptions.format, "The layout of a testcase: `v2`, as a build made with compile_native_go_fuzzer_v2 reads it (the default of OSS-Fuzz and ClusterFuzzLite for native Go fuzz targets), or raw, the bytes of a target's one []byte or string argument.")
	fs.BoolVar(&o.zip, "zip", o.zip, "Also write <Target>_seed_corpus.zip beside each target's directory, the seed corpus archive an OSS-Fuzz build script copies to $OUT.")
	o.addOutputFlags(fs, false)
	return fs
}

// exportDefaults are export's.
func exportDefaults() options {
	o := defaultOptions()
	o.exportOptions.format = formatV2
	return o
}

// export is fuzzmin export.
func (c *command) export(ctx context.Context, patterns []string) int {
	switch {
	case c.opts.out == "":
		c.rep.errorf("export: -o names the directory to write the testcases into")
		return exitUsage
	case c.opts.exportOptions.format != formatV2 && c.opts.exportOptions.format != formatRaw:
		c.rep.errorf("export: -format %q: want v2 or raw", c.opts.exportOptions.format)
		return exitUsage
	}
	out := c.abs(c.opts.out)
	return c.withPackages(ctx, patterns, 0, func(pkgs []*pkg) {
		var sel []exported
		for _, p := range pkgs {
			for _, t := range p.Targets {
				if c.match.matchTarget(t.Name) {
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
			if n := c.exportTarget(e, out); n > 0 {
				testcases += n
				targets++
			}
		}
		switch {
		case len(sel) == 0 && c.exit == exitOK:
			c.rep.infof("fuzzmin export: no fuzz target matches %s", describeSelection(c.opts.run, shard{1, 1}))
		case len(sel) > 0:
			c.rep.infof("fuzzmin export: %s of %s written to %s", plural(testcases, "testcase", "testcases"), plural(targets, "fuzzer", "fuzzers"), c.rel(out))
		}
	})
}

// An exported target, and the name of its fuzzer: the directory of its
// testcases and its seed corpus archive.
type exported struct {
	p    *pkg
	t    *target
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

// exportTarget writes the testcases of e's corpora into out/<name>, and
// returns how many it wrote.
func (c *command) exportTarget(e exported, out string) int {
	p, t := e.p, e.t
	dir := filepath.Join(out, e.name)
	files := map[string][]byte{}
	var refused []string
	for _, from := range []string{corpus.SeedCorpus(p.Dir, t.Name), c.cacheCorpus(p, t.Name)} {
		entries, err := corpus.Read(from)
		if err != nil {
			c.rep.errorf("%s %s: %v", p.ImportPath, t.Name, err)
			c.fail(exitFailure)
			return 0
		}
		for _, e := range entries {
			if e.Err != nil {
				continue // malformed: go test and fuzzmin check say so
			}
			data, err := c.exportEncode(e.Values)
			if err != nil {
				refused = append(refused, fmt.Sprintf("%s (%v)", c.rel(e.Path), err))
				continue
			}
			name := corpus.Name(data)
			if _, ok := files[name]; !ok {
				files[name] = data
				if _, err := corpus.WriteFile(dir, data); err != nil {
					c.rep.errorf("%v", err)
					c.fail(exitFailure)
					return 0
				}
			}
		}
	}
	if c.opts.zip && len(files) > 0 {
		if err := writeZip(filepath.Join(out, e.name+"_seed_corpus.zip"), files); err != nil {
			c.rep.errorf("%v", err)
			c.fail(exitFailure)
			return 0
		}
	}
	line := fmt.Sprintf("%s %s: %s written to %s", p.ImportPath, t.Name, plural(len(files), "testcase", "testcases"), c.rel(dir))
	if e.name != t.Name {
		line += " (fuzzer " + e.name + ": another package's target has its name)"
	}
	if len(refused) > 0 {
		line += fmt.Sprintf("; %s not written: %s", plural(len(refused), "entry", "entries"), strings.Join(refused, ", "))
		c.fail(exitFailure)
	}
	c.rep.infof("%s", line)
	return len(files)
}

// exportEncode encodes an entry's values as -format says.
func (c *command) exportEncode(vals []any) ([]byte, error) {
	if c.opts.exportOptions.format == formatRaw {
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
