package fuzzshrink

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/gosyntax"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Failures of generators are reported as the labelled draws of the
// property, one "label = value" per top-level draw, values in Go syntax.

// formatDraws prints labelled draws, "label = value", joined by sep.
func formatDraws(draws []shrink.Drawn, local, sep string) string {
	lines := make([]string, len(draws))
	for i, d := range draws {
		if seq, ok := d.Value.(*cmdSeq); ok {
			lines[i] = seq.format(local) // statemachine.go
			continue
		}
		lines[i] = labelOf(d) + " = " + formatValue(d.Value, local)
	}
	return strings.Join(lines, sep)
}

// labelOf is the label of a draw, "_" if it has none.
func labelOf(d shrink.Drawn) string {
	if d.Label == "" {
		return "_"
	}
	return d.Label
}

// formatValue prints a drawn value as Go: untyped where Go's default type
// is the value's own (3, "s", true, 0.5), typed otherwise (int8(3)), and
// composite values as composite literals.
func formatValue(v any, local string) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case int:
		return strconv.Itoa(x)
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if !math.IsInf(x, 0) && !math.IsNaN(x) && !(x == 0 && math.Signbit(x)) {
			s := fmt.Sprint(x)
			if !strings.ContainsAny(s, ".eEn") {
				s += ".0" // an untyped constant of a float's default type
			}
			return s
		}
	}
	return gosyntax.Value(v, local)
}
