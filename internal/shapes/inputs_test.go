package shapes

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"hash/crc64"
	"image"
	"image/color"
	stdpng "image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/shapes/png"
)

var update = flag.Bool("update", false, "write the binary shapes' inputs to testdata")

// TestBinaryInputs builds the inputs of the binary shapes with the
// encoders below, from their formats' descriptions, and checks that
// testdata holds them (go test -update writes them).
func TestBinaryInputs(t *testing.T) {
	for name, input := range map[string][]byte{
		"wire": wireInput(), "dns": dnsInput(), "tiff": tiffInput(), "bmp": bmpInput(), "pcap": pcapInput(),
		"png": pngInput(), "ipudp": ipudpInput(), "xz": xzInput(), "tar": tarInput(), "snmp": snmpInput(),
	} {
		file, err := encoding.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, file, 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, file) {
			t.Errorf("%s does not hold what the encoder makes (go test -update writes it): %v", path, err)
		}
	}
}

// TestImagePNGInput checks that the imagepng shape's input decodes to the
// image imagepngImage draws (image/png's output may differ between Go
// releases: testdata keeps what go1.26.8 wrote; go test -update writes it
// again).
func TestImagePNGInput(t *testing.T) {
	path := filepath.Join("testdata", "imagepng")
	img, err := stdpng.Decode(bytes.NewReader(stored(t, path, func() []byte {
		var b bytes.Buffer
		if err := stdpng.Encode(&b, imagepngImage()); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	})))
	if err != nil {
		t.Fatal(err)
	}
	want := imagepngImage()
	for y := range want.Bounds().Dy() {
		for x := range want.Bounds().Dx() {
			if a, b := fmt.Sprint(img.At(x, y)), fmt.Sprint(want.At(x, y)); a != b {
				t.Fatalf("%s: pixel (%d, %d) is %s, want %s", path, x, y, a, b)
			}
		}
	}
}

// imagepngImage is a 32×24 gradient with noise, opaque, its first pixel
// red.
func imagepngImage() image.Image {
	rng := rand.New(rand.NewPCG(5, 6))
	img := image.NewRGBA(image.Rect(0, 0, 32, 24))
	for y := range 24 {
		for x := range 32 {
			img.Set(x, y, color.RGBA{uint8(x * 8), uint8(y * 10), uint8(rng.IntN(256)), 255})
		}
	}
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	return img
}

// stored returns the input a shape's testdata file at path holds; with
// -update, it first writes there what input makes.
func stored(t *testing.T, path string, input func() []byte) []byte {
	t.Helper()
	if *update {
		file, err := encoding.Marshal(input())
		if err == nil {
			err = os.WriteFile(path, file, 0o666)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := encoding.Unmarshal(file)
	if err != nil || len(vals) != 1 {
		t.Fatalf("%s: %v", path, err)
	}
	b, ok := vals[0].([]byte)
	if !ok {
		t.Fatalf("%s holds a %T, not []byte", path, vals[0])
	}
	return b
}

// TestCompressedInputs checks that the inputs of the gzip, zlib and zip
// shapes inflate to the texts their encoders compressed. compress/flate's output
// differs between Go releases, so testdata keeps the bytes go1.26.8 wrote
// (go test -update writes them again, with the Go that runs it).
func TestCompressedInputs(t *testing.T) {
	for _, c := range []struct {
		name    string
		input   func() []byte
		text    func() string
		inflate func(io.Reader) (io.Reader, error)
	}{
		{"gzip", gzipInput, gzipText, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"zlib", zlibInput, zlibText, func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }},
		{"pngpix", pngpixInput, pngpixRows, pngpixIDAT},
		{"zip", zipInput, zipText, unzip},
		{"arc", arcInput, arcText, unarc},
	} {
		path := filepath.Join("testdata", c.name)
		r, err := c.inflate(bytes.NewReader(stored(t, path, c.input)))
		if err != nil {
			t.Fatal(err)
		}
		text, err := io.ReadAll(r)
		if err != nil || string(text) != c.text() {
			t.Errorf("%s inflates to %d bytes (%v), not the %d its encoder compressed", path, len(text), err, len(c.text()))
		}
	}
}

// wireString appends an SSH-like string.
func wireString(b []byte, s []byte) []byte {
	return append(binary.BigEndian.AppendUint32(b, uint32(len(s))), s...)
}

func random(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// wireInput is a certificate with 60 principals, options and extensions,
// signed by an ed25519 key whose point is 24 bytes long.
func wireInput() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	sigKey := wireString(wireString(nil, []byte("ssh-ed25519")), random(rng, 24))
	var principals, options, exts []byte
	for i := range 60 {
		principals = wireString(principals, fmt.Appendf(nil, "user%02d@build-%d.example.com", i, i%7))
	}
	options = wireString(options, []byte("force-command"))
	options = wireString(options, wireString(nil, []byte("/usr/bin/rsync --server --sender -logDtpre.iLsfxC . /srv/backup")))
	options = wireString(options, []byte("source-address"))
	options = wireString(options, wireString(nil, []byte("10.0.0.0/8,192.168.0.0/16,172.16.0.0/12")))
	for _, e := range []string{"permit-X11-forwarding", "permit-agent-forwarding", "permit-port-forwarding", "permit-pty", "permit-user-rc"} {
		exts = wireString(exts, []byte(e))
		exts = wireString(exts, nil)
	}
	b := wireString(nil, []byte("ssh-ed25519-cert"))
	b = wireString(b, random(rng, 32)) // nonce
	b = wireString(b, random(rng, 32)) // the certified key
	b = binary.BigEndian.AppendUint64(b, 0x5a17_0000_0000_0042)
	b = binary.BigEndian.AppendUint32(b, 1) // a user certificate
	b = wireString(b, []byte("backup@ci-runner-17"))
	b = wireString(b, principals)
	b = binary.BigEndian.AppendUint64(b, 1_735_689_600)
	b = binary.BigEndian.AppendUint64(b, 1_767_225_600)
	b = wireString(b, options)
	b = wireString(b, exts)
	b = wireString(b, nil) // reserved
	b = wireString(b, sigKey)
	return wireString(b, random(rng, 83)) // the signature
}

// dnsName appends a name as labels, uncompressed.
func dnsName(b []byte, name string) []byte {
	for name != "" {
		label, rest, _ := bytes.Cut([]byte(name), []byte("."))
		b = append(append(b, byte(len(label))), label...)
		name = string(rest)
	}
	return append(b, 0)
}

// dnsInput is a response to 7 questions with 12 answers, 2 authority and 3
// additional records, written without compression, as many servers and
// most clients do; one of the answers is an A record of 3 bytes.
func dnsInput() []byte {
	b := binary.BigEndian.AppendUint16(nil, 0x3b2a)
	b = binary.BigEndian.AppendUint16(b, 0x8180)
	for _, n := range []uint16{7, 12, 2, 3} {
		b = binary.BigEndian.AppendUint16(b, n)
	}
	names := []string{"www.example.com", "mail.example.com", "example.com", "cdn.example.net", "api.example.com", "static.example.org", "ns1.example.com"}
	for i, n := range names {
		b = dnsName(b, n)
		b = binary.BigEndian.AppendUint16(b, []uint16{1, 15, 16, 28, 1, 5, 2}[i])
		b = binary.BigEndian.AppendUint16(b, 1)
	}
	rr := func(name string, typ uint16, data func(b []byte) []byte) {
		b = dnsName(b, name)
		b = binary.BigEndian.AppendUint16(b, typ)
		b = binary.BigEndian.AppendUint16(b, 1)
		b = binary.BigEndian.AppendUint32(b, 3600)
		lenAt := len(b)
		b = append(b, 0, 0)
		b = data(b)
		binary.BigEndian.PutUint16(b[lenAt:], uint16(len(b)-lenAt-2))
	}
	ip := func(v ...byte) func([]byte) []byte { return func(b []byte) []byte { return append(b, v...) } }
	name := func(n string) func([]byte) []byte { return func(b []byte) []byte { return dnsName(b, n) } }
	txt := func(ss ...string) func([]byte) []byte {
		return func(b []byte) []byte {
			for _, s := range ss {
				b = append(append(b, byte(len(s))), s...)
			}
			return b
		}
	}
	rr("www.example.com", 5, name("edge.example.net"))
	rr("edge.example.net", 1, ip(93, 184, 216, 34))
	rr("edge.example.net", 1, ip(93, 184, 216, 35))
	rr("mail.example.com", 15, func(b []byte) []byte { return dnsName(binary.BigEndian.AppendUint16(b, 10), "mx1.example.com") })
	rr("mail.example.com", 15, func(b []byte) []byte { return dnsName(binary.BigEndian.AppendUint16(b, 20), "mx2.example.com") })
	rr("example.com", 16, txt("v=spf1 include:_spf.example.com ip4:93.184.216.0/24 -all", "google-site-verification=8dK3nQ2xV7mPzL0aW4bY6cR1tE9uF5sH"))
	rr("example.com", 16, txt("MS=ms48217563", "docusign=1b0a6754-49b1-4db5-8540-d2c12664b289"))
	rr("cdn.example.net", 28, ip(0x26, 0x06, 0x28, 0x00, 0x02, 0x20, 0, 1, 0x2, 0x48, 0x18, 0x93, 0x25, 0xc8, 0x19, 0x46))
	rr("api.example.com", 1, ip(203, 0, 113)) // the bug: 3 bytes
	rr("static.example.org", 5, name("static.cdn.example.net"))
	rr("static.cdn.example.net", 1, ip(198, 51, 100, 7))
	rr("ns1.example.com", 2, name("a.iana-servers.net"))
	rr("example.com", 2, name("a.iana-servers.net"))
	rr("example.com", 2, name("b.iana-servers.net"))
	rr("a.iana-servers.net", 1, ip(199, 43, 135, 53))
	rr("b.iana-servers.net", 1, ip(199, 43, 133, 53))
	rr("a.iana-servers.net", 28, ip(0x20, 0x01, 0x05, 0x00, 0x00, 0x8f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x53))
	return b
}

// tiffEntry is a directory entry of the TIFF-like format.
type tiffEntry struct {
	tag, typ uint16
	count    uint32
	value    []byte // 4 bytes or fewer inline, more at an offset
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// tiffInput is a 64×48 image in one strip, written before its directory of
// 17 entries and their values; the strip's byte count is 3000, 72 short of
// the image.
func tiffInput() []byte {
	const w, h = 64, 48
	rng := rand.New(rand.NewPCG(3, 4))
	b := []byte("II*\x00\x00\x00\x00\x00") // the directory's offset comes last
	stripAt := len(b)
	b = append(b, random(rng, w*h-72)...)
	str := func(s string) []byte { return append([]byte(s), 0) }
	rat := func(n, d uint32) []byte { return append(le32(n), le32(d)...) }
	entries := []tiffEntry{
		{254, 4, 1, le32(0)},
		{256, 3, 1, le16(w)},
		{257, 3, 1, le16(h)},
		{258, 3, 1, le16(8)},
		{259, 3, 1, le16(1)},
		{262, 3, 1, le16(1)},
		{270, 2, 0, str("Scanned page 3 of the 1987 annual report, grayscale")},
		{273, 4, 1, le32(uint32(stripAt))},
		{274, 3, 1, le16(1)},
		{277, 3, 1, le16(1)},
		{278, 3, 1, le16(h)},
		{279, 4, 1, le32(w*h - 72)},
		{282, 5, 1, rat(300, 1)},
		{283, 5, 1, rat(300, 1)},
		{296, 3, 1, le16(2)},
		{305, 2, 0, str("fuzzmin-scan 2.4.1 (linux/amd64)")},
		{306, 2, 0, str("2026:11:30 09:41:27")},
	}
	// The values that do not fit in 4 bytes go after the directory.
	dir := len(b)
	extra := dir + 2 + 12*len(entries) + 4
	var tail []byte
	b = append(b, le16(uint16(len(entries)))...)
	for _, e := range entries {
		if e.typ == 2 {
			e.count = uint32(len(e.value))
		}
		b = append(b, le16(e.tag)...)
		b = append(b, le16(e.typ)...)
		b = append(b, le32(e.count)...)
		if len(e.value) <= 4 {
			b = append(b, append(e.value, make([]byte, 4-len(e.value))...)...)
			continue
		}
		b = append(b, le32(uint32(extra+len(tail)))...)
		tail = append(tail, e.value...)
		if len(tail)%2 == 1 {
			tail = append(tail, 0) // values start at even offsets
		}
	}
	b = append(b, le32(0)...) // no next directory
	b = append(b, tail...)
	binary.LittleEndian.PutUint32(b[4:], uint32(dir))
	return b
}

// bmpInput is a 40×30 image of 16 colours, one of whose pixels is colour
// 17.
func bmpInput() []byte {
	const w, h, colours = 40, 30, 16
	rng := rand.New(rand.NewPCG(5, 6))
	stride := (w + 3) &^ 3
	size := 14 + 40 + 4*colours + stride*h
	b := []byte("BM")
	b = append(b, le32(uint32(size))...)
	b = append(b, le32(0)...)
	b = append(b, le32(14+40+4*colours)...)
	b = append(b, le32(40)...)
	b = append(b, le32(w)...)
	b = append(b, le32(h)...)
	b = append(b, le16(1)...)
	b = append(b, le16(8)...)
	b = append(b, le32(0)...)
	b = append(b, le32(uint32(stride*h))...)
	b = append(b, le32(2835)...)
	b = append(b, le32(2835)...)
	b = append(b, le32(colours)...)
	b = append(b, le32(colours)...)
	for range colours {
		b = append(b, byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), 0)
	}
	for y := range h {
		for x := range stride {
			v := byte(rng.IntN(colours))
			if x >= w {
				v = 0
			}
			if y == 11 && x == 23 {
				v = 17 // the bug
			}
			b = append(b, v)
		}
	}
	return b
}

// pcapInput is a capture of 7 packets: a DNS query and its answer over
// UDP, and TCP segments of an HTTP exchange, with timestamps and MSS,
// window-scale and SACK options; the fifth segment's SACK option claims 18
// bytes where its header has room for 10.
func pcapInput() []byte {
	rng := rand.New(rand.NewPCG(7, 8))
	b := le32(0xa1b2c3d4)
	b = append(b, le16(2)...)
	b = append(b, le16(4)...)
	b = append(b, le32(0)...)
	b = append(b, le32(0)...)
	b = append(b, le32(65535)...)
	b = append(b, le32(1)...)
	be16 := func(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }
	packet := func(proto byte, l4 []byte) []byte {
		eth := append(random(rng, 12), 0x08, 0x00)
		ip := []byte{0x45, 0}
		ip = append(ip, be16(uint16(20+len(l4)))...)
		ip = append(ip, random(rng, 4)...)
		ip = append(ip, 64, proto)
		ip = append(ip, random(rng, 10)...)
		return append(append(eth, ip...), l4...)
	}
	udp := func(src, dst uint16, payload []byte) []byte {
		h := append(be16(src), be16(dst)...)
		h = append(h, be16(uint16(8+len(payload)))...)
		h = append(h, random(rng, 2)...)
		return packet(17, append(h, payload...))
	}
	tcp := func(src, dst uint16, opts, payload []byte) []byte {
		h := append(be16(src), be16(dst)...)
		h = append(h, random(rng, 8)...)
		h = append(h, byte((20+len(opts))/4)<<4, 0x18)
		h = append(h, random(rng, 6)...)
		return packet(6, append(append(h, opts...), payload...))
	}
	ts := append([]byte{8, 10}, random(rng, 8)...)
	http := func(s string) []byte { return []byte(s) }
	packets := [][]byte{
		udp(53124, 53, append(random(rng, 12), "\x07example\x03com\x00\x00\x01\x00\x01"...)),
		udp(53, 53124, append(random(rng, 12), "\x07example\x03com\x00\x00\x01\x00\x01\xc0\x0c\x00\x01\x00\x01\x00\x00\x0e\x10\x00\x04]\xb8\xd8\""...)),
		tcp(49152, 80, append([]byte{2, 4, 5, 0xb4, 1, 3, 3, 7, 4, 2}, append(ts, 0, 0)...), nil),
		tcp(49152, 80, append([]byte{1, 1}, ts...), http("GET /index.html HTTP/1.1\r\nHost: example.com\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n\r\n")),
		tcp(80, 49152, append(append([]byte{1, 1}, ts...), 1, 1, 5, 18, 0, 0, 0, 1, 0, 0, 0, 9), http("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: 1256\r\n\r\n"+string(bytes.Repeat([]byte("<p>Example Domain. This domain is for use in documentation examples.</p>\n"), 14)))),
		tcp(49152, 80, append([]byte{1, 1}, ts...), nil),
		tcp(49152, 80, append([]byte{1, 1}, ts...), nil),
	}
	for i, p := range packets {
		b = append(b, le32(1700000000+uint32(i))...)
		b = append(b, le32(rng.Uint32()%1000000)...)
		b = append(b, le32(uint32(len(p)))...)
		b = append(b, le32(uint32(len(p)))...)
		b = append(b, p...)
	}
	return b
}

// appendChunk appends a PNG chunk: its length, type, data and the CRC-32
// of type and data.
func appendChunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	start := len(b)
	b = append(append(b, typ...), data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// pngInput is a 256×32 palette image: the header, two text chunks, a
// gamma, a palette of 100 colours and one byte more, a transparency
// chunk, three chunks of pixels and the end.
func pngInput() []byte {
	rng := rand.New(rand.NewPCG(9, 10))
	b := []byte(png.Signature)
	chunk := func(typ string, data []byte) { b = appendChunk(b, typ, data) }
	chunk("IHDR", []byte{0, 0, 1, 0, 0, 0, 0, 32, 8, 3, 0, 0, 0})
	chunk("tEXt", []byte("Title\x00A palette image with a long title"))
	chunk("tEXt", []byte("Software\x00an image editor, version 4.2"))
	chunk("gAMA", []byte{0, 0, 0xb1, 0x8f})
	chunk("PLTE", random(rng, 301))
	chunk("tRNS", random(rng, 100))
	for range 3 {
		chunk("IDAT", random(rng, 400))
	}
	chunk("IEND", nil)
	return b
}

// gzipInput is a gzip member, deflated at the default level, of
// gzipText.
func gzipInput() []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.ModTime = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	w.OS = 3
	w.Write([]byte(gzipText()))
	w.Close()
	return b.Bytes()
}

// gzipText is a 2 KB configuration file with one empty section name, [],
// among 12 sections.
func gzipText() string {
	var text strings.Builder
	text.WriteString("; service configuration\n# generated, do not edit\n\n")
	for i, name := range []string{"server", "server.tls", "database", "database.pool", "cache", "queue",
		"", "logging", "metrics", "auth", "auth.oauth", "limits"} {
		fmt.Fprintf(&text, "[%s]\n", name)
		for j := range 6 {
			fmt.Fprintf(&text, "key%d_%d = value %d of %s, %d\n", i, j, j, name, i*j*37%101)
		}
		text.WriteString("\n")
	}
	return text.String()
}

// zlibInput is a zlib stream, deflated at the default level, of
// zlibText.
func zlibInput() []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(zlibText()))
	w.Close()
	return b.Bytes()
}

// zlibText is 40 tab-separated records of a name, a count and as many
// values; the 29th counts one value more than it has.
func zlibText() string {
	var text strings.Builder
	for i := range 40 {
		n := 1 + i*7%5
		fmt.Fprintf(&text, "sensor-%02d\t%d", i, n+btoi(i == 28))
		for j := range n {
			fmt.Fprintf(&text, "\t%d.%d", (i*31+j*17)%97, j)
		}
		text.WriteString("\n")
	}
	return text.String()
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pngpixInput is a 64×16 RGB image: the header, a text chunk, a gamma,
// the image data in one chunk (zlib at the default level), and the end.
// Its first row is filtered by Average, which reads the row above; the
// others by each of the five filters in turn.
func pngpixInput() []byte {
	b := []byte(png.Signature)
	chunk := func(typ string, data []byte) { b = appendChunk(b, typ, data) }
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte(pngpixRows()))
	w.Close()
	chunk("IHDR", []byte{0, 0, 0, 64, 0, 0, 0, 16, 8, 2, 0, 0, 0})
	chunk("tEXt", []byte("Comment\x00a gradient, filtered every way"))
	chunk("gAMA", []byte{0, 0, 0xb1, 0x8f})
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b
}

// pngpixRows is the filtered rows of pngpixInput's image: a gradient with
// noise.
func pngpixRows() string {
	rng := rand.New(rand.NewPCG(11, 12))
	var rows []byte
	for y := range 16 {
		rows = append(rows, []byte{3, 0, 1, 2, 3, 4}[y%6])
		for x := range 64 * 3 {
			rows = append(rows, byte(x+y*4+rng.IntN(8)))
		}
	}
	return string(rows)
}

// pngpixIDAT reads the image data of a pngpix input: the zlib stream of
// its IDAT chunk.
func pngpixIDAT(r io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	at := bytes.Index(b, []byte("IDAT"))
	if at < 4 {
		return nil, errors.New("no IDAT chunk")
	}
	n := binary.BigEndian.Uint32(b[at-4:])
	return zlib.NewReader(bytes.NewReader(b[at+4 : at+4+int(n)]))
}

// ipudpInput is an IPv4 packet of a UDP datagram of 24 records, one a
// list whose count is one more than its entries.
func ipudpInput() []byte {
	rng := rand.New(rand.NewPCG(13, 14))
	var payload []byte
	for i := range 24 {
		typ := byte(1 + i%6)
		val := random(rng, 3+i%9)
		switch {
		case i == 17:
			typ, val = 7, []byte{4, 0, 1, 0, 2, 0, 3}
		case typ == 6:
			typ = 7
			val = append([]byte{byte(len(val) / 2)}, val[:len(val)/2*2]...)
		}
		payload = append(append(payload, typ, byte(len(val))), val...)
	}
	udp := binary.BigEndian.AppendUint16(nil, 50123)
	udp = binary.BigEndian.AppendUint16(udp, 4789)
	udp = binary.BigEndian.AppendUint16(udp, uint16(8+len(payload)))
	udp = append(append(udp, 0, 0), payload...)
	ip := []byte{0x45, 0}
	ip = binary.BigEndian.AppendUint16(ip, uint16(20+len(udp)))
	ip = append(ip, random(rng, 2)...)
	ip = append(ip, 0x40, 0, 64, 17, 0, 0)
	ip = append(ip, 192, 168, 1, 20, 10, 0, 0, 7)
	var sum uint32
	for i := 0; i < 20; i += 2 {
		sum += uint32(binary.BigEndian.Uint16(ip[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	binary.BigEndian.PutUint16(ip[10:], ^uint16(sum))
	return append(ip, udp...)
}

// xzInput is an xz stream of two blocks checked by CRC-64, as xz -T2
// writes one: block headers with both sizes and a dictionary of 2 MiB,
// the content in uncompressed LZMA2 chunks of at most 200 bytes, 738
// bytes of settings in all, one a level past the table's.
func xzInput() []byte {
	rng := rand.New(rand.NewPCG(15, 16))
	keys := []string{"threads", "memory", "block", "timeout", "retries", "window", "buffer", "depth"}
	var contents [2][]byte
	for k := range contents {
		c := []byte("# archiver settings, part " + fmt.Sprint(k+1) + "\n")
		for len(c) < 360 {
			if k == 1 && len(c) > 150 && !bytes.Contains(c, []byte("level=")) {
				c = append(c, "level=9\n"...)
				continue
			}
			c = fmt.Appendf(c, "%s=%d\n", keys[rng.IntN(len(keys))], rng.IntN(5000))
		}
		contents[k] = c
	}
	flags := []byte{0, 4} // CRC-64
	b := append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, flags...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(flags))
	var index []byte
	for _, c := range contents {
		var data []byte
		for i := 0; i < len(c); i += 200 {
			chunk := c[i:min(i+200, len(c))]
			control := byte(2)
			if i == 0 {
				control = 1
			}
			data = binary.BigEndian.AppendUint16(append(data, control), uint16(len(chunk)-1))
			data = append(data, chunk...)
		}
		data = append(data, 0)
		h := binary.AppendUvarint([]byte{0, 0xc0}, uint64(len(data)))
		h = binary.AppendUvarint(h, uint64(len(c)))
		h = append(h, 0x21, 1, 0x12)
		for (len(h)+4)%4 != 0 {
			h = append(h, 0)
		}
		h[0] = byte((len(h)+4)/4 - 1)
		h = binary.LittleEndian.AppendUint32(h, crc32.ChecksumIEEE(h))
		b = append(append(b, h...), data...)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		b = binary.LittleEndian.AppendUint64(b, crc64.Checksum(c, crc64.MakeTable(crc64.ECMA)))
		index = binary.AppendUvarint(index, uint64(len(h)+len(data)+8))
		index = binary.AppendUvarint(index, uint64(len(c)))
	}
	index = append([]byte{0, byte(len(contents))}, index...)
	for len(index)%4 != 0 {
		index = append(index, 0)
	}
	index = binary.LittleEndian.AppendUint32(index, crc32.ChecksumIEEE(index))
	b = append(b, index...)
	footer := binary.LittleEndian.AppendUint32(nil, uint32(len(index)/4-1))
	footer = append(footer, flags...)
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(footer))
	return append(append(b, footer...), 'Y', 'Z')
}

// zipInput is an archive of zipTexts' files, deflated at the default
// level, as archive/zip writes files whose sizes it knows: no data
// descriptors, a modification time in each header and an extended
// timestamp in each extra field.
func zipInput() []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i, f := range zipTexts() {
		var deflated bytes.Buffer
		fw, _ := flate.NewWriter(&deflated, flate.DefaultCompression)
		fw.Write([]byte(f.Content))
		fw.Close()
		h := &zip.FileHeader{
			Name:               f.Name,
			Method:             zip.Deflate,
			Modified:           time.Date(2026, 11, 30, 12, i, 0, 0, time.UTC),
			CRC32:              crc32.ChecksumIEEE([]byte(f.Content)),
			CompressedSize64:   uint64(deflated.Len()),
			UncompressedSize64: uint64(len(f.Content)),
		}
		raw, err := w.CreateRaw(h)
		if err != nil {
			panic(err)
		}
		raw.Write(deflated.Bytes())
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// zipTexts are three files of settings, 1.8 KB in all, one a level past
// the table's.
func zipTexts() []struct{ Name, Content string } {
	var files []struct{ Name, Content string }
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []string{"block", "window", "threads", "memory", "timeout", "retries", "buffer", "depth", "cache"}
	for i, name := range []string{"server.conf", "client.conf", "limits.conf"} {
		var text strings.Builder
		fmt.Fprintf(&text, "# %s, generated\n", name)
		for j := range 25 {
			if i == 1 && j == 17 {
				text.WriteString("level=9\n")
			}
			fmt.Fprintf(&text, "%s=%d\n", keys[rng.IntN(len(keys))], rng.IntN(100000))
		}
		files = append(files, struct{ Name, Content string }{name, text.String()})
	}
	return files
}

func zipText() string { return contents(zipTexts()) }

// contents is the contents of files, one after the other.
func contents(files []struct{ Name, Content string }) string {
	var all strings.Builder
	for _, f := range files {
		all.WriteString(f.Content)
	}
	return all.String()
}

// unzip reads the files of an archive with archive/zip, one after the
// other.
func unzip(r io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, err
	}
	var all []io.Reader
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		all = append(all, rc)
	}
	return io.MultiReader(all...), nil
}

// tarInput is an archive of zipTexts' files as archive/tar writes them:
// ustar headers with a mode, owners and a modification time, each file
// padded to 512 bytes, two blocks of zeros at the end.
func tarInput() []byte {
	var b bytes.Buffer
	w := tar.NewWriter(&b)
	for i, f := range zipTexts() {
		h := &tar.Header{Name: f.Name, Mode: 0o644, Uname: "build", Gname: "build", Uid: 1000, Gid: 1000,
			ModTime: time.Date(2026, 11, 30, 12, i, 0, 0, time.UTC), Size: int64(len(f.Content)), Format: tar.FormatUSTAR}
		if err := w.WriteHeader(h); err != nil {
			panic(err)
		}
		w.Write([]byte(f.Content))
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// arcInput is an archive of arcTexts' files: four stored, the last
// deflated at the default level in a zlib stream, its length 40 bytes short of its
// content's.
func arcInput() []byte {
	b := []byte("AR")
	files := arcTexts()
	for i, f := range files {
		data, method, length := []byte(f.Content), byte(0), len(f.Content)
		if i == len(files)-1 {
			var z bytes.Buffer
			w := zlib.NewWriter(&z)
			w.Write(data)
			w.Close()
			data, method, length = z.Bytes(), 8, length-40
		}
		b = append(append(b, method, byte(len(f.Name))), f.Name...)
		b = binary.LittleEndian.AppendUint16(b, uint16(length))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(data)))
		b = append(b, data...)
		b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(data))
	}
	return b
}

// arcTexts are four files of settings and a list of 48 items, 2.3 KB in
// all.
func arcTexts() []struct{ Name, Content string } {
	var items strings.Builder
	for i := range 48 {
		fmt.Fprintf(&items, "item%02d=sku-%05d,qty=%d,loc=aisle-%d\n", i, 31337*i%99991, i*7%50, i%12)
	}
	return []struct{ Name, Content string }{
		{"conf/server.conf", "# server settings\nlisten=0.0.0.0:8443\nworkers=16\nread_timeout=30s\nwrite_timeout=30s\nidle_timeout=120s\nmax_header_bytes=1048576\ntls=on\ncert=/etc/ssl/server.pem\nkey=/etc/ssl/server.key\n"},
		{"conf/logging.conf", "# logging\nlevel=info\nformat=json\noutput=/var/log/app/app.log\nrotate=daily\nkeep=14\ncompress=true\nsample_rate=0.25\ninclude_caller=true\n"},
		{"conf/database.conf", "# database\ndriver=postgres\nhost=db.internal\nport=5432\nname=inventory\nuser=app\npool_min=4\npool_max=32\nconn_lifetime=1h\nstatement_timeout=15s\n"},
		{"conf/cache.conf", "# cache\nbackend=redis\naddr=cache.internal:6379\ndb=2\nttl=10m\nmax_entries=100000\neviction=lru\nprefix=inv:\n"},
		{"data/items.csv", "# items\n" + items.String()},
	}
}

func arcText() string { return contents(arcTexts()) }

// unarc reads the contents of an archive one after the other, as the
// format's description says, without the reader's bug.
func unarc(r io.Reader) (io.Reader, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(b, []byte("AR")) {
		return nil, errors.New("no magic")
	}
	b = b[2:]
	var out bytes.Buffer
	for len(b) > 0 {
		method := b[0]
		b = b[2+int(b[1]):]
		size := int(binary.LittleEndian.Uint16(b[2:]))
		b = b[4:]
		data := b[:size]
		if crc32.ChecksumIEEE(data) != binary.LittleEndian.Uint32(b[size:]) {
			return nil, errors.New("checksum mismatch")
		}
		b = b[size+4:]
		if method == 8 {
			zr, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, err
			}
			if data, err = io.ReadAll(zr); err != nil {
				return nil, err
			}
		}
		out.Write(data)
	}
	return &out, nil
}

// ber appends a BER record: tag, its length in the shortest form, and
// content.
func ber(b []byte, tag byte, content ...[]byte) []byte {
	n := 0
	for _, c := range content {
		n += len(c)
	}
	switch {
	case n < 0x80:
		b = append(b, tag, byte(n))
	case n < 0x100:
		b = append(b, tag, 0x81, byte(n))
	default:
		b = append(b, tag, 0x82, byte(n>>8), byte(n))
	}
	for _, c := range content {
		b = append(b, c...)
	}
	return b
}

// snmpInput is an SNMPv2c GetResponse of 12 bindings of an interface
// table, the ninth an empty Counter32 (see snmp/EXPECTED.md).
func snmpInput() []byte {
	oid := func(col, row byte) []byte { return ber(nil, 0x06, []byte{0x2b, 6, 1, 2, 1, 2, 2, 1, col, row}) }
	desc := func(s string) []byte { return ber(nil, 0x04, []byte(s)) }
	values := [][]byte{
		desc("eth0"),
		desc("Intel Corporation 82574L Gigabit Network Connection, firmware 1.9-0, driver e1000e 3.2.6-k, PCI 0000:02:00.0, link up at 1000 Mb/s full"),
		ber(nil, 0x02, []byte{0x00, 0x06}),
		ber(nil, 0x02, []byte{0x05, 0xdc}),
		ber(nil, 0x42, []byte{0x3b, 0x9a, 0xca, 0x00}),
		desc("\x52\x54\x00\x12\x34\x56"),
		ber(nil, 0x43, []byte{0x01, 0x2c, 0x4b, 0x70}),
		ber(nil, 0x41, []byte{0x00, 0x9f, 0x3c, 0x21, 0x07}),
		ber(nil, 0x41), // the empty counter
		ber(nil, 0x40, []byte{192, 168, 1, 17}),
		desc("Broadcom BCM5720 dual-port Gigabit Ethernet, firmware 5719-v1.46 NCSI v1.5.6.0, driver tg3 3.137, PCI 0000:03:00.1, no carrier"),
		ber(nil, 0x05),
	}
	var list []byte
	for i, v := range values {
		list = ber(list, 0x30, oid(byte(i+1), 1+byte(i%3)), v)
	}
	pdu := ber(nil, 0xa2, ber(nil, 0x02, []byte{0x1f, 0x3a, 0x7c, 0x55}), ber(nil, 0x02, []byte{0}), ber(nil, 0x02, []byte{0}), ber(nil, 0x30, list))
	return ber(nil, 0x30, ber(nil, 0x02, []byte{1}), ber(nil, 0x04, []byte("public-monitoring-ro")), pdu)
}

// kvScript is the kv shape's input: commands over dotted keys, a key set
// at the start deleted and read late (see kv/EXPECTED.md).
func kvScript() string {
	keys := []string{"session.user.preferences.theme", "session.user.preferences.locale", "cache.entries.last_updated",
		"cache.entries.count", "metrics.requests.total", "metrics.requests.failed", "feature.flags.dark_mode",
		"build.version", "deploy.region"}
	rng := rand.New(rand.NewPCG(11, 12))
	var b strings.Builder
	b.WriteString("# seed the store\n")
	for i, k := range keys {
		fmt.Fprintf(&b, "set %s %d\n", k, 100+i*37)
	}
	b.WriteString("\n# traffic\n")
	for range 30 {
		k := keys[rng.IntN(len(keys))]
		switch rng.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "get %s\n", k)
		case 1:
			fmt.Fprintf(&b, "incr %s\n", k)
		default:
			fmt.Fprintf(&b, "append %s %d\n", k, rng.IntN(1000))
		}
	}
	b.WriteString("\n# expire the cache\ndel cache.entries.last_updated\nget build.version\nget cache.entries.last_updated\nincr metrics.requests.total\n")
	return b.String()
}

// TestTextInputs builds the inputs of the text shapes that an encoder
// writes, and checks that testdata holds them (go test -update writes
// them).
func TestTextInputs(t *testing.T) {
	for name, input := range map[string]string{"kv": kvScript()} {
		file, err := encoding.Marshal(input)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, file, 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if have, err := os.ReadFile(path); err != nil || !bytes.Equal(have, file) {
			t.Errorf("%s does not hold what the encoder makes (go test -update writes it): %v", path, err)
		}
	}
}
