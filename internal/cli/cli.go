package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
)

// Exit codes.
const (
	exitOK      = 0 // done, also when nothing failed
	exitFailure = 1 // some entry could not be minimized or verified, or the environment failed
	exitUsage   = 2 // usage error, or a package that does not build
)

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
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				v += " " + s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				v += "+dirty"
			}
		}
	}
	return fmt.Sprintf("fuzzmin %s %s", v, runtime.Version())
}
