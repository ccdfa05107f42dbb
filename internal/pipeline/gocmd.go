package pipeline

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// GoCommand returns a go command run where the user asked (-C), with the
// user's environment (GOFLAGS and all); see testbin.GoCommand.
func (c *Run) GoCommand(ctx context.Context, args ...string) *exec.Cmd {
	return testbin.GoCommand(ctx, c.Dir, c.Env, args...)
}

// Toolchain tells which Go release built the test binary at path.
func (c *Run) Toolchain(path string) *testbin.Toolchain {
	return testbin.Identify(path, c.goenv.root, c.goenv.version, toolchainSource(c.goenv.root))
}

// toolchainSource is where the source of the toolchain in goroot is, whose
// fuzz worker protocol testbin checks; tests give a changed copy.
var toolchainSource = func(goroot string) string { return filepath.Join(goroot, "src") }

// goEnv is what the go command says of itself (go env).
type goEnv struct {
	root, version, modcache, cache string // GOROOT, GOVERSION, GOMODCACHE, GOCACHE
}

func (c *Run) goOutput(ctx context.Context, args ...string) (string, error) {
	cmd := c.GoCommand(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

// BuildFlags are the go command's flags for the packages' builds and
// listings: -tags and -race.
func (c *Run) BuildFlags() []string {
	var flags []string
	if c.Tags != "" {
		flags = append(flags, "-tags="+c.Tags)
	}
	if c.Race {
		flags = append(flags, "-race")
	}
	return flags
}
