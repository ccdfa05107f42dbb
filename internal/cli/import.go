package cli

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

// importing is what the import stage serves: the files' target and how
// to read them, and how to minimize the entries they make.
type importing struct {
	target  string // -run: the target's name
	pkg     string
	format  string
	maxSize byteSize // of a file to import
	mz      minimizing
}

// An importJob is the import of files into one target's seed corpus.
type importJob struct {
	imp   *importing
	types []reflect.Type // the target's arguments
	tj    *targetJob     // the imported entries, to minimize
	names map[string]string
	// imported and refused count the files.
	imported, refused int
}

// importFiles imports files into the seed corpus of the target -run names
// and minimizes the new entries.
func (c *runContext) importFiles(ctx context.Context, pkgs []*pkg, o *importing, files []string) {
	p, t, err := findTarget(pkgs, o.target)
	if err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitUsage)
		return
	}
	b, ok := c.build(ctx, p, filepath.Join(c.disk.path, "0"), []string{t.Name})
	if !ok {
		return
	}
	ij := &importJob{imp: o, names: map[string]string{},
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
	if o.mz.write.dryRun {
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
	saved := c.minimizeJobs(ctx, p, b, jobs, o.mz, func(res result) {
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
func (c *runContext) importFile(ij *importJob, file string) (corpus.Entry, bool) {
	refuse := func(err error) (corpus.Entry, bool) {
		c.rep.infof("%s: not imported: %v", file, err)
		c.fail(exitFailure)
		ij.refused++
		return corpus.Entry{}, false
	}
	path := file
	if !filepath.IsAbs(path) && c.dir != "" {
		path = filepath.Join(c.dir, path) // -C: as if fuzzmin ran there
	}
	data, err := readBounded(path, int64(ij.imp.maxSize))
	if err != nil {
		return refuse(err)
	}
	vals, enc, note, err := decodeFile(ij.imp.format, data, ij.types)
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
	if ij.imp.mz.write.dryRun {
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

// importCrashes is fuzzmin import: it imports files as imp says, and
// minimizes the entries they make.
func (c *runContext) importCrashes(ctx context.Context, imp *importing, files []string) int {
	c.rep.noRerun = imp.mz.write.dryRun // what -n would write cannot be run
	return c.withPackages(ctx, []string{imp.pkg}, writesSeeds, nil, func(pkgs []*pkg) {
		c.importFiles(ctx, pkgs, imp, files)
	})
}
