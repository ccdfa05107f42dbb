package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
)

// What the subcommands that work on one fuzz target (import, migrate)
// share: finding, building and asking the target.

// CheckTargetName checks the -run of a subcommand: the name of one fuzz
// target, not a pattern.
func CheckTargetName(name, what string) error {
	switch {
	case name == "":
		return fmt.Errorf("-run: want the name of the fuzz target %s", what)
	case !isFuzzName(name) || !isIdent(name):
		return fmt.Errorf("-run %q: want the name of one fuzz target, such as FuzzParse", name)
	}
	return nil
}

func isIdent(s string) bool {
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// findTarget returns the package of pkgs that has the fuzz target name,
// which must be exactly one.
func findTarget(pkgs []*Package, name string) (*Package, *Target, error) {
	var found []*Package
	var paths []string
	for _, p := range pkgs {
		paths = append(paths, p.ImportPath)
		if p.Target(name) != nil {
			found = append(found, p)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], found[0].Target(name), nil
	case len(found) > 1:
		var in []string
		for _, p := range found {
			in = append(in, p.ImportPath)
		}
		return nil, nil, fmt.Errorf("%s is a fuzz target of %d packages (%s): name one", name, len(found), strings.Join(in, ", "))
	case len(pkgs) == 1:
		var names []string
		for _, t := range pkgs[0].Targets {
			names = append(names, t.Name)
		}
		has := "it has no fuzz targets"
		if len(names) > 0 {
			has = "its fuzz targets: " + strings.Join(names, ", ")
		}
		return nil, nil, fmt.Errorf("%s has no fuzz target %s (%s)", pkgs[0].ImportPath, name, has)
	}
	return nil, nil, fmt.Errorf("no package of %s has a fuzz target %s", strings.Join(paths, ", "), name)
}

// targetTypes asks the test binary b for the argument types of target t
// (see testbin.Runner.ArgTypes).
func (c *Run) targetTypes(ctx context.Context, b *built, t *Target) ([]reflect.Type, error) {
	r, err := b.bin.Runner(t.Name, filepath.Join(b.dir, "probe"))
	if err != nil {
		return nil, err
	}
	return r.ArgTypes(ctx)
}
