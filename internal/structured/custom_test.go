package structured

import (
	"reflect"
	"strings"
	"testing"
)

// point is a custom type: it keeps its coordinates unexported and encodes
// itself as "x,y".
type point struct{ x, y string }

func (p point) MarshalFuzz() []byte {
	if p == (point{}) {
		return nil
	}
	return []byte(p.x + "," + p.y)
}

func (p *point) UnmarshalFuzz(data []byte) {
	x, y, _ := strings.Cut(string(data), ",")
	*p = point{x, y}
}

type withPoints struct {
	Name string
	At   point
	More []point
	ByID map[int]point
}

func TestCustomCodec(t *testing.T) {
	if !IsCustom(reflect.TypeFor[point]()) || IsCustom(reflect.TypeFor[*point]()) || IsCustom(reflect.TypeFor[withPoints]()) {
		t.Fatal("IsCustom: want point alone")
	}
	if err := CheckType(reflect.TypeFor[withPoints]()); err != nil {
		t.Fatal(err) // point has no exported field, but encodes itself
	}
	v := withPoints{Name: "n", At: point{"1", "2"}, More: []point{{}, {"a", ""}}, ByID: map[int]point{7: {"x", "y"}}}
	b, err := Encode(reflect.ValueOf(v))
	if err != nil {
		t.Fatal(err)
	}
	got := Decode(b, reflect.TypeFor[withPoints]()).Interface()
	if !reflect.DeepEqual(got, v) {
		t.Errorf("Decode(Encode(%#v)) = %#v", v, got)
	}
	if b, _ := Encode(reflect.ValueOf(withPoints{})); len(b) != 0 {
		t.Errorf("the zero value encodes to %q, want nothing", b)
	}
	// Any bytes decode: UnmarshalFuzz is the generator.
	for _, data := range []string{"\x01", "\x05ab", "\x01\x03\xff,\x00", strings.Repeat("\xff", 40)} {
		Decode([]byte(data), reflect.TypeFor[withPoints]())
	}
}
