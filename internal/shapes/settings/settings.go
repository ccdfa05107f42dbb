// Package settings is the content the container shapes (xz, zip, tar)
// carry: lines of key=value settings with integer values, and a planted
// bug, a level used to index a table of eight before it is checked. The
// containers differ; what they hold, and how it fails, is the same.
package settings

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings are key=value lines.
type Settings map[string]int

// The levels of compression a setting may name.
var levels = [8]string{"store", "fastest", "fast", "normal", "normal", "good", "better", "best"}

// Apply reads settings from content: key=value lines with integer values;
// blank lines and lines starting with # are skipped.
func (s Settings) Apply(content string) error {
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return fmt.Errorf("not a setting: %q", line)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s: %v", k, err)
		}
		if k == "level" {
			_ = levels[n] // the bug: a level is not checked against the table
		}
		s[k] = n
	}
	return nil
}
