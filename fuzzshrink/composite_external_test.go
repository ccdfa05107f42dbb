package fuzzshrink_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/fuzzmin/fuzzmin/fuzzshrink"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

type Item struct {
	Name  string
	Count int
	Tags  []string
}

type Person struct {
	Name string
	Age  uint8
}

type Celsius float64

type Config struct {
	Name    string
	Verbose bool
	Items   []Item
	Limits  map[string]int
	Owner   *Person
	Temp    Celsius
	Grid    [3]int16
	private int //lint:ignore U1000 unexported fields are left alone
}

func bigConfig() Config {
	c := Config{
		Name: "production", Verbose: true,
		Limits: map[string]int{"cpu": 4, "memory": 2048, "disk": 100},
		Owner:  &Person{Name: "Ada", Age: 36},
		Temp:   21.5,
		Grid:   [3]int16{7, -8, 9},
	}
	for i := range 10 {
		c.Items = append(c.Items, Item{Name: strings.Repeat("x", i+3), Count: i, Tags: []string{"a", "bb"}})
	}
	c.Items[6].Count = 98765
	return c
}

// TestMinimize_Structs pins the minima of structured values: what does not
// matter reaches its zero value, and what matters its smallest failing one.
func TestMinimize_Structs(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		fails func(Config) bool
		want  Config
	}{
		{"an item's field", func(c Config) bool {
			for _, it := range c.Items {
				if it.Count > 50 {
					return true
				}
			}
			return false
		}, Config{Items: []Item{{Count: 51}}}},
		{"a map value", func(c Config) bool {
			for _, v := range c.Limits {
				if v > 1000 {
					return true
				}
			}
			return false
		}, Config{Limits: map[string]int{"": 1001}}},
		{"a pointer field", func(c Config) bool { return c.Owner != nil && c.Owner.Age > 30 }, Config{Owner: &Person{Age: 31}}},
		{"a named float", func(c Config) bool { return c.Temp > 20.25 }, Config{Temp: 21}},
		{"an array element", func(c Config) bool { return c.Grid[1] < -5 }, Config{Grid: [3]int16{0, -6, 0}}},
		{"two fields", func(c Config) bool { return c.Verbose && len(c.Items) >= 2 }, Config{Verbose: true, Items: []Item{{}, {}}}},
		{"always", func(Config) bool { return true }, Config{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := fuzzshrink.Minimize(bigConfig(), tt.fails)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Minimize = %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestShrink_StructWithNativeArgs shrinks a composite argument jointly with
// native ones.
func TestShrink_StructWithNativeArgs(t *testing.T) {
	t.Parallel()
	fails := shrink.Predicate(func(args []any) bool {
		c, n := args[0].(Config), args[1].(int)
		return len(c.Items) > 0 && c.Items[0].Name != "" && n > 1000
	})
	r, err := shrink.Shrink(context.Background(), []any{bigConfig(), 98765432, "noise"}, fails)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{Config{Items: []Item{{Name: "0"}}}, 1001, ""}
	if !reflect.DeepEqual(r.Args, want) {
		t.Errorf("Shrink = %+v, want %+v", r.Args, want)
	}
}

// TestMinimize_Canonical: the minimum does not depend on the order the
// failure had its parts in, and integers that fail only together go down
// together.
func TestMinimize_Canonical(t *testing.T) {
	t.Parallel()
	oneBig := func(s []int) bool { return len(s) == 2 && max(s[0], s[1]) >= 10 }
	for _, in := range [][]int{{3, 50}, {50, 3}} {
		if got := fuzzshrink.Minimize(in, oneBig); !reflect.DeepEqual(got, []int{0, 10}) {
			t.Errorf("Minimize(%v) = %v, want [0 10]", in, got)
		}
	}
	byValue := func(m map[string]uint8) bool {
		n := 0
		for _, v := range m {
			if v >= 7 {
				n++
			}
		}
		return len(m) == 2 && n == 1
	}
	for _, in := range []map[string]uint8{{"a": 3, "b": 90}, {"a": 90, "b": 3}} {
		if got := fuzzshrink.Minimize(in, byValue); !reflect.DeepEqual(got, map[string]uint8{"": 0, "0": 7}) {
			t.Errorf("Minimize(%v) = %v, want map[:0 0:7]", in, got)
		}
	}
	type span struct{ Lo, Hi int }
	width := func(s span) bool { return s.Hi-s.Lo == 7 }
	if got := fuzzshrink.Minimize(span{Lo: 1000, Hi: 1007}, width); got != (span{0, 7}) {
		t.Errorf("Minimize(span) = %+v, want {0 7}", got)
	}
}

// TestMinimize_MapKeysDoNotCollide shrinks map keys without merging entries.
func TestMinimize_MapKeysDoNotCollide(t *testing.T) {
	t.Parallel()
	m := map[int]string{500: "a", 700: "b", 900: "c"}
	got := fuzzshrink.Minimize(m, func(m map[int]string) bool { return len(m) >= 3 })
	// 2, not -1: the ints pass lowers magnitudes and keeps signs, and 0 and
	// 1 are taken.
	want := map[int]string{0: "", 1: "", 2: ""}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Minimize = %v, want %v", got, want)
	}
}

// TestMinimize_Recursive shrinks a recursive type through pointers.
func TestMinimize_Recursive(t *testing.T) {
	t.Parallel()
	type Node struct {
		Val  int
		Kids []*Node
	}
	deep := &Node{Val: 1, Kids: []*Node{{Val: 2}, {Val: 3, Kids: []*Node{{Val: 99}, {Val: 4}}}}}
	var depth func(n *Node) int
	depth = func(n *Node) int {
		if n == nil {
			return 0
		}
		d := 0
		for _, k := range n.Kids {
			d = max(d, depth(k))
		}
		return d + 1
	}
	got := fuzzshrink.Minimize(deep, func(n *Node) bool { return depth(n) >= 3 })
	want := &Node{Kids: []*Node{{Kids: []*Node{{}}}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Minimize = %+v, want %+v", got, want)
	}
}

// Email is a custom type: its fields are unexported, and it generates and
// shrinks itself through its encoding, user@domain.
type Email struct{ user, domain string }

func (e Email) MarshalFuzz() []byte {
	if e == (Email{}) {
		return nil
	}
	return []byte(e.user + "@" + e.domain)
}

func (e *Email) UnmarshalFuzz(data []byte) {
	user, domain, _ := strings.Cut(string(data), "@")
	*e = Email{user, domain}
}

type Contact struct {
	Name  string
	Email Email
	Spare []Email
}

var _ fuzzshrink.Custom = (*Email)(nil)

// TestMinimize_Custom shrinks custom values through their encoding, at the
// top and inside a struct.
func TestMinimize_Custom(t *testing.T) {
	t.Parallel()
	bad := func(e Email) bool { return strings.Contains(e.domain, "bad") }
	got := fuzzshrink.Minimize(Email{"someone.long", "verybad.example.com"}, bad)
	if want := (Email{"", "bad"}); got != want {
		t.Errorf("Minimize(Email) = %#v, want %#v", got, want)
	}
	c := Contact{Name: "Ada", Email: Email{"ada", "badhost.org"}, Spare: []Email{{"x", "y"}, {"z", "w"}}}
	gotC := fuzzshrink.Minimize(c, func(c Contact) bool { return bad(c.Email) })
	if want := (Contact{Email: Email{"", "bad"}}); !reflect.DeepEqual(gotC, want) {
		t.Errorf("Minimize(Contact) = %#v, want %#v", gotC, want)
	}
}
