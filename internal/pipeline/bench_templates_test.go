package pipeline

import (
	"context"
	"os/exec"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/testbin/testbintest"
)

// templatesModule is a test package that imports testify and go-cmp, whose
// test binary links about 150 packages of theirs and the standard
// library's.
var templatesModule = map[string]string{
	"go.mod": `module example.com/tpl

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/stretchr/testify v1.11.1
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
`,
	"go.sum": `github.com/davecgh/go-spew v1.1.1 h1:vj9j/u1bqnvCEfJOwUhtlOARqs3+rkHYY13jYWTU97c=
github.com/davecgh/go-spew v1.1.1/go.mod h1:J7Y8YcW2NihsgmVo/mv3lAwl/skON4iLHjSsI+c5H38=
github.com/google/go-cmp v0.7.0 h1:wk8382ETsv4JYUZwIsn6YpYiWiBsYLSJiTsyBybVuN8=
github.com/google/go-cmp v0.7.0/go.mod h1:pXiqmnSA92OHEEa9HXL2W4E7lf9JzCmGVUdgjX3N/iU=
github.com/pmezard/go-difflib v1.0.0 h1:4DBwDE0NGyQoBHbLQYPwSUPoCMWR5BEzIk/f1lZbAQM=
github.com/pmezard/go-difflib v1.0.0/go.mod h1:iKH77koFhYxTK1pcRnkKkqfTogsbg7gZNVY4sRDYZ/4=
github.com/stretchr/testify v1.11.1 h1:7s2iGBzp5EwR7/aIZr8ao5+dra3wiQyKjjFuvgVKu7U=
github.com/stretchr/testify v1.11.1/go.mod h1:wZwfW3scLgRK+23gO65QZefKpKQRnfz6sD981Nm4B6U=
gopkg.in/check.v1 v0.0.0-20161208181325-20d25e280405/go.mod h1:Co6ibVJAznAaIkqp8huTwlJQCZ016jof/cbN4VW5Yz0=
gopkg.in/yaml.v3 v3.0.1 h1:fxVm/GzAzEWqLHuvctI91KS9hhNmmWOoWu0XTYJS7CA=
gopkg.in/yaml.v3 v3.0.1/go.mod h1:K4uyk7z7BCEPqu6E+C64Yfv1cQ7kz7rIZviUmN+EgEM=
`,
	"tpl.go": "package tpl\n\nfunc Parse(s string) string { return s }\n",
	"tpl_test.go": `package tpl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if d := cmp.Diff(s, Parse(s)); d != "" {
			t.Fatalf("mismatch (-want +got):\n%s", d)
		}
		require.Equal(t, s, Parse(s))
	})
}
`,
}

// BenchmarkTemplates measures the one-time cost of a package's message
// templates: go list -deps -test of a test that imports testify and
// go-cmp (list), reading and parsing the source of every package it
// names with an empty cache (cold), and reading them from the cache
// (warm).
func BenchmarkTemplates(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	dir := b.TempDir()
	testbintest.WriteModule(b, dir, "", templatesModule)
	list := func() string {
		cmd := exec.Command("go", "list", "-e", "-deps", "-test", "-json=ImportPath,Dir,Standard,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles", ".")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("go list: %v", err)
		}
		return string(out)
	}
	listed := list()
	b.Run("list", func(b *testing.B) {
		for b.Loop() {
			list()
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			cache := b.TempDir()
			b.StartTimer()
			ts := readTemplates(context.Background(), listed, cache)
			b.ReportMetric(float64(ts.Len()), "templates")
		}
	})
	b.Run("warm", func(b *testing.B) {
		cache := b.TempDir()
		readTemplates(context.Background(), listed, cache)
		for b.Loop() {
			readTemplates(context.Background(), listed, cache)
		}
	})
}
