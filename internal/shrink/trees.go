package shrink

import (
	"iter"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// Trees: records of tag, length and value nested in each other, as BER
// (X.690: SNMP, LDAP, X.509, Kerberos) and formats of length-prefixed
// nesting write them. Removing one record means lowering the length of
// every record around it at once, and a BER length changes its own width
// as it crosses 128 or 256: neither byte-level removal nor the lengths
// pass (one level of records) can. The trees pass parses an input as such
// a tree, and takes the parse only when it accounts for every byte from
// its start (the input's, or the end of a file header) to the end of the
// input and nests records in records: BER first, by its rules (tags of
// one or more bytes, the constructed bit, short and long-form lengths,
// indefinite lengths ended by end-of-contents), then a tag of 0, 1 or 2
// bytes and a length of 1, 2 or 4 bytes in either byte order, whose
// records nest where their content parses as records to its last byte. On
// the tree it removes whole records (blocks of a record's children, all of
// them first), puts a record in the place of an enclosing one of the same
// tag, and cuts the content of a record that holds no records (blocks of
// its bytes), writing every enclosing length again, in the shortest form
// where the input's was (BER), or in its width.

// A tlvNode is one record of a tree.
type tlvNode struct {
	start, end int // the record, in the input
	body       int // where its content starts
	bodyEnd    int // where its content ends (before end-of-contents)
	width      int // BER: the bytes of a long-form length after its first; 0 short or indefinite
	minimal    bool
	indef      bool
	children   []*tlvNode // nil for a record that holds no records
	nested     bool       // its content is records (children, maybe none)
	first      int        // its preorder index, and its last descendant's
	last       int
}

// A tlvCodec is a way records are written.
type tlvCodec struct {
	ber      bool
	tagWidth int // else: the bytes of the tag, 0 to 2
	lenWidth int // and of the length, 1, 2 or 4
	little   bool
}

// tlvCodecs are the layouts tried after BER, in order.
var tlvCodecs = func() []tlvCodec {
	var cs []tlvCodec
	for _, tw := range []int{1, 2, 0} {
		for _, w := range []width{{1, false}, {2, false}, {2, true}, {4, false}, {4, true}} {
			cs = append(cs, tlvCodec{tagWidth: tw, lenWidth: w.width, little: w.little})
		}
	}
	return cs
}()

// maxTreeDepth bounds the nesting a parse follows.
const maxTreeDepth = 64

// A tlvTree is an input parsed as records: the records from start to its
// end, under a root of no header, in preorder.
type tlvTree struct {
	s     []byte
	codec tlvCodec
	root  *tlvNode
	nodes []*tlvNode
}

type tlvParser struct {
	s     []byte
	codec tlvCodec
}

// seq parses the records from i to end, or to an end-of-contents (BER's
// 00 00) with eoc; it returns where they end.
func (p *tlvParser) seq(i, end int, eoc bool, depth int) ([]*tlvNode, int, bool) {
	if depth > maxTreeDepth {
		return nil, 0, false
	}
	var out []*tlvNode
	for {
		switch {
		case eoc && i+2 <= end && p.s[i] == 0 && p.s[i+1] == 0:
			return out, i + 2, true
		case !eoc && i == end:
			return out, i, true
		case i >= end:
			return nil, 0, false
		}
		n, ok := p.record(i, end, depth)
		if !ok {
			return nil, 0, false
		}
		out = append(out, n)
		i = n.end
	}
}

// record parses the record at i, which ends by end.
func (p *tlvParser) record(i, end int, depth int) (*tlvNode, bool) {
	if p.codec.ber {
		return p.berRecord(i, end, depth)
	}
	c := p.codec
	h := i + c.tagWidth + c.lenWidth
	if h > end {
		return nil, false
	}
	n := c.field(i).Get(p.s)
	if n > uint64(end-h) {
		return nil, false
	}
	r := &tlvNode{start: i, body: h, bodyEnd: h + int(n), end: h + int(n)}
	if n >= uint64(c.tagWidth+c.lenWidth) {
		if kids, _, ok := p.seq(r.body, r.end, false, depth+1); ok {
			r.children, r.nested = kids, true
		}
	}
	return r, true
}

// berRecord parses a BER record.
func (p *tlvParser) berRecord(i, end int, depth int) (*tlvNode, bool) {
	s := p.s
	if s[i] == 0 { // end-of-contents, or padding: no record
		return nil, false
	}
	constructed := s[i]&0x20 != 0
	j := i + 1
	if s[i]&0x1f == 0x1f { // a tag number in the bytes after
		for k := 0; ; k++ {
			if j >= end || k == 4 {
				return nil, false
			}
			j++
			if s[j-1]&0x80 == 0 {
				break
			}
		}
	}
	if j >= end {
		return nil, false
	}
	r := &tlvNode{start: i}
	l := s[j]
	j++
	var n uint64
	switch {
	case l < 0x80:
		n, r.minimal = uint64(l), true
	case l == 0x80:
		if !constructed {
			return nil, false
		}
		r.indef = true
	default:
		r.width = int(l & 0x7f)
		if r.width > 4 || j+r.width > end {
			return nil, false
		}
		for _, b := range s[j : j+r.width] {
			n = n<<8 | uint64(b)
		}
		j += r.width
		r.minimal = n >= 0x80 && s[j-r.width] != 0
	}
	r.body = j
	if r.indef {
		kids, next, ok := p.seq(j, end, true, depth+1)
		if !ok {
			return nil, false
		}
		r.children, r.nested, r.bodyEnd, r.end = kids, true, next-2, next
		return r, true
	}
	if n > uint64(end-j) {
		return nil, false
	}
	r.bodyEnd, r.end = j+int(n), j+int(n)
	if constructed {
		kids, _, ok := p.seq(j, r.end, false, depth+1)
		if !ok {
			return nil, false
		}
		r.children, r.nested = kids, true
	}
	return r, true
}

// field is the length field of the record at i.
func (c tlvCodec) field(i int) formats.Field {
	return formats.Field{At: i + c.tagWidth, Width: c.lenWidth, Little: c.little}
}

// parseTree returns s as a tree, or nil: BER from the start of s or the
// end of a file header, else the first layout that parses s from its
// start with the most records. A tree must nest records in records: in
// BER, which marks the records that hold records, one at least; in the
// other layouts, where a content that happens to parse as records is taken
// for them, two in one record at least, and 3 records in all.
func parseTree(s []byte) *tlvTree {
	for at := 0; at <= min(maxFileHeader, len(s)-2); at++ {
		if t := parseTreeAt(s, at, tlvCodec{ber: true}); t != nil {
			return t
		}
	}
	var best *tlvTree
	for _, c := range tlvCodecs {
		if t := parseTreeAt(s, 0, c); t != nil && len(t.nodes) >= 4 && (best == nil || len(t.nodes) > len(best.nodes)) {
			best = t
		}
	}
	return best
}

// parseTreeAt parses s from at to its end with c.
func parseTreeAt(s []byte, at int, c tlvCodec) *tlvTree {
	p := &tlvParser{s: s, codec: c}
	kids, _, ok := p.seq(at, len(s), false, 0)
	if !ok || len(kids) == 0 {
		return nil
	}
	t := &tlvTree{s: s, codec: c, root: &tlvNode{start: at, body: at, bodyEnd: len(s), end: len(s), children: kids, nested: true}}
	nests := 0 // records holding records: one at least in BER, of two or more in any other layout
	var walk func(n *tlvNode)
	walk = func(n *tlvNode) {
		n.first = len(t.nodes)
		t.nodes = append(t.nodes, n)
		for _, k := range n.children {
			walk(k)
		}
		if n != t.root && (c.ber && len(n.children) > 0 || len(n.children) > 1) {
			nests++
		}
		n.last = len(t.nodes) - 1
	}
	walk(t.root)
	if nests == 0 {
		return nil
	}
	return t
}

// A tlvEdit is one change to a tree: the children [drop[0], drop[1]) of
// node removed, or the bytes [drop[0], drop[1]) of its content cut, or
// node replaced by with; or, with shortest, no change but every BER
// length written in its shortest form.
type tlvEdit struct {
	node     *tlvNode
	drop     [2]int
	cut      bool
	with     *tlvNode
	shortest bool
}

// apply returns the input with e made, every enclosing length written
// again.
func (t *tlvTree) apply(e tlvEdit) []byte {
	out := make([]byte, 0, len(t.s))
	out = append(out, t.s[:t.root.start]...)
	return t.encode(out, t.root, e)
}

// encode appends n, as e changes it, to out.
func (t *tlvTree) encode(out []byte, n *tlvNode, e tlvEdit) []byte {
	if !e.shortest && (e.node.first < n.first || e.node.first > n.last) {
		return append(out, t.s[n.start:n.end]...) // e is not in n
	}
	if n == e.node && e.with != nil {
		return append(out, t.s[e.with.start:e.with.end]...)
	}
	var content []byte
	switch {
	case n == e.node && e.cut:
		content = append(append(content, t.s[n.body:n.body+e.drop[0]]...), t.s[n.body+e.drop[1]:n.bodyEnd]...)
	case n == e.node && !e.shortest:
		for i, k := range n.children {
			if i < e.drop[0] || i >= e.drop[1] {
				content = append(content, t.s[k.start:k.end]...)
			}
		}
	case !n.nested:
		content = t.s[n.body:n.bodyEnd]
	default:
		for _, k := range n.children {
			content = t.encode(content, k, e)
		}
	}
	if n == t.root {
		return append(out, content...)
	}
	out = t.header(out, n, len(content), e.shortest)
	out = append(out, content...)
	if n.indef {
		out = append(out, 0, 0)
	}
	return out
}

// tag returns the tag of n: its first byte in BER (its class, its
// constructed bit and most tag numbers).
func (t *tlvTree) tag(n *tlvNode) []byte {
	if t.codec.ber {
		return t.s[n.start : n.start+1]
	}
	return t.s[n.start : n.start+t.codec.tagWidth]
}

// header appends n's tag and a length of m, in n's form, or with
// shortest, in the shortest form.
func (t *tlvTree) header(out []byte, n *tlvNode, m int, shortest bool) []byte {
	c := t.codec
	if !c.ber {
		// The record's tag and length as they were, the length then
		// lowered: it only ever shrinks, so it fits.
		at := len(out) - n.start
		out = append(out, t.s[n.start:n.body]...)
		c.field(n.start).Put(out, at, uint64(m))
		return out
	}
	tagEnd := n.body - 1 - n.width
	out = append(out, t.s[n.start:tagEnd]...)
	w := n.width
	switch {
	case n.indef:
		return append(out, 0x80)
	case (n.minimal || shortest) && m < 0x80:
		return append(out, byte(m))
	case n.minimal || shortest:
		w = 1
		for m>>(8*w) != 0 {
			w++
		}
	}
	out = append(out, 0x80|byte(w))
	for k := w - 1; k >= 0; k-- {
		out = append(out, byte(m>>(8*k)))
	}
	return out
}

// The stages of the trees pass on each record: blocks of its children
// removed, a record of its tag inside it put in its place (of the root:
// every length in its shortest form), blocks of its content cut.
const (
	stageChildren = iota
	stageHoist
	stageContent
	treeStages
)

// treesArg applies the trees pass to binary data.
func treesArg(v any, from pos) iter.Seq2[pos, any] {
	switch x := v.(type) {
	case []byte:
		if isBinary(x) {
			return boxed(shrinkTree(x, from))
		}
	case string:
		if isBinary(x) {
			return boxed(shrinkTree(x, from))
		}
	}
	return nil
}

// shrinkTree yields the candidates of the stages above for each record of
// s's tree in preorder. The cursor is pos.k = treeStages·record + stage,
// then (pos.i, pos.j) = (block size, offset) of the children or bytes
// removed, or pos.i = the record hoisted.
func shrinkTree[S byteString](s0 S, from pos) iter.Seq2[pos, S] {
	return func(yield func(pos, S) bool) {
		s := []byte(s0)
		t := parseTree(s)
		if t == nil {
			return
		}
		for k := from.k; k < treeStages*len(t.nodes); k++ {
			n, stage := t.nodes[k/treeStages], k%treeStages
			start := pos{}
			if k == from.k {
				start = from
			}
			switch {
			case stage == stageChildren && n.nested:
				for p, b := range blocks(len(n.children), start) {
					p.k = k
					if !yield(p, S(t.apply(tlvEdit{node: n, drop: b}))) {
						return
					}
				}
			case stage == stageHoist && n == t.root && t.codec.ber && start == (pos{}):
				if c := t.apply(tlvEdit{node: n, shortest: true}); len(c) < len(s) {
					if !yield(pos{k: k, i: 1}, S(c)) {
						return
					}
				}
			case stage == stageHoist && n != t.root:
				for i := max(start.i, n.first+1); i <= n.last; i++ {
					if d := t.nodes[i]; string(t.tag(d)) == string(t.tag(n)) {
						if !yield(pos{k: k, i: i}, S(t.apply(tlvEdit{node: n, with: d}))) {
							return
						}
					}
				}
			case stage == stageContent && n != t.root && (!n.nested || !t.codec.ber) && n.bodyEnd > n.body:
				for p, b := range blocks(n.bodyEnd-n.body, start) {
					p.k = k
					if !yield(p, S(t.apply(tlvEdit{node: n, drop: b, cut: true}))) {
						return
					}
				}
			}
		}
	}
}
