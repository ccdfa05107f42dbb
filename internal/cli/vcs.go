package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// trackedFiles returns the names of the files of dir that git tracks: the
// corpus entries somebody committed as regression tests. Outside a git
// work tree, or without git, nothing is tracked.
func (c *command) trackedFiles(ctx context.Context, dir string) (map[string]bool, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "ls-files", "-z", "--", ".")
	cmd.Env = c.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return nil, nil
	case errors.As(err, &ee) && strings.Contains(stderr.String(), "not a git repository"):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("git ls-files in %s: %w: %s", dir, err, bytes.TrimSpace(stderr.Bytes()))
	}
	tracked := map[string]bool{}
	for _, name := range strings.Split(string(out), "\x00") {
		if name != "" && !strings.Contains(name, "/") {
			tracked[name] = true
		}
	}
	return tracked, nil
}
