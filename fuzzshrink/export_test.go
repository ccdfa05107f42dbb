package fuzzshrink

// Replay runs prop once on a choice sequence, recording its failures, for
// the tests of package fuzzshrink_test.
func Replay(data []byte, prop func(*T)) {
	t := newT(nil, data, nil)
	runCaptured(t, prop)
}

// Force returns the choice sequence that makes prop draw the values given
// as AddDraws takes them, for the tests of package fuzzshrink_test.
func Force(prop func(*T), labelsAndValues ...any) ([]byte, error) {
	s := seed{values: map[string][]any{}}
	for i := 0; i < len(labelsAndValues); i += 2 {
		label := labelsAndValues[i].(string)
		s.values[label] = append(s.values[label], labelsAndValues[i+1])
		s.order = append(s.order, label)
	}
	return s.choices(prop)
}
