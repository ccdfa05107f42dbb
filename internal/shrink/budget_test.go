package shrink

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strings"
	"testing"
)

// TestShrink_ToolchainMovesWithinBudget: on an archive whose lengths are
// uvarints (not fields the engine reads) and whose entries' data carry
// CRC-32s, four stored entries and a deflated one that fails, the value
// passes accept byte after byte of the stored entries (their sums sealed)
// and do not stop, so that the toolchain's removals, a stuck pass, never
// ran before the budget ended the search: 1,176 → 1,136 bytes in 20,000
// runs (through the command, in 100,000 runs, the file grew from 2,140
// to 3,834 bytes). They now run once half the budget is spent, and the
// stored entries go with one removal, as with the toolchain's minimizer.
func TestShrink_ToolchainMovesWithinBudget(t *testing.T) {
	t.Parallel()
	var items strings.Builder
	for i := range 48 {
		fmt.Fprintf(&items, "item%02d=sku-%05d,qty=%d,loc=aisle-%d\n", i, 31337*i%99991, i*7%50, i%12)
	}
	files := []struct{ name, content string }{
		{"conf/server.conf", "# server settings\nlisten=0.0.0.0:8443\nworkers=16\nread_timeout=30s\nwrite_timeout=30s\nidle_timeout=120s\nmax_header_bytes=1048576\ntls=on\ncert=/etc/ssl/server.pem\nkey=/etc/ssl/server.key\n"},
		{"conf/logging.conf", "# logging\nlevel=info\nformat=json\noutput=/var/log/app/app.log\nrotate=daily\nkeep=14\ncompress=true\nsample_rate=0.25\ninclude_caller=true\n"},
		{"conf/database.conf", "# database\ndriver=postgres\nhost=db.internal\nport=5432\nname=inventory\nuser=app\npool_min=4\npool_max=32\nconn_lifetime=1h\nstatement_timeout=15s\n"},
		{"conf/cache.conf", "# cache\nbackend=redis\naddr=cache.internal:6379\ndb=2\nttl=10m\nmax_entries=100000\neviction=lru\nprefix=inv:\n"},
		{"data/items.csv", "# items\n" + items.String()},
	}
	in := []byte("AR")
	deflated := 0
	for i, f := range files {
		data, method, length := []byte(f.content), byte(0), len(f.content)
		if i == len(files)-1 {
			var z bytes.Buffer
			w := zlib.NewWriter(&z)
			w.Write(data)
			w.Close()
			data, method, length = z.Bytes(), 8, length-40
			deflated = len(in)
		}
		in = append(append(in, method, byte(len(f.name))), f.name...)
		in = binary.AppendUvarint(in, uint64(length))
		in = binary.AppendUvarint(in, uint64(len(data)))
		in = append(in, data...)
		in = binary.LittleEndian.AppendUint32(in, crc32.ChecksumIEEE(data))
	}
	fails := func(args []any) bool { return varintArchiveFails(args[0].([]byte)) }
	if !fails([]any{in}) {
		t.Fatal("the input does not fail")
	}
	const budget = 20000
	r, err := Shrink(context.Background(), []any{in}, Predicate(fails), MaxRuns(budget))
	if err != nil {
		t.Fatal(err)
	}
	got := len(r.Args[0].([]byte))
	t.Logf("%d → %d bytes in %d runs (%v)", len(in), got, r.Stats.Runs, r.Stats.Stop)
	if want := 2 + len(in) - deflated; got > want {
		t.Errorf("Shrink = %d bytes in %d runs (%v), want %d at most: the stored entries removed", got, r.Stats.Runs, r.Stats.Stop, want)
	}
}

// varintArchiveFails reads an archive as the test's describes it and
// reports whether a deflated entry's content is longer than its length
// says (where a reader without the check panics).
func varintArchiveFails(b []byte) bool {
	if !bytes.HasPrefix(b, []byte("AR")) {
		return false
	}
	b = b[2:]
	for len(b) > 0 {
		if len(b) < 2 || 2+int(b[1]) > len(b) {
			return false
		}
		method := b[0]
		b = b[2+int(b[1]):]
		length, n := binary.Uvarint(b)
		if n <= 0 {
			return false
		}
		b = b[n:]
		size, n := binary.Uvarint(b)
		if n <= 0 || size+4 > uint64(len(b)-n) {
			return false
		}
		b = b[n:]
		data := b[:size]
		if crc32.ChecksumIEEE(data) != binary.LittleEndian.Uint32(b[size:]) {
			return false
		}
		b = b[size+4:]
		switch method {
		case 0:
			if uint64(len(data)) != length {
				return false
			}
		case 8:
			r, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return false
			}
			content, err := io.ReadAll(r)
			if err != nil || !bytes.HasPrefix(content, []byte("#")) {
				return false
			}
			if uint64(len(content)) > length {
				return true
			}
		default:
			return false
		}
	}
	return false
}
