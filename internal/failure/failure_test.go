package failure

import "testing"

func TestPanicText(t *testing.T) {
	for _, tt := range []struct{ msg, want string }{
		{"runtime error: index out of range [5] with length 3", "runtime error: index out of range [N] with length N"},
		{"runtime error: invalid memory address or nil pointer dereference", "runtime error: invalid memory address or nil pointer dereference"},
		{"assignment to entry in nil map", "assignment to entry in nil map"},
		{"unexpected call to os.Exit(0) during test", "unexpected call to os.Exit(N) during test"},
		{"(main.T) 0xc000012345", "(main.T)"},
		{"bad input \"x\" at 42", ""},
		{"", ""},
	} {
		if got := PanicText(tt.msg); got != tt.want {
			t.Errorf("PanicText(%q) = %q, want %q", tt.msg, got, tt.want)
		}
	}
}

func TestUserFrame(t *testing.T) {
	for _, tt := range []struct {
		fn, file string
		want     bool
	}{
		{"example.com/p.FuzzX.func1", "/home/u/p/x_test.go", true},
		{"runtime.gopanic", "/usr/local/go/src/runtime/panic.go", false},
		{"testing.tRunner", "/usr/local/go/src/testing/testing.go", false},
		{"main.main", "/tmp/go-build1/b001/_testmain.go", false},
		{"github.com/fuzzmin/fuzzmin/fuzzshrink.Fuzz.func1", "/home/u/fuzzmin/fuzzshrink/adapter.go", false},
		{"example.com/p.check", "/usr/local/gopath/p/check.go", true},
	} {
		if got := UserFrame("/usr/local/go", tt.fn, tt.file); got != tt.want {
			t.Errorf("UserFrame(%s, %s) = %v, want %v", tt.fn, tt.file, got, tt.want)
		}
	}
}

func TestSignatureString(t *testing.T) {
	for _, tt := range []struct {
		s    Signature
		want string
	}{
		{Signature{}, "ok"},
		{Signature{Kind: Panic, Pos: "/a/b/x.go:3"}, "panic at x.go:3"},
		{Signature{Kind: Exit, Text: "exit status 3"}, "exit: exit status 3"},
		{Signature{Kind: Fatal, Text: "concurrent map writes", Pos: "m.go:9"}, "fatal error: concurrent map writes at m.go:9"},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.s, got, tt.want)
		}
	}
	if !(Signature{Kind: Timeout}).Crash() || (Signature{Kind: Panic}).Crash() {
		t.Errorf("Crash: want timeout, not panic")
	}
}
