// Package toml parses a subset of TOML: tables [a.b], and key = value lines
// whose value is a "string", an integer, true or false, or an array of
// values [1, "two", [3]] on one line; # starts a comment. Bare keys only.
package toml

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Parse parses a document into nested maps.
func Parse(src string) (map[string]any, error) {
	root := map[string]any{}
	cur, defined := root, map[string]bool{}
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			name, ok := strings.CutSuffix(line[1:], "]")
			if !ok || defined[name] {
				return nil, fmt.Errorf("line %d: bad or repeated table header", n+1)
			}
			defined[name], cur = true, root
			for _, part := range strings.Split(name, ".") {
				if !isKey(part) {
					return nil, fmt.Errorf("line %d: bad table name %q", n+1, name)
				}
				if cur[part] == nil {
					cur[part] = map[string]any{}
				}
				next, ok := cur[part].(map[string]any)
				if !ok {
					return nil, fmt.Errorf("line %d: %s is not a table", n+1, name)
				}
				cur = next
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok || !isKey(key) || cur[key] != nil {
			return nil, fmt.Errorf("line %d: bad or repeated key", n+1)
		}
		v, rest, err := value(strings.TrimSpace(val))
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		if rest = strings.TrimSpace(rest); rest != "" && rest[0] != '#' {
			return nil, fmt.Errorf("line %d: junk after value: %q", n+1, rest)
		}
		cur[key] = v
	}
	return root, nil
}

// value parses one value at the start of s and returns the rest of s.
func value(s string) (any, string, error) {
	switch {
	case s == "":
		return nil, "", fmt.Errorf("missing value")
	case s[0] == '"':
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return nil, "", fmt.Errorf("unterminated string")
		}
		return s[1 : 1+end], s[2+end:], nil
	case s[0] == '[':
		arr := []any{}
		s = strings.TrimSpace(s[1:])
		for len(s) == 0 || s[0] != ']' {
			v, rest, err := value(s)
			if err != nil {
				return nil, "", err
			}
			arr = append(arr, v)
			s = strings.TrimSpace(rest)
			if after, ok := strings.CutPrefix(s, ","); ok {
				s = strings.TrimSpace(after)
			} else if !strings.HasPrefix(s, "]") {
				return nil, "", fmt.Errorf("want , or ] in array")
			}
		}
		return arr, s[1:], nil
	}
	end := strings.IndexAny(s, " \t,]#")
	if end < 0 {
		end = len(s)
	}
	word := s[:end]
	switch word {
	case "true", "false":
		return word == "true", s[end:], nil
	}
	i, err := strconv.ParseInt(word, 10, 64)
	if err != nil {
		return nil, "", fmt.Errorf("bad value %q", word)
	}
	return i, s[end:], nil
}

func isKey(s string) bool {
	return s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == ""
}

// Server is the [server] table.
type Server struct {
	Host    string
	Timeout time.Duration
}

// LoadServer reads the [server] table of a parsed document.
func LoadServer(doc map[string]any) (*Server, error) {
	t, _ := doc["server"].(map[string]any)
	s := &Server{Host: "localhost", Timeout: 30 * time.Second}
	if h, ok := t["host"].(string); ok {
		s.Host = h
	}
	if v, ok := t["timeout"]; ok {
		switch v := v.(type) {
		case int64:
			s.Timeout = time.Duration(v) * time.Second
		case bool, map[string]any:
			return nil, fmt.Errorf("server.timeout: want seconds or a duration")
		default: // a duration such as "1m30s"
			d, err := time.ParseDuration(v.(string))
			if err != nil {
				return nil, fmt.Errorf("server.timeout: %v", err)
			}
			s.Timeout = d
		}
	}
	return s, nil
}
