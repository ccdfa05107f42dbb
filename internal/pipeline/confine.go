package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fuzzmin/fuzzmin/corpus"
)

// fuzzmin writes, renames and removes files only inside the module of the
// package whose corpus it works on (and, for cmin, inside the fuzz cache).
// A symbolic link on the way that leads out (testdata/fuzz/FuzzX linked to
// another project's corpus, an entry linked to a file elsewhere) would let
// it change what is not ours. Each write and removal checks its path
// (writeEntry, removeEntry); before any work, refuseLinks checks every
// corpus directory and entry the command may touch, so that a run stops
// before it has done anything rather than halfway.

// WriteEntry writes data into dir, a corpus directory inside root, under
// the toolchain's name (corpus.WriteFile), if no link leads it out of root.
func WriteEntry(root, dir string, data []byte) (string, error) {
	if err := confined(filepath.Join(dir, corpus.Name(data)), root); err != nil {
		return "", err
	}
	return corpus.WriteFile(dir, data)
}

// removeEntry removes the corpus file path inside root, if no link leads
// it out of root. (Removing a link removes the link, not its target; but a
// directory on the way may be a link, and then the file is not ours.)
func removeEntry(root, path string) error {
	if err := confined(filepath.Dir(path), root); err != nil {
		return err
	}
	return corpus.Remove(path)
}

// refuseLinks reports each corpus directory of the targets of pkgs that m
// selects, and
// each entry in it, that leads out of its package's module through a
// symbolic link, and with cache each generated corpus directory that
// leads out of the fuzz cache. It reports whether it found one: then
// nothing is done.
func (c *Run) refuseLinks(pkgs []*Package, m *Matcher, cache bool) bool {
	refused := false
	for _, p := range pkgs {
		for _, t := range p.Targets {
			if !m.MatchTarget(t.Name) {
				continue
			}
			if err := confinedCorpus(corpus.SeedCorpus(p.Dir, t.Name), p.ModuleDir); err != nil {
				c.Rep.Errorf("%s", c.linkMessage(err, "the main module"))
				refused = true
			}
			if !cache {
				continue
			}
			if err := confinedCorpus(c.CacheCorpus(p, t.Name), c.CacheRoot()); err != nil {
				c.Rep.Errorf("%s", c.linkMessage(err, "the fuzz cache"))
				refused = true
			}
		}
	}
	return refused
}

// confinedCorpus checks a corpus directory and its entries.
func confinedCorpus(dir, root string) error {
	if err := confined(dir, root); err != nil {
		return err
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil // nothing there to lead out
	}
	for _, de := range des {
		if err := confined(filepath.Join(dir, de.Name()), root); err != nil {
			return err
		}
	}
	return nil
}

// linkMessage says why a path is refused, naming where it had to stay.
func (c *Run) linkMessage(err error, where string) string {
	var le *linkError
	if !errors.As(err, &le) {
		return c.RelErr(err)
	}
	return fmt.Sprintf("%s is a symbolic link to %s, outside %s (%s): fuzzmin writes only inside it; nothing was done",
		c.Rel(le.Link), le.Target, where, le.Root)
}

// A linkError says that a path leads, through a symbolic link, out of the
// directory it must stay in.
type linkError struct {
	Link   string // the symbolic link
	Target string // where it leads, resolved
	Root   string // where it had to stay
}

func (e *linkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s, which is outside %s", e.Link, e.Target, e.Root)
}

// confined checks that path stays inside root once every symbolic link on
// the way is resolved: path itself and each directory between root and it
// that exists. It returns a *linkError naming the first link that leads
// out, and an error if path is not below root at all. Parts of path that do
// not exist yet are fine: they would be made inside their parent.
func confined(path, root string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing is there yet
	}
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || !relWithin(rel) {
		return fmt.Errorf("%s is not inside %s", path, root)
	}
	p := root
	if rel == "." {
		return nil
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			// A link to nothing: where it would lead.
			dest, rerr := os.Readlink(p)
			if rerr != nil {
				return err
			}
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(p), dest)
			}
			target = filepath.Clean(dest)
		}
		if r, err := filepath.Rel(realRoot, target); err != nil || !relWithin(r) {
			return &linkError{Link: p, Target: target, Root: root}
		}
	}
	return nil
}

// relWithin reports whether a relative path stays below its base.
func relWithin(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// refuse reports the packages with fuzz targets whose testdata is not
// fuzzmin's to write: outside the main module, in the module cache, or in
// GOROOT, however they were named. Nothing is done if any is refused.
func (c *Run) refuse(pkgs []*Package) bool {
	refused := false
	for _, p := range pkgs {
		if len(p.Targets) == 0 {
			continue
		}
		why := ""
		switch {
		case within(p.Dir, c.goenv.modcache):
			why = "it is in the module cache (" + c.goenv.modcache + ")"
		case within(p.Dir, c.goenv.root):
			why = "it is in GOROOT (" + c.goenv.root + ")"
		case !p.Writable:
			why = "it is not in the main module"
		default:
			continue
		}
		c.Rep.Errorf("%s: %s: fuzzmin writes only into the testdata of packages of the main module; run it in a clone of the package's module", p.ImportPath, why)
		refused = true
	}
	return refused
}

// within reports whether path is dir or below it, symbolic links resolved.
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	for _, p := range []*string{&path, &dir} {
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
