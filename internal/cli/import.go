package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"github.com/fuzzmin/fuzzmin/corpus"
	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/ossfuzz"
)

// The values of -format.
const (
	formatGofuzz = "gofuzz" // a go test fuzz v1 file
	formatV1     = "v1"
	formatV2     = "v2"
	formatRaw    = "raw" // the bytes are the one []byte or string argument
)

// fuzzmin import turns crash testcases found elsewhere (a CI artifact, a
// bug report, an OSS-Fuzz or ClusterFuzzLite testcase) into entries of a
// fuzz target's seed corpus, and minimizes them: each file is decoded into
// the values of the target's arguments (ossfuzz.go), written into
// testdata/fuzz/<Target> under the name go test would give it, and the new
// entries go through the command's pipeline as any new entry does.

// importOptions are import's flags: its own, and groups of the command's,
// whose meaning is the same.
type importOptions struct {
	options // run is the target's name
	pkg     string
	format  string
	maxSize byteSize // of a file to import
}

// defaultMaxSize bounds the files import reads: crash testcases are small
// (OSS-Fuzz caps inputs at a few MiB), and a file larger than this is more
// likely a mistake, such as /dev/zero or a disk image, than a crash.
const defaultMaxSize = 16 << 20

func defaultImportOptions() importOptions {
	return importOptions{options: defaultOptions(), pkg: ".", format: formatGofuzz, maxSize: defaultMaxSize}
}

// ownFlags adds import's own flags to fs.
func (o *importOptions) ownFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.run, "run", o.run, "The fuzz target the files are crashes of, by its `name` (required).")
	fs.StringVar(&o.pkg, "pkg", o.pkg, "The `package` of the target, as go test names it.")
	fs.Var(&o.maxSize, "max-size", "Refuse a file larger than `size` bytes (a number, or with a suffix KiB, MiB or GiB); only regular files are read.")
	fs.StringVar(&o.format, "format", o.format, "How to read each file: `gofuzz`, a go test fuzz v1 file, as go test, CI artifacts and bug reports hold them; v1 or v2, a raw libFuzzer testcase of an OSS-Fuzz or ClusterFuzzLite build made with compile_native_go_fuzzer (v1) or compile_native_go_fuzzer_v2 (v2); raw, the bytes as the value of the target's one []byte or string argument. Nothing in a raw testcase tells which build made it, so fuzzmin never guesses: a file that is not a go test fuzz v1 file needs -format.")
}

// flagSet returns import's flags: its own and the command's groups it
// takes, with the meaning they have for the command; the commands table
// gives the manual the same set.
func (o *importOptions) flagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("fuzzmin import", flag.ContinueOnError)
	o.ownFlags(fs)
	o.addBuildFlags(fs)
	o.addRunFlags(fs, minimizeProcs, false)
	o.addOutputFlags(fs, true)
	o.addWriteFlags(fs)
	o.addSearchFlags(fs, true)
	return fs
}

func (o *importOptions) validate(files []string) error {
	if err := checkTargetName(o.run, "the files are crashes of"); err != nil {
		return err
	}
	switch o.format {
	case formatGofuzz, formatV1, formatV2, formatRaw:
	default:
		return fmt.Errorf("-format %q: want gofuzz, v1, v2 or raw", o.format)
	}
	if len(files) == 0 {
		return errors.New("want the files to import")
	}
	if err := o.options.validate(); err != nil {
		return err
	}
	return o.checkDir()
}

func runImport(args []string, stdout, stderr io.Writer) int {
	o := defaultImportOptions()
	fs := o.flagSet()
	if code, ok := parseFlags(fs, "import", args, stdout, stderr); !ok {
		return code
	}
	if err := o.validate(fs.Args()); err != nil {
		return subUsage(stderr, "import", err)
	}
	ctx, finish, stop := interruptible()
	defer stop()
	c := &command{opts: o.options, match: &matcher{}, rep: newReporter(stdout, stderr, o.json, o.verbose), env: os.Environ(), finishing: finish}
	c.rep.noRerun = o.dryRun // what -n would write cannot be run
	return c.rep.end(c.withPackages(ctx, []string{o.pkg}, writesSeeds, func(pkgs []*pkg) {
		c.importFiles(ctx, pkgs, &o, fs.Args())
	}))
}

// An importJob is the import of files into one target's seed corpus.
type importJob struct {
	opts  *importOptions
	types []reflect.Type // the target's arguments
	tj    *targetJob     // the imported entries, to minimize
	names map[string]string
	// imported and refused count the files.
	imported, refused int
}

// importFiles imports files into the seed corpus of the target -run names
// and minimizes the new entries.
func (c *command) importFiles(ctx context.Context, pkgs []*pkg, o *importOptions, files []string) {
	p, t, err := findTarget(pkgs, o.run)
	if err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitUsage)
		return
	}
	b, ok := c.build(ctx, p, filepath.Join(c.disk.path, "0"), []string{t.Name})
	if !ok {
		return
	}
	ij := &importJob{opts: o, names: map[string]string{},
		tj: newTargetJob(p, t)}
	ij.types, err = c.targetTypes(ctx, b, t)
	if _, statErr := os.Stat(ij.tj.dir); err == nil && statErr == nil {
		ij.tj.tracked = c.trackedFiles(ctx, ij.tj.dir)
	}
	if err != nil {
		if ctx.Err() == nil {
			c.rep.errorf("%s: %v", p.ImportPath, err)
		}
		c.fail(exitFailure)
		b.finish(ctx)
		return
	}
	for _, file := range files {
		if e, ok := c.importFile(ij, file); ok {
			ij.tj.entries = append(ij.tj.entries, e)
		}
	}
	counts := fmt.Sprintf("%d imported", ij.imported)
	if o.dryRun {
		counts = fmt.Sprintf("%d would be imported", ij.imported)
	}
	if ij.refused > 0 {
		counts += fmt.Sprintf(", %d not imported", ij.refused)
	}
	c.rep.infof("fuzzmin: %s: %s", plural(len(files), "file", "files"), counts)
	var jobs []*targetJob
	if len(ij.tj.entries) > 0 {
		jobs = append(jobs, ij.tj)
	}
	saved := c.minimizeJobs(ctx, p, b, jobs, func(res result) {
		if res.Status == statusPasses && !res.found {
			// A crash that does not crash here: fixed already, or read
			// as another build reads it.
			res.Note = join(res.Note, "the imported entry does not fail, so there is no crash to minimize (is the bug fixed, or is -format wrong?)")
			c.fail(exitFailure)
		}
		c.report(res)
	})
	if ctx.Err() != nil {
		c.interrupted(saved)
	}
	c.rep.summary()
}

// importFile decodes one file for the job's target and, unless -n, writes
// it into the target's seed corpus. It reports what it did and returns the
// entry to minimize.
func (c *command) importFile(ij *importJob, file string) (corpus.Entry, bool) {
	refuse := func(err error) (corpus.Entry, bool) {
		c.rep.infof("%s: not imported: %v", file, err)
		c.fail(exitFailure)
		ij.refused++
		return corpus.Entry{}, false
	}
	path := file
	if !filepath.IsAbs(path) && ij.opts.dir != "" {
		path = filepath.Join(ij.opts.dir, path) // -C: as if fuzzmin ran there
	}
	data, err := readBounded(path, int64(ij.opts.maxSize))
	if err != nil {
		return refuse(err)
	}
	vals, enc, note, err := decodeFile(ij.opts.format, data, ij.types)
	if err != nil {
		return refuse(err)
	}
	t := ij.tj.target.Name
	e := corpus.Entry{Name: corpus.Name(enc), Path: filepath.Join(ij.tj.dir, corpus.Name(enc)), Data: enc, Values: vals}
	if first, ok := ij.names[e.Name]; ok {
		c.rep.infof("%s: the same entry as %s, %s/%s: imported once", file, first, t, e.Name)
		ij.imported++
		return e, false
	}
	ij.names[e.Name] = file
	_, statErr := os.Stat(e.Path)
	switch {
	case statErr == nil && ij.tj.tracked.files[e.Name]:
		note = join(note, "the corpus holds this entry already, and git tracks it")
	case statErr == nil:
		note = join(note, "the corpus holds this entry already")
	case !errors.Is(statErr, fs.ErrNotExist):
		return refuse(pathErr(statErr))
	}
	var b bytes.Buffer
	if ij.opts.dryRun {
		fmt.Fprintf(&b, "%s: would import as %s (-n: nothing written)\n", file, c.rel(e.Path))
	} else {
		if _, err := writeEntry(ij.tj.root, ij.tj.dir, enc); err != nil {
			return refuse(errors.New(c.relErr(err)))
		}
		fmt.Fprintf(&b, "%s: imported as %s\n", file, c.rel(e.Path))
	}
	fmt.Fprintf(&b, "\t%s\n", preview(gosyntax.Call("f.Add", vals, "")))
	if note != "" {
		fmt.Fprintf(&b, "\tnote: %s\n", note)
	}
	c.rep.infof("%s", bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	ij.imported++
	return e, true
}

// decodeFile reads a file in format as the values of arguments of types,
// and returns them, as a corpus file too, and a note on how it read them.
func decodeFile(format string, data []byte, types []reflect.Type) (vals []any, file []byte, note string, err error) {
	gofuzz := bytes.HasPrefix(data, []byte(encoding.Version+"\n")) || bytes.HasPrefix(data, []byte(encoding.Version+"\r\n"))
	if gofuzz && format != formatGofuzz {
		note = fmt.Sprintf("the file starts with a %q line, but -format=%s reads it as a raw testcase", encoding.Version, format)
	}
	switch format {
	case formatGofuzz:
		if !gofuzz {
			return nil, nil, "", fmt.Errorf("not a go test fuzz v1 file (its first line is not %q); a raw libFuzzer testcase needs -format=v1, v2 or raw, as the build that found it reads its bytes (see fuzzmin import -help)", encoding.Version)
		}
		if vals, err = encoding.Unmarshal(data); err != nil {
			return nil, nil, "", fmt.Errorf("malformed: %v", err)
		}
		if got := encoding.ValueTypes(vals); !slices.Equal(got, types) {
			return nil, nil, "", fmt.Errorf("its values %s do not fit the target's arguments %s", encoding.TypeList(got), encoding.TypeList(types))
		}
		return vals, data, "", nil
	case formatV1:
		var n int
		if vals, n, err = ossfuzz.DecodeV1(data, types); err != nil {
			return nil, nil, "", fmt.Errorf("does not decode as v1 for %s: %v; a v1 build does not call the fuzz function with it, so it cannot be the crash (-format=v2?)", encoding.TypeList(types), err)
		}
		if n < len(data) {
			note = join(note, fmt.Sprintf("its last %s are not read, as the build does not read them", plural(len(data)-n, "byte", "bytes")))
		}
	case formatV2:
		var short bool
		if vals, short = ossfuzz.DecodeV2(data, types); short {
			note = join(note, "it ends before the fixed-size arguments and the weights do: the build reads zeros for the missing bytes, as here")
		}
	case formatRaw:
		if vals, err = ossfuzz.DecodeRaw(data, types); err != nil {
			return nil, nil, "", err
		}
	}
	file, err = encoding.Marshal(vals...)
	return vals, file, note, err
}

// pathErr drops the path from an *fs.PathError, for a message that names
// the file already.
func pathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
