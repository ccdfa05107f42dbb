package shrink_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/internal/shapes"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// shapeOracle runs the candidates of a shape in process. With full, it
// judges every candidate of a batch, as an oracle that runs batches in
// another process does; otherwise it stops at the first that fails.
type shapeOracle struct {
	s    *shapes.Shape
	full bool
}

func (o shapeOracle) Run(ctx context.Context, batch [][]any) ([]shrink.Verdict, error) {
	vs := make([]shrink.Verdict, 0, len(batch))
	for _, args := range batch {
		if ctx.Err() != nil {
			break
		}
		v := shrink.Classify(o.s.Check(args[0]), o.s.Sig)
		vs = append(vs, v)
		if v == shrink.Fail && !o.full {
			break
		}
	}
	return vs, nil
}

// shapeMinima are the exact minima of the shapes (see each shape's
// EXPECTED.md for why nothing smaller fails), in the order of the
// package documentation: text before binary data of its length, text
// printable-first and binary data by byte value.
var shapeMinima = map[string]any{
	"json":     []byte(`[{"id":-1}]`),
	"config":   "[server]\nport=0\nmode=fast",
	"sexpr":    "(/ 0 0)",
	"markup":   `<0 width="-1"/>`,
	"gosource": []byte("package a;func a(){0<<=64}"),
	"toml":     "[server]\ntimeout=[]",
	"packet":   []byte("\x82\xcc\x00\x03\x00\x00\x00\x00STAT\x00\x01\x00\x00"),
	"wire":     []byte("\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x00"),
	"dns":      []byte("\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00" + "\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00"),
	"tiff": []byte("II*\x00\x08\x00\x00\x00\x04\x00" +
		"\x00\x01\x03\x00\x01\x00\x00\x00\x00\x01\x00\x00" +
		"\x01\x01\x03\x00\x01\x00\x00\x00\x00\x01\x00\x00" +
		"\x11\x01\x03\x00\x01\x00\x00\x00\x00\x00\x00\x00" +
		"\x17\x01\x03\x00\x01\x00\x00\x00\x00\x00\x00\x00"),
	"bmp": []byte("BM\x3e\x00\x00\x00\x00\x00\x00\x00\x3a\x00\x00\x00" +
		"\x28\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x01\x00\x08\x00\x00\x00\x00\x00" +
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00" +
		"\x00\x00\x00\x00\x01\x00\x00\x00"),
	"pcap": []byte("\xd4\xc3\xb2\xa1\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00" +
		"\x00\x00\x00\x00\x00\x00\x00\x00\x3a\x00\x00\x00\x00\x00\x00\x01" +
		strings.Repeat("\x00", 12) + "\x08\x00" +
		"\x45\x00\x00\x2c" + strings.Repeat("\x00", 5) + "\x06" + strings.Repeat("\x00", 10) +
		strings.Repeat("\x00", 12) + "\x60" + strings.Repeat("\x00", 7) +
		"\x01\x01\x02\x03"),
	"png": []byte("\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR" + strings.Repeat("\x00", 13) + "\x2e\x90\x68\x0f" +
		"\x00\x00\x00\x01PLTE\x00\xc9\x48\xe2\x7f"),
}

// TestShrink_Shapes shrinks inputs shaped like real ones (a JSON document,
// a 400-line configuration, an S-expression, an HTML fragment, a Go file, a
// TOML document, a compound binary packet), each failing with a bug of its
// parser, to their exact minima. Candidates that fail another way are
// another bug, never accepted.
func TestShrink_Shapes(t *testing.T) {
	t.Parallel()
	for _, s := range shapes.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			r, err := shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s})
			if err != nil {
				t.Fatal(err)
			}
			if want := []any{shapeMinima[s.Name]}; !equalArgs(r.Args, want) {
				t.Errorf("Shrink = %q, want %q", r.Args[0], want[0])
			}
			if sig := s.Check(r.Args[0]); sig != s.Sig {
				t.Errorf("the result fails with %v, the input with %v", sig, s.Sig)
			}
			if r.Stats.Stop != shrink.StopDone {
				t.Errorf("Stop = %v, want %v", r.Stats.Stop, shrink.StopDone)
			}
			t.Logf("%d → %d bytes in %d runs (%d other failures)", size(s.Input), size(r.Args[0]), r.Stats.Runs, r.Stats.OtherFails)
		})
	}
}

// TestShrink_ShapesBatchSize: the result and the path to it do not depend on
// the batch size, with an oracle that judges whole batches.
func TestShrink_ShapesBatchSize(t *testing.T) {
	t.Parallel()
	for _, s := range shapes.All() {
		want, _ := shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s})
		for _, batch := range []int{3, 16} {
			r, err := shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s, full: true}, shrink.BatchSize(batch))
			if err != nil {
				t.Fatal(err)
			}
			if !equalArgs(r.Args, want.Args) || r.Stats.Accepted != want.Stats.Accepted {
				t.Errorf("%s: BatchSize(%d) gives %q (%d accepted), BatchSize(1) %q (%d accepted)",
					s.Name, batch, r.Args[0], r.Stats.Accepted, want.Args[0], want.Stats.Accepted)
			}
		}
	}
}

func size(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []byte:
		return len(x)
	}
	return 0
}
