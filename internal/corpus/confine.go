package corpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A LinkError says that a path leads, through a symbolic link, out of the
// directory it must stay in.
type LinkError struct {
	Link   string // the symbolic link
	Target string // where it leads, resolved
	Root   string // where it had to stay
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s, which is outside %s", e.Link, e.Target, e.Root)
}

// Confined checks that path stays inside root once every symbolic link on
// the way is resolved: path itself and each directory between root and it
// that exists. It returns a *LinkError naming the first link that leads
// out, and an error if path is not below root at all. Parts of path that do
// not exist yet are fine: they would be made inside their parent.
func Confined(path, root string) error {
	realRoot, err := filepath.EvalSymlinks(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing is there yet
	}
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || !within(rel) {
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
		if r, err := filepath.Rel(realRoot, target); err != nil || !within(r) {
			return &LinkError{Link: p, Target: target, Root: root}
		}
	}
	return nil
}

// within reports whether a relative path stays below its base.
func within(rel string) bool {
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
