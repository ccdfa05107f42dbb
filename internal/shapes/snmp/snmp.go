// Package snmp decodes SNMP messages (RFC 3416), BER-encoded (X.690): a
// tree of tag-length-value records whose lengths are one byte below 128
// and 0x81 n or 0x82 hi lo above. A message is
//
//	SEQUENCE {
//	    INTEGER version (0 or 1),
//	    OCTET STRING community,
//	    PDU {  -- context tags 0xa0 to 0xa3, constructed
//	        INTEGER request-id, INTEGER error-status, INTEGER error-index,
//	        SEQUENCE OF SEQUENCE { OBJECT IDENTIFIER name, value }
//	    }
//	}
//
// A value is an INTEGER, an OCTET STRING, a NULL, an OBJECT IDENTIFIER,
// an IpAddress (0x40, 4 bytes), or a Counter32, Gauge32, TimeTicks or
// Counter64 (0x41, 0x42, 0x43, 0x46). Every record must hold exactly what
// its length says, and nothing may follow the message.
package snmp

import (
	"errors"
	"fmt"
)

// A Message is a decoded SNMP message.
type Message struct {
	Version   int64
	Community string
	PDU       byte // its tag
	RequestID int64
	Bindings  []Binding
}

// A Binding is a variable binding: an object's name and its value.
type Binding struct {
	Name  []byte // the OBJECT IDENTIFIER's content
	Value any
}

var errShort = errors.New("snmp: truncated record")

// record reads the record at the start of b: its tag and content, and
// what follows it.
func record(b []byte) (tag byte, content, rest []byte, err error) {
	if len(b) < 2 {
		return 0, nil, nil, errShort
	}
	tag, n := b[0], int(b[1])
	b = b[2:]
	if n >= 0x80 {
		w := n - 0x80
		if w == 0 || w > 2 || len(b) < w {
			return 0, nil, nil, fmt.Errorf("snmp: bad length form 0x%02x", n)
		}
		n = 0
		for _, c := range b[:w] {
			n = n<<8 | int(c)
		}
		b = b[w:]
	}
	if n > len(b) {
		return 0, nil, nil, errShort
	}
	return tag, b[:n], b[n:], nil
}

// expect reads a record of the tag want.
func expect(b []byte, want byte) (content, rest []byte, err error) {
	tag, content, rest, err := record(b)
	if err == nil && tag != want {
		err = fmt.Errorf("snmp: tag 0x%02x, want 0x%02x", tag, want)
	}
	return content, rest, err
}

func integer(b []byte) (int64, []byte, error) {
	c, rest, err := expect(b, 0x02)
	if err != nil {
		return 0, nil, err
	}
	if len(c) == 0 || len(c) > 8 {
		return 0, nil, fmt.Errorf("snmp: an INTEGER of %d bytes", len(c))
	}
	v := int64(int8(c[0]))
	for _, x := range c[1:] {
		v = v<<8 | int64(x)
	}
	return v, rest, nil
}

// Decode decodes a message.
func Decode(b []byte) (*Message, error) {
	msg, rest, err := expect(b, 0x30)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, errors.New("snmp: data after the message")
	}
	m := new(Message)
	if m.Version, msg, err = integer(msg); err != nil {
		return nil, err
	}
	if m.Version != 0 && m.Version != 1 {
		return nil, fmt.Errorf("snmp: version %d", m.Version)
	}
	community, msg, err := expect(msg, 0x04)
	if err != nil {
		return nil, err
	}
	m.Community = string(community)
	tag, pdu, msg, err := record(msg)
	if err != nil {
		return nil, err
	}
	if tag < 0xa0 || tag > 0xa3 || len(msg) > 0 {
		return nil, fmt.Errorf("snmp: a PDU of tag 0x%02x, %d bytes after it", tag, len(msg))
	}
	m.PDU = tag
	if m.RequestID, pdu, err = integer(pdu); err != nil {
		return nil, err
	}
	for range 2 { // error-status, error-index
		if _, pdu, err = integer(pdu); err != nil {
			return nil, err
		}
	}
	list, pdu, err := expect(pdu, 0x30)
	if err != nil {
		return nil, err
	}
	if len(pdu) > 0 {
		return nil, errors.New("snmp: data after the bindings")
	}
	for len(list) > 0 {
		var vb []byte
		if vb, list, err = expect(list, 0x30); err != nil {
			return nil, err
		}
		bind, err := binding(vb)
		if err != nil {
			return nil, err
		}
		m.Bindings = append(m.Bindings, bind)
	}
	return m, nil
}

func binding(b []byte) (Binding, error) {
	name, b, err := expect(b, 0x06)
	if err != nil {
		return Binding{}, err
	}
	if len(name) == 0 {
		return Binding{}, errors.New("snmp: an empty OBJECT IDENTIFIER")
	}
	tag, c, rest, err := record(b)
	if err != nil {
		return Binding{}, err
	}
	if len(rest) > 0 {
		return Binding{}, errors.New("snmp: data after a binding's value")
	}
	bind := Binding{Name: name}
	switch tag {
	case 0x02:
		bind.Value, _, err = integer(b)
	case 0x04, 0x06:
		bind.Value = c
	case 0x05:
		if len(c) != 0 {
			err = errors.New("snmp: a NULL with content")
		}
	case 0x40:
		if len(c) != 4 {
			err = errors.New("snmp: an IpAddress not of 4 bytes")
		}
		bind.Value = c
	case 0x41, 0x42, 0x43, 0x46:
		bind.Value, err = unsigned(c)
	default:
		err = fmt.Errorf("snmp: a value of tag 0x%02x", tag)
	}
	return bind, err
}

// unsigned decodes a Counter32, Gauge32, TimeTicks or Counter64.
func unsigned(c []byte) (uint64, error) {
	if len(c) > 9 {
		return 0, errors.New("snmp: an unsigned value of more than 9 bytes")
	}
	// The bug: a leading 0 byte (which keeps the top bit of a large value
	// from reading as a sign) is looked for without checking that there
	// is a byte.
	if c[0] == 0 {
		c = c[1:]
	}
	var v uint64
	for _, x := range c {
		v = v<<8 | uint64(x)
	}
	return v, nil
}
