// Package dns parses DNS-like messages: a 12-byte header of six big-endian
// uint16s (id, flags, and the counts of questions, answers, authority and
// additional records), then the questions and the records.
//
// A name is labels, each a length byte and that many bytes, ended by a
// zero byte, or by a pointer (two bytes, 0xC0 | offset) to an earlier name.
// A question is a name, a type and a class (uint16s); a record is a name,
// a type, a class, a uint32 TTL, and a uint16 length of its data. The
// answers' data is decoded by type; the other records' is skipped. Every
// byte must be read.
package dns

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
)

const (
	TypeA     = 1
	TypeNS    = 2
	TypeCNAME = 5
	TypeMX    = 15
	TypeTXT   = 16
	TypeAAAA  = 28
)

// A Message is a parsed message.
type Message struct {
	ID, Flags  uint16
	Questions  []Question
	Answers    []Record
	Authority  []Record
	Additional []Record
}

// A Question is a parsed question.
type Question struct {
	Name        string
	Type, Class uint16
}

// A Record is a parsed resource record.
type Record struct {
	Name        string
	Type, Class uint16
	TTL         uint32
	Data        []byte
	Value       any // answers: net.IP, a name, an MX, []string
}

// An MX is a mail exchange record's value.
type MX struct {
	Pref uint16
	Host string
}

var errShort = errors.New("short message")

type parser struct {
	msg []byte
	off int
}

func (p *parser) u16() (uint16, error) {
	if p.off+2 > len(p.msg) {
		return 0, errShort
	}
	v := binary.BigEndian.Uint16(p.msg[p.off:])
	p.off += 2
	return v, nil
}

func (p *parser) u32() (uint32, error) {
	if p.off+4 > len(p.msg) {
		return 0, errShort
	}
	v := binary.BigEndian.Uint32(p.msg[p.off:])
	p.off += 4
	return v, nil
}

// name reads a name at p.off.
func (p *parser) name() (string, error) {
	s, end, err := readName(p.msg, p.off)
	p.off = end
	return s, err
}

// readName reads the name at off and returns it and where it ends.
func readName(msg []byte, off int) (string, int, error) {
	var labels []string
	end, hops := -1, 0
	for {
		if off >= len(msg) {
			return "", 0, errShort
		}
		n := int(msg[off])
		switch {
		case n == 0:
			if end < 0 {
				end = off + 1
			}
			return strings.Join(labels, ".") + ".", end, nil
		case n&0xC0 == 0xC0:
			if off+2 > len(msg) {
				return "", 0, errShort
			}
			if end < 0 {
				end = off + 2
			}
			if hops++; hops > 10 {
				return "", 0, errors.New("pointer loop")
			}
			ptr := int(binary.BigEndian.Uint16(msg[off:]) & 0x3FFF)
			if ptr >= off {
				return "", 0, errors.New("pointer forward")
			}
			off = ptr
		case n > 63:
			return "", 0, fmt.Errorf("label of %d bytes", n)
		default:
			if off+1+n > len(msg) {
				return "", 0, errShort
			}
			labels = append(labels, string(msg[off+1:off+1+n]))
			off += 1 + n
		}
	}
}

// Parse parses a message.
func Parse(msg []byte) (*Message, error) {
	p := &parser{msg: msg}
	var h [6]uint16
	for i := range h {
		v, err := p.u16()
		if err != nil {
			return nil, err
		}
		h[i] = v
	}
	m := &Message{ID: h[0], Flags: h[1]}
	for range h[2] {
		var q Question
		var err error
		if q.Name, err = p.name(); err != nil {
			return nil, err
		}
		if q.Type, err = p.u16(); err != nil {
			return nil, err
		}
		if q.Class, err = p.u16(); err != nil {
			return nil, err
		}
		m.Questions = append(m.Questions, q)
	}
	for i, sec := range []*[]Record{&m.Answers, &m.Authority, &m.Additional} {
		for range h[3+i] {
			r, err := p.record(i == 0)
			if err != nil {
				return nil, err
			}
			*sec = append(*sec, r)
		}
	}
	if p.off != len(msg) {
		return nil, fmt.Errorf("%d trailing bytes", len(msg)-p.off)
	}
	return m, nil
}

// record reads a record, and decodes its data if it is an answer.
func (p *parser) record(answer bool) (Record, error) {
	var r Record
	var err error
	if r.Name, err = p.name(); err != nil {
		return r, err
	}
	if r.Type, err = p.u16(); err != nil {
		return r, err
	}
	if r.Class, err = p.u16(); err != nil {
		return r, err
	}
	if r.TTL, err = p.u32(); err != nil {
		return r, err
	}
	n, err := p.u16()
	if err != nil {
		return r, err
	}
	if p.off+int(n) > len(p.msg) {
		return r, errShort
	}
	start := p.off
	r.Data = p.msg[start : start+int(n) : start+int(n)]
	p.off += int(n)
	if !answer {
		return r, nil
	}
	switch r.Type {
	case TypeA:
		if len(r.Data) > 4 { // the bug: a short address passes
			return r, fmt.Errorf("A record of %d bytes", len(r.Data))
		}
		r.Value = net.IPv4(r.Data[0], r.Data[1], r.Data[2], r.Data[3])
	case TypeAAAA:
		if len(r.Data) != 16 {
			return r, fmt.Errorf("AAAA record of %d bytes", len(r.Data))
		}
		r.Value = net.IP(r.Data)
	case TypeNS, TypeCNAME:
		name, end, err := readName(p.msg, start)
		if err != nil || end != p.off {
			return r, errors.New("bad name in data")
		}
		r.Value = name
	case TypeMX:
		if n < 3 {
			return r, errShort
		}
		name, end, err := readName(p.msg, start+2)
		if err != nil || end != p.off {
			return r, errors.New("bad name in data")
		}
		r.Value = MX{binary.BigEndian.Uint16(r.Data), name}
	case TypeTXT:
		var txt []string
		for d := r.Data; len(d) > 0; {
			if 1+int(d[0]) > len(d) {
				return r, errShort
			}
			txt = append(txt, string(d[1:1+int(d[0])]))
			d = d[1+int(d[0]):]
		}
		r.Value = txt
	}
	return r, nil
}
