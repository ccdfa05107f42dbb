// Package ipudp reads IPv4 packets that carry UDP datagrams of records.
// A packet is an IPv4 header (RFC 791): the version 4 and the header's
// length in 32-bit words, 5 to 15; the packet's total length; an
// identification, flags and a fragment offset (a packet is not a
// fragment); a time to live; the protocol, 17 for UDP; the header's
// checksum, the ones' complement of the ones' complement sum of its
// 16-bit words; the source and destination addresses; options. Then a UDP
// header (RFC 768): the ports, the datagram's length from the UDP header
// on, and a checksum, 0 for none. The datagram holds records: a type, a
// length, and as many bytes of value. Type 7 is a list: a count, then
// that many 2-byte entries.
package ipudp

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A Record is a record of a datagram.
type Record struct {
	Type    byte
	Value   []byte
	Entries []uint16 // of a list
}

// Read reads a packet.
func Read(b []byte) ([]Record, error) {
	if len(b) < 20 || b[0]>>4 != 4 {
		return nil, errors.New("not an IPv4 packet")
	}
	hlen := int(b[0]&0x0f) * 4
	if hlen < 20 || hlen > len(b) {
		return nil, fmt.Errorf("header of %d bytes", hlen)
	}
	if int(binary.BigEndian.Uint16(b[2:])) != len(b) {
		return nil, errors.New("total length mismatch")
	}
	if binary.BigEndian.Uint16(b[6:])&0x3fff != 0 {
		return nil, errors.New("a fragment")
	}
	var sum uint32
	for i := 0; i < hlen; i += 2 {
		sum += uint32(binary.BigEndian.Uint16(b[i:]))
	}
	for sum > 0xffff {
		sum = sum&0xffff + sum>>16
	}
	if sum != 0xffff {
		return nil, errors.New("header checksum mismatch")
	}
	if b[9] != 17 {
		return nil, fmt.Errorf("protocol %d", b[9])
	}
	u := b[hlen:]
	if len(u) < 8 || int(binary.BigEndian.Uint16(u[4:])) != len(u) {
		return nil, errors.New("UDP length mismatch")
	}
	if binary.BigEndian.Uint16(u[6:]) != 0 {
		return nil, errors.New("UDP checksums are not supported")
	}
	var recs []Record
	for p := u[8:]; len(p) > 0; {
		if len(p) < 2 || int(p[1]) > len(p)-2 {
			return nil, errors.New("short record")
		}
		r := Record{Type: p[0], Value: p[2 : 2+int(p[1])]}
		if r.Type == 7 && len(r.Value) > 0 {
			// The bug: the count is not checked against the value.
			for i := range int(r.Value[0]) {
				r.Entries = append(r.Entries, uint16(r.Value[1+2*i])<<8|uint16(r.Value[2+2*i])) // line 71
			}
		}
		recs = append(recs, r)
		p = p[2+int(p[1]):]
	}
	return recs, nil
}
