package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
	FormatGofuzz = "gofuzz" // a go test fuzz v1 file
	FormatV1     = "v1"
	FormatV2     = "v2"
	FormatRaw    = "raw" // the bytes are the one []byte or string argument
)

// fuzzmin import turns crash testcases found elsewhere (a CI artifact, a
// bug report, an OSS-Fuzz or ClusterFuzzLite testcase) into entries of a
// fuzz target's seed corpus, and minimizes them: each file is decoded into
// the values of the target's arguments (ossfuzz.go), written into
// testdata/fuzz/<Target> under the name go test would give it, and the new
// entries go through the command's pipeline as any new entry does.

// Importing is what the import stage serves: the files' target and how
// to read them, and how to minimize the entries they make.
type Importing struct {
	Target     string // -run: the target's name
	Pkg        string
	Format     string
	MaxSize    byteSize // of a file to import
	Minimizing Minimizing
}

// An importJob is the import of files into one target's seed corpus.
type importJob struct {
	imp   *Importing
	types []reflect.Type // the target's arguments
	tj    *TargetJob     // the imported entries, to minimize
	names map[string]string
	// imported and refused count the files.
	imported, refused int
}

// importFiles imports files into the seed corpus of the target -run names
// and minimizes the new entries.
func (c *Run) importFiles(ctx context.Context, pkgs []*Package, o *Importing, files []string) {
	p, t, err := findTarget(pkgs, o.Target)
	if err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(ExitUsage)
		return
	}
	b, ok := c.Build(ctx, p, filepath.Join(c.Disk.Path, "0"), []string{t.Name})
	if !ok {
		return
	}
	ij := &importJob{imp: o, names: map[string]string{},
		tj: NewTargetJob(p, t)}
	ij.types, err = c.targetTypes(ctx, b, t)
	if _, statErr := os.Stat(ij.tj.dir); err == nil && statErr == nil {
		ij.tj.tracked = c.trackedFiles(ctx, ij.tj.dir)
	}
	if err != nil {
		if ctx.Err() == nil {
			c.Rep.Errorf("%s: %v", p.ImportPath, err)
		}
		c.Fail(ExitFailure)
		b.finish(ctx)
		return
	}
	for _, file := range files {
		if e, ok := c.importFile(ij, file); ok {
			ij.tj.Entries = append(ij.tj.Entries, e)
		}
	}
	counts := fmt.Sprintf("%d imported", ij.imported)
	if o.Minimizing.Write.DryRun {
		counts = fmt.Sprintf("%d would be imported", ij.imported)
	}
	if ij.refused > 0 {
		counts += fmt.Sprintf(", %d not imported", ij.refused)
	}
	c.Rep.Infof("fuzzmin: %s: %s", Plural(len(files), "file", "files"), counts)
	var jobs []*TargetJob
	if len(ij.tj.Entries) > 0 {
		jobs = append(jobs, ij.tj)
	}
	saved := c.MinimizeJobs(ctx, p, b, jobs, o.Minimizing, func(res Result) {
		if res.Status == StatusPasses && !res.Found {
			// A crash that does not crash here: fixed already, or read
			// as another build reads it.
			res.Note = join(res.Note, "the imported entry does not fail, so there is no crash to minimize (is the bug fixed, or is -format wrong?)")
			c.Fail(ExitFailure)
		}
		c.Report(res)
	})
	if ctx.Err() != nil {
		c.interrupted(saved)
	}
	c.Rep.summary()
}

// importFile decodes one file for the job's target and, unless -n, writes
// it into the target's seed corpus. It reports what it did and returns the
// entry to minimize.
func (c *Run) importFile(ij *importJob, file string) (corpus.Entry, bool) {
	refuse := func(err error) (corpus.Entry, bool) {
		c.Rep.Infof("%s: not imported: %v", file, err)
		c.Fail(ExitFailure)
		ij.refused++
		return corpus.Entry{}, false
	}
	path := file
	if !filepath.IsAbs(path) && c.Dir != "" {
		path = filepath.Join(c.Dir, path) // -C: as if fuzzmin ran there
	}
	data, err := readBounded(path, int64(ij.imp.MaxSize))
	if err != nil {
		return refuse(err)
	}
	vals, enc, note, err := decodeFile(ij.imp.Format, data, ij.types)
	if err != nil {
		return refuse(err)
	}
	t := ij.tj.target.Name
	e := corpus.Entry{Name: corpus.Name(enc), Path: filepath.Join(ij.tj.dir, corpus.Name(enc)), Data: enc, Values: vals}
	if first, ok := ij.names[e.Name]; ok {
		c.Rep.Infof("%s: the same entry as %s, %s/%s: imported once", file, first, t, e.Name)
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
	if ij.imp.Minimizing.Write.DryRun {
		fmt.Fprintf(&b, "%s: would import as %s (-n: nothing written)\n", file, c.Rel(e.Path))
	} else {
		if _, err := WriteEntry(ij.tj.root, ij.tj.dir, enc); err != nil {
			return refuse(errors.New(c.RelErr(err)))
		}
		fmt.Fprintf(&b, "%s: imported as %s\n", file, c.Rel(e.Path))
	}
	fmt.Fprintf(&b, "\t%s\n", preview(gosyntax.Call("f.Add", vals, "")))
	if note != "" {
		fmt.Fprintf(&b, "\tnote: %s\n", note)
	}
	c.Rep.Infof("%s", bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	ij.imported++
	return e, true
}

// decodeFile reads a file in format as the values of arguments of types,
// and returns them, as a corpus file too, and a note on how it read them.
func decodeFile(format string, data []byte, types []reflect.Type) (vals []any, file []byte, note string, err error) {
	gofuzz := bytes.HasPrefix(data, []byte(encoding.Version+"\n")) || bytes.HasPrefix(data, []byte(encoding.Version+"\r\n"))
	if gofuzz && format != FormatGofuzz {
		note = fmt.Sprintf("the file starts with a %q line, but -format=%s reads it as a raw testcase", encoding.Version, format)
	}
	switch format {
	case FormatGofuzz:
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
	case FormatV1:
		var n int
		if vals, n, err = ossfuzz.DecodeV1(data, types); err != nil {
			return nil, nil, "", fmt.Errorf("does not decode as v1 for %s: %v; a v1 build does not call the fuzz function with it, so it cannot be the crash (-format=v2?)", encoding.TypeList(types), err)
		}
		if n < len(data) {
			note = join(note, fmt.Sprintf("its last %s are not read, as the build does not read them", Plural(len(data)-n, "byte", "bytes")))
		}
	case FormatV2:
		var short bool
		if vals, short = ossfuzz.DecodeV2(data, types); short {
			note = join(note, "it ends before the fixed-size arguments and the weights do: the build reads zeros for the missing bytes, as here")
		}
	case FormatRaw:
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

// importCrashes is fuzzmin import: it imports files as imp says, and
// minimizes the entries they make.
func (c *Run) Import(ctx context.Context, imp *Importing, files []string) int {
	c.Rep.NoRerun = imp.Minimizing.Write.DryRun // what -n would write cannot be run
	return c.WithPackages(ctx, []string{imp.Pkg}, WritesSeeds, nil, func(pkgs []*Package) {
		c.importFiles(ctx, pkgs, imp, files)
	})
}
