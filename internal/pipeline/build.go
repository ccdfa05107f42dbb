package pipeline

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

// BuildFailed reports why p's test binary was not built: the go command's
// output for a build error (exit 2), or what else went wrong, unless ctx
// was canceled.
func (c *Run) BuildFailed(ctx context.Context, p *Package, err error) {
	if be := (*testbin.BuildError)(nil); errors.As(err, &be) {
		c.Rep.buildError(p.ImportPath, be.Output)
		c.Fail(ExitUsage)
	} else if ctx.Err() == nil {
		c.Rep.Errorf("%s: %v", p.ImportPath, err)
		c.Fail(ExitFailure)
	}
}

// TargetNames returns the names of the jobs' targets.
func TargetNames(jobs []*TargetJob) []string {
	names := make([]string, len(jobs))
	for i, tj := range jobs {
		names[i] = tj.target.Name
	}
	return names
}

// Hook returns go test's flags that add the hook's batch workers of the
// targets to p's test binary (testbin.WriteHooks), with dir for its files;
// nil where candidates do not run in fuzz workers, where p is not of a
// module of the user's (a package in the module cache, or one the go
// command is told of by its files), or where the user's GOFLAGS has an
// overlay of its own, which the flag would replace.
func (c *Run) Hook(p *Package, dir string, targets []string) []string {
	if !c.Worker || !testbin.WorkerSupported || !p.Writable || p.ModulePath == "" || p.ImportPath == "command-line-arguments" ||
		strings.Contains(EnvValue(c.Env, "GOFLAGS"), "-overlay") {
		return nil
	}
	var hooks []testbin.HookTarget
	for _, name := range targets {
		if t := p.Target(name); t != nil {
			hooks = append(hooks, testbin.HookTarget{Name: t.Name, Package: t.Package, External: t.External})
		}
	}
	flag, err := testbin.WriteHooks(dir, p.ModuleDir, p.ModulePath, p.Dir, hooks)
	if err != nil {
		c.VerboseNote(fmt.Sprintf("fuzzmin: %s: built without the batch workers: %v", p.ImportPath, err))
		return nil
	}
	return []string{flag}
}

// BuildHooked runs build with the hook's flags (Hook), and again without
// them if p does not build with the hook's files, after a note that says
// so: "does not build with " and why ("the hook's files; built without
// them"). It reports whether the hook is in the binary.
func (c *Run) BuildHooked(p *Package, hook []string, why string, build func(hook []string) error) (hooked bool, err error) {
	err = build(hook)
	if be := (*testbin.BuildError)(nil); hook != nil && errors.As(err, &be) && testbin.HookBroke(be.Output) {
		c.VerboseNote(fmt.Sprintf("fuzzmin: %s does not build with %s:\n%s", p.ImportPath, why, be.Output))
		return false, build(nil)
	}
	return hook != nil, err
}

// Build has go test build the package's test binary, with dir for its
// files.
func (c *Run) Build(ctx context.Context, p *Package, dir string, targets []string) (*built, bool) {
	start := time.Now()
	ctl := filepath.Join(dir, "exec")
	if err := os.MkdirAll(ctl, 0o777); err != nil {
		c.Rep.Errorf("%v", err)
		c.Fail(ExitFailure)
		return nil, false
	}
	c.Rep.Phase("building " + p.ImportPath)
	c.startTemplates(ctx, p) // while it builds
	// The go test run checks the results when the package is done: a
	// first interrupt, which stops the searches, does not end it.
	goCmd := func(args ...string) *exec.Cmd { return c.GoCommand(c.finishContext(), args...) }
	flags := append(c.BuildFlags(), p.Args...)
	hook := c.Hook(p, dir, targets)
	out, release := c.binaryPath(p, "test", append(slices.Clip(flags), hook...))
	if out != "" && !strings.Contains(EnvValue(c.Env, "GOFLAGS"), "-ldflags") && !slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "-ldflags") }) {
		// go test links a binary it runs and removes without its symbol
		// table and DWARF (-s -w), and one it keeps (-o) with them,
		// which takes much longer: the binary in the cache is linked as
		// go test would link it to run it. (A user's -ldflags stays
		// the user's.)
		flags = append(flags, "-ldflags=-s -w")
	}
	var s *testbin.Build
	hooked, err := c.BuildHooked(p, hook, "the batch workers' files; built without them", func(hook []string) (err error) {
		s, err = testbin.StartBuild(ctx, goCmd, ctl, out, targets, append(slices.Clip(flags), hook...))
		return err
	})
	c.Rep.Phase("")
	if err != nil {
		release()
		c.BuildFailed(ctx, p, err)
		return nil, false
	}
	// go test runs the binary at out if it was up to date there; one it
	// links, it runs where it linked it, and moves it to out after.
	c.Rep.Built(p.ImportPath, time.Since(start), out != "" && filepath.Clean(s.Binary) == filepath.Clean(out))
	bin := &testbin.Binary{
		Path: s.Binary, Args: s.Args, ModDir: p.ModuleDir, PkgDir: p.Dir, Toolchain: c.Toolchain(s.Binary),
		Timeout: c.ExecTimeout, MemLimit: int64(c.MemLimit), Env: c.Env, RAM: c.RAM.Path, Disk: c.Disk.Path, Note: c.VerboseNote,
		Hooked: hooked,
	}
	return &built{s: s, bin: bin, dir: dir, release: release}, true
}
