// Package shapes holds failing inputs shaped like real ones, for the quality
// tests and benchmarks of fuzzshrink: for each shape a small parser with one
// bug (in a package of its own), the body of its fuzz target, and an
// unminimized failing input (in testdata, in the fuzz corpus format).
//
// A candidate fails the same way as the input only if it panics with the
// same signature (the message class and the panicking line in the shape's
// code, as the command line and fuzzshrink's session tell failures apart);
// a candidate that fails another way is another bug.
package shapes

import (
	"bytes"
	"embed"
	stdjson "encoding/json"
	"fmt"
	stdpng "image/png"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shapes/arc"
	"github.com/fuzzmin/fuzzmin/internal/shapes/bmp"
	"github.com/fuzzmin/fuzzmin/internal/shapes/calc"
	"github.com/fuzzmin/fuzzmin/internal/shapes/config"
	"github.com/fuzzmin/fuzzmin/internal/shapes/dns"
	"github.com/fuzzmin/fuzzmin/internal/shapes/gosource"
	"github.com/fuzzmin/fuzzmin/internal/shapes/gzip"
	"github.com/fuzzmin/fuzzmin/internal/shapes/ipudp"
	"github.com/fuzzmin/fuzzmin/internal/shapes/jq"
	"github.com/fuzzmin/fuzzmin/internal/shapes/json"
	"github.com/fuzzmin/fuzzmin/internal/shapes/kv"
	"github.com/fuzzmin/fuzzmin/internal/shapes/markup"
	"github.com/fuzzmin/fuzzmin/internal/shapes/packet"
	"github.com/fuzzmin/fuzzmin/internal/shapes/pcap"
	"github.com/fuzzmin/fuzzmin/internal/shapes/png"
	"github.com/fuzzmin/fuzzmin/internal/shapes/pngpix"
	"github.com/fuzzmin/fuzzmin/internal/shapes/sexpr"
	"github.com/fuzzmin/fuzzmin/internal/shapes/snmp"
	"github.com/fuzzmin/fuzzmin/internal/shapes/tar"
	"github.com/fuzzmin/fuzzmin/internal/shapes/tiff"
	"github.com/fuzzmin/fuzzmin/internal/shapes/toml"
	"github.com/fuzzmin/fuzzmin/internal/shapes/wire"
	"github.com/fuzzmin/fuzzmin/internal/shapes/xz"
	"github.com/fuzzmin/fuzzmin/internal/shapes/zip"
	"github.com/fuzzmin/fuzzmin/internal/shapes/zlib"
)

// A Shape is one failing input and the fuzz target it fails.
type Shape struct {
	Name   string
	Input  any               // the unminimized failing input: a string or []byte
	Sig    failure.Signature // how Input fails
	shaper *failure.Shaper   // the identity texts of its failures
	target func(arg any)
}

// Check runs the shape's fuzz target on arg and returns how it fails.
func (s *Shape) Check(arg any) failure.Signature {
	sig, msg := s.run(arg)
	if msg != "" {
		sig.Text = s.shaper.Shape(sig, msg, []any{arg})
	}
	return sig
}

// run runs the target on arg and returns how it fails, with the message of
// a panic of the target's own value.
func (s *Shape) run(arg any) (sig failure.Signature, msg string) {
	defer func() {
		if r := recover(); r != nil {
			sig, msg = failure.Recovered(r)
		}
	}()
	s.target(arg)
	return failure.Signature{}, ""
}

//go:embed testdata
var testdata embed.FS

// targets are the bodies of the shapes' fuzz targets, by name.
var targets = []struct {
	name string
	run  func(arg any)
}{
	{"json", func(arg any) {
		var doc any
		if err := stdjson.Unmarshal(arg.([]byte), &doc); err != nil {
			return // invalid JSON is not our concern
		}
		json.Index(doc)
	}},
	{"config", func(arg any) { config.Parse(arg.(string)) }},
	{"sexpr", func(arg any) { sexpr.Eval(arg.(string)) }},
	{"markup", func(arg any) {
		nodes, err := markup.Parse(arg.(string))
		if err != nil {
			return
		}
		markup.Layout(nodes, 960)
	}},
	{"gosource", func(arg any) { gosource.Check("fuzz.go", arg.([]byte)) }},
	{"toml", func(arg any) {
		doc, err := toml.Parse(arg.(string))
		if err != nil {
			return
		}
		toml.LoadServer(doc)
	}},
	{"packet", func(arg any) { packet.Parse(arg.([]byte)) }},
	{"wire", func(arg any) { wire.Parse(arg.([]byte)) }},
	{"dns", func(arg any) { dns.Parse(arg.([]byte)) }},
	{"tiff", func(arg any) { tiff.Decode(arg.([]byte)) }},
	{"bmp", func(arg any) { bmp.Decode(arg.([]byte)) }},
	{"pcap", func(arg any) { pcap.Read(arg.([]byte)) }},
	{"png", func(arg any) { png.Decode(arg.([]byte)) }},
	{"calc", func(arg any) { calc.Eval(arg.(string)) }},
	{"jq", func(arg any) { jq.Run(arg.(string)) }},
	{"gzip", func(arg any) { gzip.Read(arg.([]byte)) }},
	{"zlib", func(arg any) { zlib.Read(arg.([]byte)) }},
	{"pngpix", func(arg any) { pngpix.Decode(arg.([]byte)) }},
	{"ipudp", func(arg any) { ipudp.Read(arg.([]byte)) }},
	{"xz", func(arg any) { xz.Read(arg.([]byte)) }},
	{"zip", func(arg any) { zip.Read(arg.([]byte)) }},
	{"tar", func(arg any) { tar.Read(arg.([]byte)) }},
	{"arc", func(arg any) { arc.Read(arg.([]byte)) }},
	{"snmp", func(arg any) { snmp.Decode(arg.([]byte)) }},
	{"kv", func(arg any) { kv.Run(arg.(string)) }},
	// The standard library's PNG decoder, and a test that fails on an
	// image whose first pixel is red.
	{"imagepng", func(arg any) {
		img, err := stdpng.Decode(bytes.NewReader(arg.([]byte)))
		if err != nil {
			return
		}
		r, g, _, _ := img.At(img.Bounds().Min.X, img.Bounds().Min.Y).RGBA()
		if r>>8 == 0xff && g>>8 == 0 {
			panic("the first pixel is red")
		}
	}},
}

// All returns the shapes, each with its input read from testdata and its
// signature. It panics if an input does not fail.
func All() []*Shape {
	var all []*Shape
	for _, t := range targets {
		data, err := testdata.ReadFile("testdata/" + t.name)
		if err != nil {
			panic(err)
		}
		vals, err := encoding.Unmarshal(data)
		if err != nil || len(vals) != 1 {
			panic(fmt.Sprintf("testdata/%s: %v", t.name, err))
		}
		s := &Shape{Name: t.name, Input: vals[0], target: t.run, shaper: new(failure.Shaper)}
		if s.Sig = s.Check(s.Input); !s.Sig.Failed() {
			panic(fmt.Sprintf("testdata/%s does not fail", t.name))
		}
		all = append(all, s)
	}
	return all
}
