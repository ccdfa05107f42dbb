package shrink

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"testing"
)

// berTLV appends a BER record with its length in the shortest form.
func berTLV(b []byte, tag byte, content ...[]byte) []byte {
	c := bytes.Join(content, nil)
	switch n := len(c); {
	case n < 0x80:
		b = append(b, tag, byte(n))
	case n < 0x100:
		b = append(b, tag, 0x81, byte(n))
	default:
		b = append(b, tag, 0x82, byte(n>>8), byte(n))
	}
	return append(b, c...)
}

func TestParseTree(t *testing.T) {
	t.Parallel()
	long := bytes.Repeat([]byte("x"), 200)
	seq := berTLV(nil, 0x30, berTLV(nil, 0x02, []byte{1}), berTLV(nil, 0x30, berTLV(nil, 0x04, long), berTLV(nil, 0x05)))
	indef := []byte{0x30, 0x80, 0x02, 0x01, 0x07, 0x24, 0x80, 0x04, 0x01, 'a', 0x00, 0x00, 0x00, 0x00}
	for _, c := range []struct {
		name  string
		in    []byte
		codec tlvCodec
		nodes int // records, the root among them; 0: no tree
	}{
		{"ber", seq, tlvCodec{ber: true}, 6},
		{"ber after a header", append([]byte("\x00HDR"), seq...), tlvCodec{ber: true}, 6},
		{"indefinite", indef, tlvCodec{ber: true}, 5},
		{"flat ber", berTLV(berTLV(nil, 0x02, []byte{1}), 0x02, []byte{2}), tlvCodec{}, 0},
		{"ber with a byte after", append(seq, 1), tlvCodec{}, 0},
		{"2-byte little-endian lengths", nest2LE('A', nest2LE('B', nest2LE('C', []byte("xyz")), nest2LE('D', nil))), tlvCodec{tagWidth: 1, lenWidth: 2, little: true}, 5},
		{"text", []byte("plain text, no records at all"), tlvCodec{}, 0},
	} {
		tr := parseTree(c.in)
		switch {
		case c.nodes == 0 && tr != nil:
			t.Errorf("%s: parsed as %+v with %d records", c.name, tr.codec, len(tr.nodes))
		case c.nodes == 0:
		case tr == nil:
			t.Errorf("%s: no tree", c.name)
		case tr.codec != c.codec || len(tr.nodes) != c.nodes:
			t.Errorf("%s: parsed as %+v with %d records, want %+v with %d", c.name, tr.codec, len(tr.nodes), c.codec, c.nodes)
		}
	}
}

// nest2LE is a record of a 1-byte tag and a 2-byte little-endian length.
func nest2LE(tag byte, content ...[]byte) []byte {
	c := bytes.Join(content, nil)
	return append(binary.LittleEndian.AppendUint16([]byte{tag}, uint16(len(c))), c...)
}

// TestTreeEdits checks the candidates' bytes: every enclosing length
// lowered, a long form that falls below 128 written short.
func TestTreeEdits(t *testing.T) {
	t.Parallel()
	long := bytes.Repeat([]byte("x"), 200)
	in := berTLV(nil, 0x30, berTLV(nil, 0x02, []byte{1}), berTLV(nil, 0x30, berTLV(nil, 0x04, long), berTLV(nil, 0x05)))
	tr := parseTree(in)
	if tr == nil {
		t.Fatal("no tree")
	}
	str := tr.nodes[4] // root, seq, int, seq, string
	for _, c := range []struct {
		name string
		e    tlvEdit
		want []byte
	}{
		{"the string removed", tlvEdit{node: tr.nodes[3], drop: [2]int{0, 1}},
			berTLV(nil, 0x30, berTLV(nil, 0x02, []byte{1}), berTLV(nil, 0x30, berTLV(nil, 0x05)))},
		{"its content cut", tlvEdit{node: str, drop: [2]int{0, 190}, cut: true},
			berTLV(nil, 0x30, berTLV(nil, 0x02, []byte{1}), berTLV(nil, 0x30, berTLV(nil, 0x04, long[:10]), berTLV(nil, 0x05)))},
		{"the inner sequence hoisted", tlvEdit{node: tr.nodes[1], with: tr.nodes[3]},
			berTLV(nil, 0x30, berTLV(nil, 0x04, long), berTLV(nil, 0x05))},
	} {
		if got := tr.apply(c.e); !bytes.Equal(got, c.want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, got, c.want)
		}
	}
	// A long form that is not the shortest keeps its width, until the
	// root's candidate writes every length in its shortest form.
	padded := []byte{0x30, 0x82, 0x00, 0x06, 0x02, 0x01, 0x01, 0x30, 0x81, 0x00}
	tr = parseTree(padded)
	if got, want := tr.apply(tlvEdit{node: tr.nodes[1], drop: [2]int{0, 1}}), []byte{0x30, 0x82, 0x00, 0x03, 0x30, 0x81, 0x00}; !bytes.Equal(got, want) {
		t.Errorf("removal: got % x, want % x", got, want)
	}
	if got, want := tr.apply(tlvEdit{node: tr.root, shortest: true}), []byte{0x30, 0x05, 0x02, 0x01, 0x01, 0x30, 0x00}; !bytes.Equal(got, want) {
		t.Errorf("shortest: got % x, want % x", got, want)
	}
}

// TestShrinkTree_Nested: a failure deep in a tree of length-prefixed
// records (1-byte tags, 2-byte little-endian lengths) that checks every
// length, which no removal of bytes keeps, shrinks to the one record on
// the path.
func TestShrinkTree_Nested(t *testing.T) {
	t.Parallel()
	var leaves [][]byte
	for i := range 12 {
		leaves = append(leaves, nest2LE('D', []byte(fmt.Sprintf("leaf %d of the tree, with some text", i))))
	}
	inner := append(leaves[:6:6], nest2LE('B', nest2LE('Z', []byte("boom")), nest2LE('D', []byte("after"))))
	in := nest2LE('A', nest2LE('B', inner...), nest2LE('B', leaves[6:]...))
	// It fails if a record Z is found inside a B inside an A, and every
	// record tiles its parent.
	var walk func(b []byte, path string) (found, ok bool)
	walk = func(b []byte, path string) (found, ok bool) {
		for len(b) > 0 {
			if len(b) < 3 {
				return false, false
			}
			tag, n := b[0], int(binary.LittleEndian.Uint16(b[1:]))
			if n > len(b)-3 {
				return false, false
			}
			content := b[3 : 3+n]
			switch {
			case tag == 'Z' && path == "AB":
				found = true
			case tag == 'A' || tag == 'B':
				f, ok := walk(content, path+string(tag))
				if !ok {
					return false, false
				}
				found = found || f
			}
			b = b[3+n:]
		}
		return found, true
	}
	fails := Predicate(func(args []any) bool {
		found, ok := walk(args[0].([]byte), "")
		return ok && found
	})
	r, err := Shrink(context.Background(), []any{in}, fails)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Args[0].([]byte), nest2LE('A', nest2LE('B', nest2LE('Z'))); !bytes.Equal(got, want) {
		t.Errorf("Shrink = % x, want % x (%d runs)", got, want, r.Stats.Runs)
	}
}

// FuzzTrees: any input parses or not without a panic, and every
// candidate of a tree is shorter and still parses as records of the same
// layout from the same start.
func FuzzTrees(f *testing.F) {
	f.Add(berTLV(nil, 0x30, berTLV(nil, 0x02, []byte{1}), berTLV(nil, 0x30, berTLV(nil, 0x04, []byte("ab")))))
	f.Add([]byte{0x30, 0x80, 0x02, 0x01, 0x07, 0x24, 0x80, 0x04, 0x01, 'a', 0x00, 0x00, 0x00, 0x00})
	f.Add(nest2LE('A', nest2LE('B', nest2LE('C', []byte("xyz")), nest2LE('D', nil))))
	f.Fuzz(func(t *testing.T, in []byte) {
		tr := parseTree(in)
		if tr == nil {
			return
		}
		n := 0
		for _, c := range shrinkTree(in, pos{}) {
			if len(c) >= len(in) {
				t.Fatalf("candidate % x of % x is not shorter", c, in)
			}
			p := &tlvParser{s: c, codec: tr.codec}
			if _, _, ok := p.seq(tr.root.start, len(c), false, 0); !ok {
				t.Fatalf("candidate % x of % x does not parse as %+v", c, in, tr.codec)
			}
			if n++; n == 200 {
				break
			}
		}
	})
}
