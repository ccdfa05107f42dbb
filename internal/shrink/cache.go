package shrink

import (
	"encoding/binary"
	"hash/maphash"
	"reflect"

	"github.com/fuzzmin/fuzzmin/internal/encoding"
	"github.com/fuzzmin/fuzzmin/internal/structured"
)

// A cacheKey identifies a candidate tuple: two 64-bit hashes, with independent
// random seeds, of the tuple's canonical encoding. The cache keeps keys, never
// candidates, so its memory is 16 bytes (plus map overhead) per run whatever
// the size of the inputs. A collision (probability about runs²/2¹²⁹) would
// only skip one candidate.
type cacheKey [2]uint64

// cache remembers every candidate run in a search.
type cache struct {
	h    [2]maphash.Hash
	seen map[cacheKey]struct{}
}

func newCache() *cache {
	c := &cache{seen: make(map[cacheKey]struct{})}
	for i := range c.h {
		c.h[i].SetSeed(maphash.MakeSeed())
	}
	return c
}

// add records k and reports whether it is new.
func (c *cache) add(k cacheKey) bool {
	if _, ok := c.seen[k]; ok {
		return false
	}
	c.seen[k] = struct{}{}
	return true
}

func (c *cache) remove(k cacheKey) { delete(c.seen, k) }

// tagComposite marks a composite argument in the canonical encoding; the
// native types have the tags of encoding.NativeTag.
const tagComposite byte = 0xff

// tagValue marks a [Value], such as a choice sequence.
const tagValue byte = 0xfe

// key returns the key of tuple t with argument i replaced by v (none if
// i < 0; the tuple v if i is len(t)), so that the engine can look a
// candidate up before building it.
//
// The canonical encoding, written straight into the hashers without a
// buffer, is per argument a type tag byte followed by 8 bytes: the value of a
// bool (0 or 1), an integer (as uint64, sign-extended), or a float's IEEE bits
// (so distinct NaNs are distinct candidates); or the length of a string or
// []byte followed by its bytes. Every argument's encoding is self-delimiting,
// so distinct tuples have distinct encodings ("ab","c" vs "a","bc"; int(1) vs
// int64(1)); a nil and an empty []byte encode alike.
func (c *cache) key(t []any, i int, v any) cacheKey {
	if i == len(t) { // v is the whole tuple
		t, i = v.([]any), -1
	}
	c.h[0].Reset()
	c.h[1].Reset()
	for k, a := range t {
		if k == i {
			a = v
		}
		c.write(a)
	}
	return cacheKey{c.h[0].Sum64(), c.h[1].Sum64()}
}

func (c *cache) write(a any) {
	tag, bits := encoding.NativeTag(a)
	switch x := a.(type) {
	case Value:
		k := x.Key()
		c.header(tagValue, uint64(len(k)))
		c.h[0].Write(k)
		c.h[1].Write(k)
	case string:
		c.header(tag, uint64(len(x)))
		c.h[0].WriteString(x)
		c.h[1].WriteString(x)
	case []byte:
		c.header(tag, uint64(len(x)))
		c.h[0].Write(x)
		c.h[1].Write(x)
	default:
		if tag != 0 {
			c.header(tag, bits)
			return
		}
		if !composite(a) {
			panic("shrink: unsupported type") // Shrink checks types first
		}
		c.writeComposite(reflect.ValueOf(a))
	}
}

// writeComposite writes a composite value as its structured encoding,
// which is canonical: equal values (a nil and an empty slice or map alike,
// as in the order) have equal encodings.
func (c *cache) writeComposite(v reflect.Value) {
	b, err := structured.Encode(v)
	if err != nil {
		panic("shrink: " + err.Error()) // Shrink checks types first; decoded values have no cycles
	}
	c.header(tagComposite, uint64(len(b)))
	c.h[0].Write(b)
	c.h[1].Write(b)
}

func (c *cache) header(tag byte, u uint64) {
	var b [9]byte
	b[0] = tag
	binary.LittleEndian.PutUint64(b[1:], u)
	c.h[0].Write(b[:])
	c.h[1].Write(b[:])
}
