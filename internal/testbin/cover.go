package testbin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// BuildCover builds a package's test binary to path, for the set coverage
// of the packages coverpkg (go test -c -cover -covermode=set), which Cover
// reads. goCmd makes a go command with the given arguments, run as the
// user's; flags are go test's flags for the package (-tags) and its
// arguments. A build that fails gives a *BuildError.
func BuildCover(goCmd func(args ...string) *exec.Cmd, path string, coverpkg, flags []string) error {
	args := []string{"test", "-c", "-cover", "-covermode=set", "-coverpkg=" + strings.Join(coverpkg, ","), "-o", path}
	out, err := goCmd(append(args, flags...)...).CombinedOutput()
	if err != nil {
		return &BuildError{Output: strings.TrimSpace(string(out)), err: err}
	}
	return nil
}

// Cover runs input alone with a binary built by BuildCover, as Run does,
// and returns what the run made of it and the blocks it covered, as the
// coverage profile names them ("file.go:12.2,14.16"). The blocks are nil if
// the binary wrote no profile.
func (r *Runner) Cover(ctx context.Context, input []byte, j Judge) (Result, []string, error) {
	res, profile, err := r.CoverProfile(ctx, input, j)
	if err != nil || profile == nil {
		return res, nil, err
	}
	return res, coveredBlocks(profile), nil
}

// CoverProfile is Cover that returns the coverage profile the run wrote
// (cmd/cover's format), nil if it wrote none.
func (r *Runner) CoverProfile(ctx context.Context, input []byte, j Judge) (Result, []byte, error) {
	profile := r.private + ".cover"
	os.Remove(profile)
	defer os.Remove(profile)
	j.args = append(j.args[:len(j.args):len(j.args)], "-test.coverprofile="+profile)
	res, err := r.Run(ctx, [][]byte{input}, j)
	if err != nil {
		return res, nil, err
	}
	data, err := os.ReadFile(profile)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil, nil
	}
	return res, data, err
}

// coveredBlocks reads a coverage profile (cmd/cover's format: a mode line,
// then "file:start.col,end.col statements count" per block) and returns the
// blocks whose count is not 0.
func coveredBlocks(profile []byte) []string {
	blocks := []string{}
	sc := bufio.NewScanner(bytes.NewReader(profile))
	for sc.Scan() {
		line := sc.Text()
		block, count, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "mode:") {
			continue
		}
		if _, n, _ := strings.Cut(count, " "); n != "0" {
			blocks = append(blocks, block)
		}
	}
	return blocks
}
