package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestConfined(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "mod")
	outside := filepath.Join(dir, "elsewhere")
	for _, d := range []string{"mod/pkg/testdata/fuzz/FuzzIn", "mod/shared", "elsewhere/FuzzOut"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o777); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"mod/pkg/testdata/fuzz/FuzzOut":     outside + "/FuzzOut",      // leaves the module
		"mod/pkg/testdata/fuzz/FuzzShared":  "../../../shared",         // stays inside, relative
		"mod/pkg/testdata/fuzz/FuzzIn/e1":   outside + "/secret",       // an entry leading out, to nothing yet
		"mod/pkg/testdata/fuzz/FuzzIn/e2":   "e3",                      // an entry leading to a sibling
		"mod/pkg/other":                     outside,                   // a directory on the way leads out
		"mod/pkg/testdata/fuzz/FuzzDangle":  "../../../../elsewhere/x", // to nothing, outside
		"mod/pkg/testdata/fuzz/FuzzLoopA":   "FuzzLoopB",               // a loop, inside
		"mod/pkg/testdata/fuzz/FuzzLoopB":   "FuzzLoopA",
		"mod/pkg/testdata/fuzz/FuzzDotDot":  "..", // testdata, inside
		"mod/pkg/testdata/fuzz/FuzzRootish": "/",  // everything
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	fuzz := filepath.Join(root, "pkg", "testdata", "fuzz")
	for _, tt := range []struct {
		path string
		link string // the link named by a *linkError; "" for no error
	}{
		{filepath.Join(fuzz, "FuzzIn"), ""},
		{filepath.Join(fuzz, "FuzzIn", "new"), ""},
		{filepath.Join(fuzz, "FuzzNew", "e1"), ""},
		{filepath.Join(fuzz, "FuzzShared", "e1"), ""},
		{filepath.Join(fuzz, "FuzzIn", "e2"), ""},
		{filepath.Join(fuzz, "FuzzDotDot", "fuzz"), ""},
		{filepath.Join(fuzz, "FuzzOut"), filepath.Join(fuzz, "FuzzOut")},
		{filepath.Join(fuzz, "FuzzOut", "e1"), filepath.Join(fuzz, "FuzzOut")},
		{filepath.Join(fuzz, "FuzzIn", "e1"), filepath.Join(fuzz, "FuzzIn", "e1")},
		{filepath.Join(root, "pkg", "other", "testdata", "fuzz", "FuzzX"), filepath.Join(root, "pkg", "other")},
		{filepath.Join(fuzz, "FuzzDangle"), filepath.Join(fuzz, "FuzzDangle")},
		{filepath.Join(fuzz, "FuzzRootish", "tmp"), filepath.Join(fuzz, "FuzzRootish")},
	} {
		err := confined(tt.path, root)
		var le *linkError
		switch {
		case tt.link == "" && err != nil:
			t.Errorf("confined(%s) = %v, want nil", tt.path, err)
		case tt.link != "" && (!errors.As(err, &le) || le.Link != tt.link):
			t.Errorf("confined(%s) = %v, want a *linkError for %s", tt.path, err, tt.link)
		}
	}
	if err := confined(filepath.Join(fuzz, "FuzzLoopA", "e"), root); err == nil {
		t.Errorf("Confined through a loop of links = nil, want an error")
	}
	if err := confined(outside, root); err == nil {
		t.Errorf("confined(a path outside the root) = nil, want an error")
	}
}
