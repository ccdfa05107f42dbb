package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// Exit codes.
const (
	exitOK      = 0 // done, also when nothing failed
	exitFailure = 1 // some entry could not be minimized or verified, or the environment failed
	exitUsage   = 2 // usage error, or a package that does not build
)

// Main runs the fuzzmin command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "demo":
			return runDemo(args[1:], stdout, stderr)
		case "import":
			return runImport(args[1:], stdout, stderr)
		case "migrate":
			return runMigrate(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, Manual())
			return exitOK
		case testbin.ExecArg:
			return testbin.RunExecWrapper(args[1:], stdout, stderr)
		}
	}
	m := modeMinimize
	if len(args) > 0 && (args[0] == string(modeCheck) || args[0] == string(modeCmin)) {
		m, args = mode(args[0]), args[1:]
	}
	o := defaultOptions(m)
	fs := o.flagSet()
	fs.SetOutput(stderr)
	fs.Usage = func() {} // a bad flag gets one line and the hint below, not the manual
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, Manual())
			return exitOK
		}
		fmt.Fprintln(stderr, usageHint)
		return exitUsage
	}
	if o.version {
		fmt.Fprintln(stdout, version())
		return exitOK
	}
	usageErr := func(err error) int {
		fmt.Fprintf(stderr, "fuzzmin: %v\n%s\n", err, usageHint)
		return exitUsage
	}
	if err := o.validate(); err != nil {
		return usageErr(err)
	}
	match, err := newMatcher(o.run)
	if err != nil {
		return usageErr(err)
	}
	if err := o.checkDir(); err != nil {
		return usageErr(err)
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &command{opts: o, match: match, rep: newReporter(stdout, stderr, o.json, o.verbose), env: os.Environ()}
	return c.main(ctx, patterns)
}

const usageHint = "Run 'fuzzmin -help' for usage."

// checkDir checks that -C names a directory.
func (o *options) checkDir() error {
	if o.dir == "" {
		return nil
	}
	if fi, err := os.Stat(o.dir); err != nil {
		return fmt.Errorf("-C %s: %w", o.dir, errors.Unwrap(err))
	} else if !fi.IsDir() {
		return fmt.Errorf("-C %s: not a directory", o.dir)
	}
	return nil
}

// version is fuzzmin's module version as the build recorded it: a release
// for go install …@version, "(devel)" and the commit for a build from a
// clone.
func version() string {
	v := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("fuzzmin %s %s", v, runtime.Version())
}
