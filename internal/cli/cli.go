package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

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
