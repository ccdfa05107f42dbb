package shrink_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
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
	"calc": "pick(0)",
	"kv":   "set 0 0\ndel 0\nget 0",
	"jq":   ".[-1]\n[]",
	"gzip": []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x00" + "\x8b\x8e\x05\x00" + "\x29\xbb\x4c\x0d\x02\x00\x00\x00"),
	"zlib": []byte("\x08\x1d" + "\xe3\x34\x04\x00" + "\x00\x45\x00\x3b"),
	"pngpix": []byte("\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00\x3a\x7e\x9b\x55" +
		"\x00\x00\x00\x0aIDAT\x08\x1d\x63\x66\x00\x00\x00\x08\x00\x04\xd1\xe5\x71\x86" +
		"\x00\x00\x00\x00IEND\xae\x42\x60\x82"),
	"imagepng": []byte("\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90\x77\x53\xde" +
		"\x00\x00\x00\x0cIDAT\x08\x1d\x63\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\x5b\xdb\xf9\x44" +
		"\x00\x00\x00\x00IEND\xae\x42\x60\x82"),
	"xz": []byte("\xfd7zXZ\x00\x00\x00\xff\x12\xd9\x41" +
		"\x02\x00\x21\x01\x00\x00\x00\x00\x37\x27\x97\xd6" + "\x01\x00\x06level=8\x00" + "\x00" +
		"\x00\x01\x17\x07\x1e\xa4\x61\xbb" + "\x06\x72\x9e\x7a\x01\x00\x00\x00\x00\x00YZ"),
	"zip": []byte("PK\x03\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00<\xb7\x0e\xf0\x07\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00level=8" +
		"PK\x01\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00<\xb7\x0e\xf0\x07\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00" +
		"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00" +
		"PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00.\x00\x00\x00%\x00\x00\x00\x00\x00"),
	// A header of zeros but for the size (7, at the end of its field) and
	// the checksum (0o467, the same), and the content, unpadded.
	"tar": []byte(strings.Repeat("\x00", 135) + "7" + strings.Repeat("\x00", 17) + "467" + strings.Repeat("\x00", 356) + "level=8"),
	"ipudp": []byte("\x45\x00\x00\x1f\x00\x00\x00\x00\x00\x11\x00\x00\x00\x00\x00\x00\x00\x00\xba\xcf" +
		"\x00\x00\x00\x00\x00\x0b\x00\x00" + "\x07\x01\x01"),
	// The magic, then one deflated entry without a name, its content's
	// length 0 and its data's 9: the smallest zlib stream of "#" (its
	// one literal in a block of fixed codes); the CRC-32 of the data.
	"arc": []byte("AR\x08\x00\x00\x00\x09\x00" + "\x08\x1dS\x06\x00\x00$\x00$" + "\x96\x88L}"),
	// A GetRequest of one binding whose Counter32 is empty, every
	// length one byte.
	"snmp": []byte("\x30\x19\x02\x01\x00\x04\x00\xa0\x12\x02\x01\x00\x02\x01\x00\x02\x01\x00" +
		"\x30\x07\x30\x05\x06\x01\x00\x41\x00"),
	"png": []byte("\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR" + strings.Repeat("\x00", 13) + "\x2e\x90\x68\x0f" +
		"\x00\x00\x00\x01PLTE\x00\xc9\x48\xe2\x7f"),
}

// TestShrink_Shapes shrinks inputs shaped like real ones (a JSON document,
// a 400-line configuration, an S-expression, an HTML fragment, a Go file, a
// TOML document, a compound binary packet), each failing with a bug of its
// parser, to their exact minima, where the toolchain's own minimizer finds
// nothing smaller. Candidates that fail another way are another bug, never
// accepted.
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
			toolchainMoves(t, s, r.Args[0])
			t.Logf("%s: %d → %d bytes in %d runs (%d other failures)", s.Name, size(s.Input), size(r.Args[0]), r.Stats.Runs, r.Stats.OtherFails)
		})
	}
}

// TestShrink_ShapesBatchSize: the result and the path to it do not depend on
// the batch size, with an oracle that judges whole batches.
func TestShrink_ShapesBatchSize(t *testing.T) {
	t.Parallel()
	for _, s := range shapes.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			want, _ := shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s})
			for _, batch := range []int{3, 16} {
				r, err := shrink.Shrink(context.Background(), []any{s.Input}, shapeOracle{s: s, full: true}, shrink.BatchSize(batch))
				if err != nil {
					t.Fatal(err)
				}
				if !equalArgs(r.Args, want.Args) || r.Stats.Accepted != want.Stats.Accepted {
					t.Errorf("BatchSize(%d) gives %q (%d accepted), BatchSize(1) %q (%d accepted)",
						batch, r.Args[0], r.Stats.Accepted, want.Args[0], want.Stats.Accepted)
				}
			}
		})
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

var long = flag.Bool("long", false, "also run the slow starts of TestShrink_ShapesFromAnyStart")

// TestShrink_ShapesFromAnyStart shrinks, for each shape, inputs grown from
// its minimum at random (bytes inserted, changed and repeated, as long as
// the input still fails the same way, as a fuzzer's crasher is), and
// checks that they end at the minimum too: a start that ends elsewhere is
// a move the search misses.
func TestShrink_ShapesFromAnyStart(t *testing.T) {
	t.Parallel()
	// The capture's reader allocates a record's length before it reads
	// it: candidates that shift a length field allocate up to gigabytes,
	// and one start takes 4 s. It runs with -long.
	seeds := map[string]uint64{"pcap": 0}
	if *long {
		seeds["pcap"] = 3
	}
	for _, s := range shapes.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			want := shapeMinima[s.Name]
			n, ok := seeds[s.Name]
			if !ok {
				n = 3
			}
			for seed := uint64(1); seed <= n; seed++ {
				start := grown(s, want, seed)
				r, err := shrink.Shrink(context.Background(), []any{start}, shapeOracle{s: s})
				if err != nil {
					t.Fatal(err)
				}
				if !equalArgs(r.Args, []any{want}) {
					t.Errorf("seed %d: from %q, Shrink = %q, want %q", seed, start, r.Args[0], want)
				}
			}
		})
	}
}

// grown returns the minimum m of shape s after 200 random changes, each
// kept if the input still fails as m does.
func grown(s *shapes.Shape, m any, seed uint64) any {
	rng := rand.New(rand.NewPCG(seed, 99))
	b := []byte(fmt.Sprint(m))
	if x, ok := m.([]byte); ok {
		b = slices.Clone(x)
	}
	as := func(b []byte) any {
		if _, ok := m.(string); ok {
			return string(b)
		}
		return b
	}
	for range 200 {
		c := slices.Clone(b)
		at := rng.IntN(len(c) + 1)
		switch rng.IntN(3) {
		case 0:
			ins := make([]byte, 1+rng.IntN(8))
			for i := range ins {
				ins[i] = byte(rng.Uint32())
			}
			c = slices.Insert(c, at, ins...)
		case 1:
			if at < len(c) {
				c[at] = byte(rng.Uint32())
			}
		default:
			if at < len(c) {
				n := 1 + rng.IntN(min(16, len(c)-at))
				c = slices.Insert(c, at+n, c[at:at+n]...)
			}
		}
		if s.Check(as(c)) == s.Sig {
			b = c
		}
	}
	return as(b)
}

// TestShrink_ProgramAndInput: the jq shape as a target of two arguments,
// the filter and its JSON input, reaches the same minimum as the shape:
// the brackets move from one argument to the other.
func TestShrink_ProgramAndInput(t *testing.T) {
	t.Parallel()
	var s *shapes.Shape
	for _, sh := range shapes.All() {
		if sh.Name == "jq" {
			s = sh
		}
	}
	filter, input, _ := strings.Cut(s.Input.(string), "\n")
	fails := shrink.Predicate(func(args []any) bool {
		f := args[0].(string)
		return !strings.Contains(f, "\n") && s.Check(f+"\n"+args[1].(string)) == s.Sig
	})
	r, err := shrink.Shrink(context.Background(), []any{filter, input}, fails)
	if want := []any{".[-1]", "[]"}; err != nil || !equalArgs(r.Args, want) {
		t.Errorf("Shrink = %q, %v; want %q", r.Args, err, want)
	}
}

// toolchainMoves runs the toolchain's own minimizer
// ($GOROOT/src/internal/fuzz/minimize.go, minimizeBytes: the tail cut,
// each byte removed, every range removed, each byte made printable) on a
// result of shape s, with the same identity, and reports an error if it
// finds anything smaller.
func toolchainMoves(t *testing.T, s *shapes.Shape, result any) {
	t.Helper()
	from, text := []byte(fmt.Sprint(result)), true
	if b, ok := result.([]byte); ok {
		from, text = slices.Clone(b), false
	}
	as := func(b []byte) any {
		if text {
			return string(b)
		}
		return slices.Clone(b)
	}
	got := toolchainMinimize(slices.Clone(from), func(b []byte) bool { return s.Check(as(b)) == s.Sig })
	if shrink.Compare([]any{as(got)}, []any{as(from)}) < 0 {
		t.Errorf("the toolchain's moves take %q to %q, which is smaller", from, got)
	}
}

// toolchainMinimize is minimizeBytes of the toolchain's fuzzer, written
// from its description: the tail cut by 1024, 512, …, 1 bytes while the
// input fails; each byte removed; every range of two bytes or more
// removed, from each start, longest first; each byte replaced by the
// first of a list of printable characters that keeps it failing.
func toolchainMinimize(v []byte, fails func([]byte) bool) []byte {
	for n := 1024; n > 0; n /= 2 {
		for len(v) > n && fails(v[:len(v)-n]) {
			v = v[:len(v)-n]
		}
	}
	for i := 0; i < len(v)-1; i++ {
		if c := slices.Delete(slices.Clone(v), i, i+1); fails(c) {
			v, i = c, i-1
		}
	}
	for i := 0; i < len(v)-1; i++ {
		for j := len(v); j > i+1; j-- {
			if c := slices.Delete(slices.Clone(v), i, j); fails(c) {
				v, j = c, len(c)
			}
		}
	}
	for i := range v {
		for _, p := range []byte("012789ABCXYZabcxyz !\"#$%&'()*+,.") {
			c := slices.Clone(v)
			c[i] = p
			if fails(c) {
				v = c
				break
			}
		}
	}
	return v
}
