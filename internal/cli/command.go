package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A command is one run of fuzzmin over its packages (a session is something
// else: the in-process search of one entry, see inprocess.go).
type command struct {
	opts    options
	match   *matcher
	rep     *reporter
	env     []string
	goroot  string
	tmp     string // removed at the end
	matched int    // entries selected
	exit    int
}

// fail raises the exit code to code.
func (c *command) fail(code int) {
	c.exit = max(c.exit, code)
}

func (c *command) main(ctx context.Context, patterns []string) int {
	goroot, err := c.goOutput(ctx, "env", "GOROOT")
	if err != nil {
		c.rep.errorf("%v", err)
		return exitFailure
	}
	c.goroot = strings.TrimSpace(goroot)
	pkgs, err := loadPackages(c.opts.dir, c.env, c.opts.tags, patterns)
	if err != nil {
		c.rep.errorf("%v", err)
		return exitUsage
	}
	sweepScratch()
	if c.tmp, err = tempDir("", "run"); err != nil {
		c.rep.errorf("%v", err)
		return exitFailure
	}
	defer os.RemoveAll(c.tmp)
	for i, p := range pkgs {
		if ctx.Err() != nil {
			break
		}
		c.minimizePackage(ctx, p, filepath.Join(c.tmp, fmt.Sprint(i)))
	}
	if ctx.Err() != nil {
		c.rep.errorf("interrupted; the entry being minimized was left as it was")
		c.fail(exitFailure)
	} else if c.matched == 0 && c.opts.run != "" && c.exit == exitOK {
		c.rep.infof("fuzzmin: no fuzz target or corpus entry matches -run=%s", c.opts.run)
	}
	c.rep.summary()
	return c.exit
}

// goCommand returns a go command run where the user asked (-C), with the
// user's environment (GOFLAGS and all). Canceling ctx interrupts the go
// command and what it runs, as Ctrl-C in a terminal would, so that it
// removes its temporary files; it is killed if it has not ended 10 seconds
// later.
func (c *command) goCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = c.opts.dir
	cmd.Env = c.env
	setProcessGroup(cmd)
	cmd.Cancel = func() error { return interruptProcessGroup(cmd) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

func (c *command) goOutput(ctx context.Context, args ...string) (string, error) {
	cmd := c.goCommand(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func (c *command) tagsFlag() []string {
	if c.opts.tags == "" {
		return nil
	}
	return []string{"-tags=" + c.opts.tags}
}

// rel shortens a path for messages: relative to the working directory when
// it is below it.
func (c *command) rel(path string) string {
	wd, err := os.Getwd()
	if c.opts.dir != "" {
		wd, err = filepath.Abs(c.opts.dir)
	}
	if err != nil {
		return path
	}
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// relErr shortens the absolute paths in an error message.
func (c *command) relErr(err error) string {
	msg := err.Error()
	if i := strings.IndexAny(msg, ": "); i > 0 && filepath.IsAbs(msg[:i]) {
		return c.rel(msg[:i]) + msg[i:]
	}
	return msg
}
