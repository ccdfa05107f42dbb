package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// The message templates of a package's test binary: the constant text of
// every message its packages can print (failure.SourceTemplates), which
// tells a failure's identity (failure.Templates). They are read from the
// source of the packages go list -deps -test names, the standard library's
// included, once a package's files change: each directory's templates are
// kept in the user's cache directory, under a key made of its files
// (their content, or, in GOROOT, which nobody edits in place, their size
// and time).

// pkgTemplates loads the templates of a package once, in the background
// from its first use on.
type pkgTemplates struct {
	once sync.Once
	done chan struct{}
	ts   *failure.Templates
}

// startTemplates starts loading the templates of p, unless it has.
func (c *Run) startTemplates(ctx context.Context, p *Package) {
	p.templates.once.Do(func() {
		p.templates.done = make(chan struct{})
		go func() {
			defer close(p.templates.done)
			p.templates.ts = c.loadTemplates(ctx, p)
		}()
	})
}

// templatesOf returns the templates of p, waiting for them to load. A
// package whose templates cannot be read has none: its messages are
// masked.
func (c *Run) templatesOf(ctx context.Context, p *Package) *failure.Templates {
	c.startTemplates(ctx, p)
	select {
	case <-p.templates.done:
		return p.templates.ts
	case <-ctx.Done():
		return nil
	}
}

// shaperOf returns a new Shaper of p's failures.
func (c *Run) shaperOf(ctx context.Context, p *Package) *failure.Shaper {
	return &failure.Shaper{Templates: c.templatesOf(ctx, p)}
}

// listedDir is what go list -deps -test says of a package's files.
type listedDir struct {
	ImportPath                                   string
	Dir                                          string
	Standard                                     bool
	GoFiles, CgoFiles, TestGoFiles, XTestGoFiles []string
}

func (c *Run) loadTemplates(ctx context.Context, p *Package) *failure.Templates {
	args := append([]string{"list", "-e", "-deps", "-test", "-json=ImportPath,Dir,Standard,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles"}, c.BuildFlags()...)
	out, err := c.goOutput(ctx, append(args, p.Args...)...)
	if err != nil {
		c.VerboseNote("fuzzmin: " + p.ImportPath + ": no message templates: " + err.Error())
		return nil
	}
	return readTemplates(ctx, out, templateCacheDir())
}

// readTemplates reads the templates of the packages that listed, go list's
// output, names, with the cache in the directory cache ("": none).
func readTemplates(ctx context.Context, listed, cache string) *failure.Templates {
	dirs := map[string]*listedDir{}
	var order []string
	for dec := json.NewDecoder(strings.NewReader(listed)); dec.More(); {
		var l listedDir
		if dec.Decode(&l) != nil {
			break
		}
		if l.Dir == "" || strings.HasSuffix(l.ImportPath, ".test") {
			continue // the generated test main
		}
		d := dirs[l.Dir]
		if d == nil {
			d = &listedDir{Dir: l.Dir, Standard: l.Standard}
			dirs[l.Dir] = d
			order = append(order, l.Dir)
		}
		for _, list := range [][]string{l.GoFiles, l.CgoFiles, l.TestGoFiles, l.XTestGoFiles} {
			for _, f := range list {
				if !slices.Contains(d.GoFiles, f) {
					d.GoFiles = append(d.GoFiles, f)
				}
			}
		}
	}
	// Each directory on a core of its own: parsing the standard library's
	// packages is most of a first run's cost.
	read := make([]map[string][]string, len(order))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				read[i] = dirTemplates(cache, dirs[order[i]])
			}
		})
	}
	for i := range order {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	sites := map[string][]string{}
	for _, r := range read {
		for pos, ts := range r {
			sites[pos] = append(sites[pos], ts...)
		}
	}
	return failure.NewTemplates(sites)
}

// templateCacheDir returns the directory of the cached templates, or ""
// if there is no cache (cacheDir).
func templateCacheDir() string {
	dir := cacheDir()
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "templates")
}

// dirTemplates returns the templates of one directory's package, from the
// cache if its files have not changed.
func dirTemplates(cache string, d *listedDir) map[string][]string {
	slices.Sort(d.GoFiles)
	files := make([]string, len(d.GoFiles))
	h := sha256.New()
	h.Write([]byte(failure.SourceVersion + "\x00" + d.Dir + "\x00"))
	for i, f := range d.GoFiles {
		files[i] = filepath.Join(d.Dir, f)
		h.Write([]byte(f + "\x00"))
		if d.Standard {
			fi, err := os.Stat(files[i])
			if err != nil {
				return nil
			}
			h.Write([]byte(strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "\x00"))
			continue
		}
		data, err := os.ReadFile(files[i])
		if err != nil {
			return nil
		}
		h.Write(data)
		h.Write([]byte{0})
	}
	key := hex.EncodeToString(h.Sum(nil))
	path := ""
	if cache != "" {
		path = filepath.Join(cache, key[:2], key+".json")
		if data, err := os.ReadFile(path); err == nil {
			var sites map[string][]string
			if json.Unmarshal(data, &sites) == nil {
				if fi, err := os.Stat(path); err == nil {
					touchCacheFile(path, fi)
				}
				return sites
			}
		}
	}
	sites := failure.SourceTemplates(files)
	if path != "" {
		writeCacheFile(path, sites)
	}
	return sites
}

// writeCacheFile writes v to path atomically; a cache that cannot be
// written is only slower.
func writeCacheFile(path string, v any) {
	data, err := json.Marshal(v)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o777) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return
	}
	_, err = bytes.NewReader(data).WriteTo(f)
	if cerr := f.Close(); err == nil && cerr == nil && os.Rename(f.Name(), path) == nil {
		return
	}
	os.Remove(f.Name())
}
