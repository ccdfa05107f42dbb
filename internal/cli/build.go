package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// A built package: its test binary, and the go test run that built it,
// which checks the results when the package is done (see testbin.Build).
type built struct {
	s       *testbin.Build
	bin     *testbin.Binary
	dir     string // for the files of the package's run, which the caller removes
	release func() // of the binary's cache slot (binaryPath)
}

// finish ends the go test run, once its checks are done, and lets other
// runs have the binary's cache slot.
func (b *built) finish(ctx context.Context) {
	b.s.Finish(ctx)
	b.release()
}

// buildFailed reports why p's test binary was not built: the go command's
// output for a build error (exit 2), or what else went wrong, unless ctx
// was canceled.
func (c *runContext) buildFailed(ctx context.Context, p *pkg, err error) {
	if be := (*testbin.BuildError)(nil); errors.As(err, &be) {
		c.rep.buildError(p.ImportPath, be.Output)
		c.fail(exitUsage)
	} else if ctx.Err() == nil {
		c.rep.errorf("%s: %v", p.ImportPath, err)
		c.fail(exitFailure)
	}
}

// targetNames returns the names of the jobs' targets.
func targetNames(jobs []*targetJob) []string {
	names := make([]string, len(jobs))
	for i, tj := range jobs {
		names[i] = tj.target.Name
	}
	return names
}

// hook returns go test's flags that add the hook's batch workers of the
// targets to p's test binary (testbin.WriteHooks), with dir for its files;
// nil where candidates do not run in fuzz workers, where p is not of a
// module of the user's (a package in the module cache, or one the go
// command is told of by its files), or where the user's GOFLAGS has an
// overlay of its own, which the flag would replace.
func (c *runContext) hook(p *pkg, dir string, targets []string) []string {
	if !c.worker || !testbin.WorkerSupported || !p.Writable || p.ModulePath == "" || p.ImportPath == "command-line-arguments" ||
		strings.Contains(envValue(c.env, "GOFLAGS"), "-overlay") {
		return nil
	}
	var hooks []testbin.HookTarget
	for _, name := range targets {
		if t := p.target(name); t != nil {
			hooks = append(hooks, testbin.HookTarget{Name: t.Name, Package: t.Package, External: t.External})
		}
	}
	flag, err := testbin.WriteHooks(dir, p.ModuleDir, p.ModulePath, p.Dir, hooks)
	if err != nil {
		c.verboseNote(fmt.Sprintf("fuzzmin: %s: built without the batch workers: %v", p.ImportPath, err))
		return nil
	}
	return []string{flag}
}

// build has go test build the package's test binary, with dir for its
// files.
func (c *runContext) build(ctx context.Context, p *pkg, dir string, targets []string) (*built, bool) {
	start := time.Now()
	ctl := filepath.Join(dir, "exec")
	if err := os.MkdirAll(ctl, 0o777); err != nil {
		c.rep.errorf("%v", err)
		c.fail(exitFailure)
		return nil, false
	}
	c.rep.phase("building " + p.ImportPath)
	c.startTemplates(ctx, p) // while it builds
	// The go test run checks the results when the package is done: a
	// first interrupt, which stops the searches, does not end it.
	goCmd := func(args ...string) *exec.Cmd { return c.goCommand(c.finishContext(), args...) }
	flags := append(c.buildFlags(), p.Args...)
	hook := c.hook(p, dir, targets)
	out, release := c.binaryPath(p, "test", append(slices.Clip(flags), hook...))
	if out != "" && !strings.Contains(envValue(c.env, "GOFLAGS"), "-ldflags") && !slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-ldflags") }) {
		// go test links a binary it runs and removes without its symbol
		// table and DWARF (-s -w), and one it keeps (-o) with them,
		// which takes much longer: the binary in the cache is linked as
		// go test would link it to run it. (A user's -ldflags stays
		// the user's.)
		flags = append(flags, "-ldflags=-s -w")
	}
	s, err := testbin.StartBuild(ctx, goCmd, ctl, out, targets, append(slices.Clip(flags), hook...))
	if be := (*testbin.BuildError)(nil); hook != nil && errors.As(err, &be) && testbin.HookBroke(be.Output) {
		c.verboseNote(fmt.Sprintf("fuzzmin: %s does not build with the batch workers' files; built without them:\n%s", p.ImportPath, be.Output))
		hook = nil
		s, err = testbin.StartBuild(ctx, goCmd, ctl, out, targets, flags)
	}
	c.rep.phase("")
	if err != nil {
		release()
		c.buildFailed(ctx, p, err)
		return nil, false
	}
	// go test runs the binary at out if it was up to date there; one it
	// links, it runs where it linked it, and moves it to out after.
	c.rep.built(p.ImportPath, time.Since(start), out != "" && filepath.Clean(s.Binary) == filepath.Clean(out))
	bin := &testbin.Binary{
		Path: s.Binary, Args: s.Args, ModDir: p.ModuleDir, PkgDir: p.Dir, Toolchain: c.toolchain(s.Binary),
		Timeout: c.execTimeout, MemLimit: int64(c.memLimit), Env: c.env, RAM: c.ram.path, Disk: c.disk.path, Note: c.verboseNote,
		Hooked: hook != nil,
	}
	return &built{s: s, bin: bin, dir: dir, release: release}, true
}
