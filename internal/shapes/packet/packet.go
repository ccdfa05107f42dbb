// Package packet parses RTCP-like compound packets. Each packet has a 4-byte
// header, then Length 32-bit words:
//
//	byte 0: version (2 bits, must be 2), padding (1 bit), count (5 bits)
//	byte 1: packet type (200 SR, 201 RR, 202 SDES, 203 BYE, 204 APP)
//	bytes 2-3: Length, big endian: the number of 32-bit words that follow
//
// A compound packet is packets back to back, filling the buffer exactly.
package packet

import (
	"encoding/binary"
	"errors"
	"fmt"
)

const (
	TypeSR   = 200
	TypeRR   = 201
	TypeSDES = 202
	TypeBYE  = 203
	TypeAPP  = 204

	appSubtypeStats = 2 // APP "STAT": per-interval counters
)

// Packet is one parsed packet.
type Packet struct {
	Type  uint8
	Count uint8 // report count, source count, or APP subtype
	SSRC  uint32
	Name  string   // APP name
	Items []string // SDES items
	Stats []uint32 // APP STAT counters
	Body  []byte
}

var errShort = errors.New("packet shorter than its contents")

// Parse parses a compound packet.
func Parse(buf []byte) ([]Packet, error) {
	var pkts []Packet
	for len(buf) > 0 {
		if len(buf) < 4 {
			return nil, fmt.Errorf("%d trailing bytes", len(buf))
		}
		if buf[0]>>6 != 2 {
			return nil, fmt.Errorf("version %d", buf[0]>>6)
		}
		n := 4 + 4*int(binary.BigEndian.Uint16(buf[2:4]))
		if n > len(buf) {
			return nil, fmt.Errorf("length %d past the end (%d bytes left)", n, len(buf))
		}
		p := Packet{Type: buf[1], Count: buf[0] & 0x1f, Body: buf[4:n:n]}
		if err := p.parseBody(); err != nil {
			return nil, fmt.Errorf("packet %d (type %d): %v", len(pkts), p.Type, err)
		}
		pkts = append(pkts, p)
		buf = buf[n:]
	}
	return pkts, nil
}

func (p *Packet) parseBody() error {
	b := p.Body
	if p.Type < TypeSR || p.Type > TypeAPP {
		return fmt.Errorf("unknown type")
	}
	if p.Type != TypeSDES {
		if len(b) < 4 {
			return errShort
		}
		p.SSRC = binary.BigEndian.Uint32(b)
	}
	switch p.Type {
	case TypeSR: // sender info (5 words) then report blocks (6 words each)
		if len(b) < 4+20+24*int(p.Count) {
			return errShort
		}
	case TypeRR:
		if len(b) < 4+24*int(p.Count) {
			return errShort
		}
	case TypeBYE: // Count SSRCs, then an optional reason
		if len(b) < 4*int(p.Count) {
			return errShort
		}
	case TypeSDES: // Count chunks: SSRC, items (type, length, text), 0, padding
		for range p.Count {
			if len(b) < 4 {
				return errShort
			}
			i := 4
			for i < len(b) && b[i] != 0 {
				if i+2 > len(b) || i+2+int(b[i+1]) > len(b) {
					return errShort
				}
				p.Items = append(p.Items, string(b[i+2:i+2+int(b[i+1])]))
				i += 2 + int(b[i+1])
			}
			i = (i + 4) &^ 3 // the 0 item type, then pad to a word
			b = b[min(i, len(b)):]
		}
	case TypeAPP: // SSRC, 4-byte name, application data
		if len(b) < 8 {
			return errShort
		}
		p.Name = string(b[4:8])
		data := b[8:]
		if p.Name == "STAT" && p.Count == appSubtypeStats {
			// a 16-bit number of counters, 16 reserved bits, then the counters
			if len(data) < 4 {
				return errShort
			}
			for i := range int(binary.BigEndian.Uint16(data)) {
				p.Stats = append(p.Stats, binary.BigEndian.Uint32(data[4+4*i:]))
			}
		}
	}
	return nil
}
