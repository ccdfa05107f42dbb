// Package wire parses public keys and certificates in an SSH-like wire
// format: integers are big endian, and a string is a uint32 length and
// that many bytes. A key is a string naming its type, then its fields; a
// certificate is a key type of its own whose fields hold another key (the
// one that signed it) as a string:
//
//	"ssh-ed25519"      string pub (32 bytes)
//	"ssh-rsa"          string e, string n
//	"ssh-ed25519-cert" string nonce, string pub, uint64 serial, uint32 type,
//	                   string key id, string principals (strings),
//	                   uint64 valid after, uint64 valid before,
//	                   string critical options, string extensions (pairs
//	                   of strings), string reserved, string signature key
//	                   (a key), string signature
//
// Every byte must be read: trailing bytes are an error.
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// A Key is a parsed public key.
type Key struct {
	Type string
	Pub  []byte // ed25519
	E, N []byte // rsa
	Sign byte   // ed25519: the sign of x
}

// A Cert is a parsed certificate.
type Cert struct {
	Nonce                   []byte
	Key                     *Key
	Serial                  uint64
	CertType                uint32
	KeyID                   string
	Principals              []string
	ValidAfter, ValidBefore uint64
	Options, Extensions     map[string]string
	SignatureKey            *Key
	Signature               []byte
}

const ed25519Size = 32

var errShort = errors.New("short buffer")

type reader struct {
	b   []byte
	err error
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) uint32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint32(b)
}

func (r *reader) uint64() uint64 {
	b := r.bytes(8)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

func (r *reader) string() []byte {
	n := r.uint32()
	if n > 1<<20 {
		r.err = fmt.Errorf("string of %d bytes", n)
		return nil
	}
	return r.bytes(int(n))
}

// strings reads a string of strings.
func (r *reader) strings() []string {
	in := reader{b: r.string(), err: r.err}
	var ss []string
	for in.err == nil && len(in.b) > 0 {
		ss = append(ss, string(in.string()))
	}
	r.err = in.err
	return ss
}

// pairs reads a string of pairs of strings.
func (r *reader) pairs() map[string]string {
	in := reader{b: r.string(), err: r.err}
	m := map[string]string{}
	for in.err == nil && len(in.b) > 0 {
		k := string(in.string())
		m[k] = string(in.string())
	}
	r.err = in.err
	return m
}

// Parse parses a key or a certificate: a *Key or a *Cert.
func Parse(b []byte) (any, error) {
	r := &reader{b: b}
	v, err := parse(r)
	if err != nil {
		return nil, err
	}
	if len(r.b) > 0 {
		return nil, fmt.Errorf("%d trailing bytes", len(r.b))
	}
	return v, nil
}

func parse(r *reader) (any, error) {
	typ := string(r.string())
	if r.err != nil {
		return nil, r.err
	}
	switch typ {
	case "ssh-ed25519":
		k := &Key{Type: typ}
		if err := k.ed25519(r.string(), r.err); err != nil {
			return nil, err
		}
		return k, nil
	case "ssh-rsa":
		k := &Key{Type: typ, E: r.string(), N: r.string()}
		if r.err != nil {
			return nil, r.err
		}
		if len(k.N) < 64 {
			return nil, fmt.Errorf("rsa modulus of %d bytes", len(k.N))
		}
		return k, nil
	case "ssh-ed25519-cert":
		return parseCert(r)
	}
	return nil, fmt.Errorf("unknown key type %q", typ)
}

func parseCert(r *reader) (*Cert, error) {
	c := &Cert{Nonce: r.string(), Key: &Key{Type: "ssh-ed25519"}}
	if err := c.Key.ed25519(r.string(), r.err); err != nil {
		return nil, err
	}
	c.Serial = r.uint64()
	c.CertType = r.uint32()
	c.KeyID = string(r.string())
	c.Principals = r.strings()
	c.ValidAfter, c.ValidBefore = r.uint64(), r.uint64()
	c.Options, c.Extensions = r.pairs(), r.pairs()
	r.string() // reserved
	sigKey := r.string()
	c.Signature = r.string()
	if r.err != nil {
		return nil, r.err
	}
	if c.CertType != 1 && c.CertType != 2 {
		return nil, fmt.Errorf("certificate type %d", c.CertType)
	}
	k, err := parse(&reader{b: sigKey})
	if err != nil {
		return nil, fmt.Errorf("signature key: %v", err)
	}
	key, ok := k.(*Key)
	if !ok {
		return nil, errors.New("signature key is a certificate")
	}
	c.SignatureKey = key
	return c, nil
}

// ed25519 sets the key's point from pub, read with error err.
func (k *Key) ed25519(pub []byte, err error) error {
	if err != nil {
		return err
	}
	if len(pub) > ed25519Size { // the bug: a short key passes
		return fmt.Errorf("ed25519 key of %d bytes", len(pub))
	}
	k.Pub = pub
	k.Sign = pub[ed25519Size-1] >> 7
	return nil
}
