package shrink

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestShrink_Counts: an integer that counts the units of another argument
// goes down with them, whatever the unit.
func TestShrink_Counts(t *testing.T) {
	t.Parallel()
	letters := strings.Repeat("abcdefghij", 6)
	for _, tt := range []struct {
		name string
		args []any
		fail func(args []any) bool
		want string
	}{
		{"runes", []any{letters, 60}, func(a []any) bool {
			n := a[1].(int)
			return len([]rune(a[0].(string))) == n && n > 3
		}, `[]interface {}{"0000", 4}`},
		{"bytes", []any{[]byte(letters), uint8(60)}, func(a []any) bool {
			n := int(a[1].(uint8))
			return len(a[0].([]byte)) == n && n > 3
		}, `[]interface {}{[]uint8{0x30, 0x30, 0x30, 0x30}, 0x4}`},
		{"lines", []any{strings.Repeat("line\n", 12), int64(12)}, func(a []any) bool {
			n := a[1].(int64)
			return int64(strings.Count(a[0].(string), "\n")) == n && n > 2
		}, `[]interface {}{"\n\n\n", 3}`},
		{"elements", []any{"ab,cd,ef,gh,ij,kl,mn", 6}, func(a []any) bool {
			n := a[1].(int)
			return strings.Count(a[0].(string), ",") == n && n > 1
		}, `[]interface {}{",,", 2}`},
		// A limit into the text: the character at it must be a space.
		// Shortening the text in front of it moves it; the limit must
		// come down with it.
		{"limit", []any{strings.Repeat("lorem ipsum dolor ", 10), 149}, func(a []any) bool {
			s, n := a[0].(string), a[1].(int)
			return n > 0 && n <= len(s) && s[n-1] == ' '
		}, `[]interface {}{" ", 1}`},
	} {
		r, err := Shrink(context.Background(), tt.args, Predicate(tt.fail), MaxRuns(20000))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%#v", r.Args); got != tt.want {
			t.Errorf("%s: shrunk to %s in %d runs, want %s", tt.name, got, r.Stats.Runs, tt.want)
		}
		t.Logf("%s: %d runs", tt.name, r.Stats.Runs)
	}
}

// TestShrink_CountsFromAnyStart: the limit case of TestShrink_Counts,
// from 3 starts grown from its minimum at random (characters inserted
// before and after the limit, the limit moved with them, as long as the
// pair still fails), ends at the minimum.
func TestShrink_CountsFromAnyStart(t *testing.T) {
	t.Parallel()
	fails := func(a []any) bool {
		s, n := a[0].(string), a[1].(int)
		return n > 0 && n <= len(s) && s[n-1] == ' '
	}
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s, n := " ", 1
		for range 200 {
			at := rng.IntN(len(s) + 1)
			c := string(rune('a' + rng.IntN(26)))
			if rng.IntN(4) == 0 {
				c = " "
			}
			s2, n2 := s[:at]+c+s[at:], n
			if at < n {
				n2++
			}
			if fails([]any{s2, n2}) {
				s, n = s2, n2
			}
		}
		r, err := Shrink(context.Background(), []any{s, n}, Predicate(fails), MaxRuns(20000))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%#v", r.Args); got != `[]interface {}{" ", 1}` {
			t.Errorf("seed %d: from (%q, %d), shrunk to %s", seed, s, n, got)
		}
	}
}
