package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// An entry that version control tracks is a regression test somebody chose
// to keep: fuzzmin replays it and reports it, and rewrites it only with
// -tracked. Which entries are tracked, git says. When the corpus is in a
// work tree that git cannot answer for (no git on PATH, as in slim CI
// images; a git that refuses the repository, as for "dubious ownership"),
// or of another version control system, fuzzmin cannot tell: it treats
// every entry as tracked, and says so once.

// A tracking says which entries of a corpus directory version control
// tracks.
type tracking struct {
	files map[string]bool
	all   bool // under version control that cannot answer: every entry counts
}

// has reports whether the entry name counts as tracked.
func (t tracking) has(name string) bool { return t.all || t.files[name] }

// vcsMarks are what the root of a work tree of a version control system
// holds, by system.
var vcsMarks = []struct{ mark, name string }{
	{".git", "git"}, {".hg", "Mercurial"}, {".svn", "Subversion"}, {".bzr", "Bazaar"},
	{"_darcs", "Darcs"}, {".fslckout", "Fossil"}, {"_FOSSIL_", "Fossil"}, {".jj", "Jujutsu"}, {".pijul", "Pijul"},
}

// workTree returns the root of the version-controlled work tree dir is in,
// and the system's name; "" outside any.
func workTree(dir string) (root, system string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", ""
	}
	for d := abs; ; d = filepath.Dir(d) {
		for _, m := range vcsMarks {
			if _, err := os.Lstat(filepath.Join(d, m.mark)); err == nil {
				return d, m.name
			}
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// trackedFiles tells which files of dir version control tracks.
func (c *Run) trackedFiles(ctx context.Context, dir string) tracking {
	root, system := workTree(dir)
	if root == "" {
		return tracking{}
	}
	if system != "git" {
		return c.cannotTell(root, system, "fuzzmin asks only git which files are tracked")
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "-z", "--", ".")
	cmd.Env = c.Env
	ownGroup(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return c.cannotTell(root, system, "there is no git command on PATH")
	case errors.As(err, &ee) && strings.Contains(stderr.String(), "not a git repository"):
		return tracking{} // a .git that is not a repository's
	case err != nil:
		msg := strings.TrimSpace(strings.SplitN(strings.TrimSpace(stderr.String()), "\n", 2)[0])
		if msg == "" {
			msg = err.Error()
		}
		return c.cannotTell(root, system, fmt.Sprintf("git ls-files fails: %s", msg))
	}
	tracked := map[string]bool{}
	for _, name := range strings.Split(string(out), "\x00") {
		if name != "" && !strings.Contains(name, "/") {
			tracked[name] = true
		}
	}
	return tracking{files: tracked}
}

// cannotTell is the tracking of a corpus under version control that does
// not say which files it tracks: all of them, and a line says why. (It is
// asked only without -tracked: SelectEntries.)
func (c *Run) cannotTell(root, system, why string) tracking {
	c.note(fmt.Sprintf("fuzzmin: the corpus is in a %s work tree (%s), but %s: every entry counts as tracked, replayed and reported but not rewritten (-tracked rewrites them)",
		system, root, why))
	return tracking{all: true}
}
