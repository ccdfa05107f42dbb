package identitybench

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func FuzzRoundTrip(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := Decode(data)
		if err != nil {
			return
		}
		got, err := Decode(Encode(rs))
		if err != nil {
			t.Fatalf("decode(encode(%v)): %v", rs, err)
		}
		if !reflect.DeepEqual(got, rs) {
			t.Fatalf("round trip: got %v, want %v", got, rs)
		}
	})
}

func FuzzUnquote(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := Unquote(s); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzKeys(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range strings.Fields(s) {
			if k, _, ok := strings.Cut(w, "="); ok && strings.ContainsAny(k, "0123456789") {
				t.Fatalf("bad key %s", strings.ToUpper(s))
			}
		}
	})
}

func FuzzCheck(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		Check(s)
	})
}

func FuzzDigits(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, s string) {
		switch {
		case n > 1000:
			t.Fatal("gmp2")
		case n < -5:
			t.Fatal("check3: negative")
		case !utf8.ValidString(s):
			t.Fatal("not valid UTF-8")
		}
	})
}

func FuzzJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		var v struct{ N int }
		if json.Valid(data) {
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzAtoi(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := strconv.Atoi(s); err != nil && strings.HasPrefix(s, "+") {
			t.Fatalf("atoi: %v", err)
		}
	})
}

func FuzzCounts(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		if err := Counts(s); err != nil {
			t.Fatalf("at %v: %v", time.Now().Format(time.StampMicro), err)
		}
	})
}

func FuzzState(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int, s string) {
		if n%7 == 3 && len(s) > 2 {
			panic(fmt.Sprintf("bad state %d after %q", n, s))
		}
	})
}

func FuzzSpin(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) { Spin(s) })
}

func FuzzWait(f *testing.F) {
	f.Fuzz(func(t *testing.T, n int) { Wait(n) })
}
