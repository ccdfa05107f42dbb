// Package kv runs scripts of a key-value store, a command a line:
//
//	set KEY VALUE   store VALUE under KEY
//	get KEY         read it (KEY must be set)
//	del KEY         remove it (KEY must be set)
//	incr KEY        add one to it (its value must be an integer)
//	append KEY TEXT add TEXT to its end
//	# ...           a comment; blank lines are skipped
//
// Keys are letters, digits, '.', '_' and '-'. A deleted key is kept as a
// tombstone, so that a later set of it reuses its slot.
package kv

import (
	"fmt"
	"strconv"
	"strings"
)

// Run runs a script and returns what its get commands read.
func Run(script string) ([]string, error) {
	m := map[string]*string{}
	var out []string
	for n, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 2 || !validKey(f[1]) {
			return nil, fmt.Errorf("line %d: want a command and a key", n+1)
		}
		k := f[1]
		v, set := m[k]
		switch f[0] {
		case "set", "append":
			if len(f) != 3 {
				return nil, fmt.Errorf("line %d: %s takes a key and a value", n+1, f[0])
			}
			if f[0] == "append" && set && v != nil {
				s := *v + f[2]
				m[k] = &s
			} else {
				s := f[2]
				m[k] = &s
			}
			continue
		case "get", "del", "incr":
			if len(f) != 2 {
				return nil, fmt.Errorf("line %d: %s takes a key", n+1, f[0])
			}
		default:
			return nil, fmt.Errorf("line %d: unknown command %q", n+1, f[0])
		}
		if !set {
			return nil, fmt.Errorf("line %d: %s is not set", n+1, k)
		}
		switch f[0] {
		case "get":
			out = append(out, *v) // the bug: a tombstone is set, and nil
		case "del":
			if v == nil {
				return nil, fmt.Errorf("line %d: %s is deleted", n+1, k)
			}
			m[k] = nil
		case "incr":
			if v == nil {
				return nil, fmt.Errorf("line %d: %s is deleted", n+1, k)
			}
			i, err := strconv.Atoi(*v)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s is not a number", n+1, k)
			}
			s := strconv.Itoa(i + 1)
			m[k] = &s
		}
	}
	return out, nil
}

func validKey(k string) bool {
	for _, c := range k {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
