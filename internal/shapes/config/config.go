// Package config parses INI-style configuration files:
//
//	# comment
//	[section]
//	key = value
//
// Keys outside any section belong to the section "". The [server] section's
// port and the connection limits are checked as they are read.
package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Config is a parsed configuration.
type Config struct {
	Sections map[string]map[string]string
	Port     int // [server] port
	MaxConns int // [server] max_conns
	Mode     string
	Shards   int // connections per port shard, in fast mode
}

// Parse parses a configuration file.
func Parse(src string) (*Config, error) {
	c := &Config{
		Sections: map[string]map[string]string{"": {}},
		Port:     8080,
		MaxConns: 4096,
		Mode:     "safe",
	}
	section := ""
	for n, line := range strings.Split(src, "\n") {
		lineno := n + 1
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			if line[len(line)-1] != ']' {
				return nil, fmt.Errorf("line %d: unterminated section header", lineno)
			}
			name := strings.TrimSpace(line[1 : len(line)-1])
			if !isName(name) {
				return nil, fmt.Errorf("line %d: bad section name %q", lineno, name)
			}
			if _, dup := c.Sections[name]; dup && name != "" {
				return nil, fmt.Errorf("line %d: section %q defined twice", lineno, name)
			}
			section = name
			c.Sections[name] = map[string]string{}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: want key = value", lineno)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !isName(key) {
			return nil, fmt.Errorf("line %d: bad key %q", lineno, key)
		}
		if _, dup := c.Sections[section][key]; dup {
			return nil, fmt.Errorf("line %d: key %q set twice", lineno, key)
		}
		c.Sections[section][key] = val
		if err := c.apply(section, key, val); err != nil {
			return nil, fmt.Errorf("line %d: %v", lineno, err)
		}
	}
	return c, nil
}

// apply checks a setting and records the ones the server uses.
func (c *Config) apply(section, key, val string) error {
	switch {
	case section == "server" && key == "port":
		p, err := strconv.Atoi(val)
		if err != nil || p < 0 || p > 65535 {
			return fmt.Errorf("bad port %q", val)
		}
		c.Port = p // 0: pick any free port
	case section == "server" && key == "max_conns":
		m, err := strconv.Atoi(val)
		if err != nil || m < 1 {
			return fmt.Errorf("bad max_conns %q", val)
		}
		c.MaxConns = m
	case key == "mode":
		switch val {
		case "safe":
		case "fast":
			// Fast mode spreads connections over shards, one per port.
			c.Shards = c.MaxConns / c.Port
		default:
			return fmt.Errorf("unknown mode %q", val)
		}
		c.Mode = val
	}
	return nil
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}
