// Package pcap reads packet captures in the classic pcap format and
// decodes their Ethernet, IPv4, TCP and UDP headers. A capture is a 24-byte
// header (the magic number 0xa1b2c3d4 as a little-endian uint32, the
// version 2.4 as two uint16s, a time zone, the accuracy of the timestamps,
// the largest packet captured and the link type, 1 for Ethernet), then
// records: a 16-byte header (seconds, microseconds, the length captured
// and the length on the wire, uint32s) and the bytes captured.
//
// A packet is an Ethernet frame (two addresses and a big-endian type,
// 0x0800 for IPv4); an IPv4 header (the version and the header's length
// in 32-bit words, the total length, the protocol: 6 TCP, 17 UDP); then a
// TCP header (ports, sequence and acknowledgment numbers, the header's
// length in 32-bit words, options after the first 20 bytes) or a UDP
// header (ports, the length, a checksum).
package pcap

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A Packet is a decoded packet.
type Packet struct {
	Seconds, Micros uint32
	Data            []byte
	Proto           int // 6 or 17; 0 if not IPv4
	SrcPort         uint16
	DstPort         uint16
	MSS             uint16 // a TCP header's maximum segment size, if it has one
	Payload         []byte
}

var (
	le = binary.LittleEndian
	be = binary.BigEndian
)

// Read reads and decodes a capture.
func Read(b []byte) ([]Packet, error) {
	if len(b) < 24 || le.Uint32(b) != 0xa1b2c3d4 {
		return nil, errors.New("not a capture")
	}
	if le.Uint16(b[4:]) != 2 {
		return nil, fmt.Errorf("version %d", le.Uint16(b[4:]))
	}
	snap, link := le.Uint32(b[16:]), le.Uint32(b[20:])
	if link != 1 {
		return nil, fmt.Errorf("link type %d", link)
	}
	var ps []Packet
	for off := 24; off < len(b); {
		if len(b)-off < 16 {
			return nil, errors.New("short record header")
		}
		h := b[off:]
		n := le.Uint32(h[8:])
		if n > snap || n > le.Uint32(h[12:]) {
			return nil, fmt.Errorf("%d bytes captured", n)
		}
		// Like readers that read a record into a buffer of its length
		// before they know the input holds it.
		data := make([]byte, n)
		if copy(data, b[off+16:]) < len(data) {
			return nil, errors.New("short record")
		}
		off += 16 + int(n)
		p := Packet{Seconds: le.Uint32(h), Micros: le.Uint32(h[4:]), Data: data}
		if err := p.decode(); err != nil {
			return nil, fmt.Errorf("packet %d: %v", len(ps), err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func (p *Packet) decode() error {
	d := p.Data
	if len(d) < 14 {
		return errors.New("short frame")
	}
	if be.Uint16(d[12:]) != 0x0800 {
		return nil
	}
	ip := d[14:]
	if len(ip) < 20 || ip[0]>>4 != 4 {
		return errors.New("not IPv4")
	}
	hl, total := int(ip[0]&15)*4, int(be.Uint16(ip[2:]))
	if hl < 20 || total < hl || total > len(ip) {
		return errors.New("bad IPv4 lengths")
	}
	p.Proto = int(ip[9])
	seg := ip[hl:total:total]
	switch p.Proto {
	case 6:
		return p.tcp(seg)
	case 17:
		if len(seg) < 8 || int(be.Uint16(seg[4:])) != len(seg) {
			return errors.New("bad UDP length")
		}
		p.SrcPort, p.DstPort, p.Payload = be.Uint16(seg), be.Uint16(seg[2:]), seg[8:]
	}
	return nil
}

func (p *Packet) tcp(seg []byte) error {
	if len(seg) < 20 {
		return errors.New("short TCP header")
	}
	hl := int(seg[12]>>4) * 4
	if hl < 20 || hl > len(seg) {
		return errors.New("bad TCP header length")
	}
	p.SrcPort, p.DstPort, p.Payload = be.Uint16(seg), be.Uint16(seg[2:]), seg[hl:]
	opts := seg[20:hl:hl]
	for len(opts) > 0 {
		kind := opts[0]
		switch kind {
		case 0:
			return nil
		case 1:
			opts = opts[1:]
			continue
		}
		if len(opts) < 2 || opts[1] < 2 {
			return errors.New("bad TCP option")
		}
		n := int(opts[1])
		body := opts[2:n] // the bug: the option's length is not checked against the header's
		if kind == 2 && len(body) == 2 {
			p.MSS = be.Uint16(body)
		}
		opts = opts[n:]
	}
	return nil
}
