package fuzzshrink

// Replay runs prop once on a choice sequence, recording its failures, for
// the tests of package fuzzshrink_test.
func Replay(data []byte, prop func(*T)) {
	t := newT(nil, data, nil)
	runCaptured(t, prop)
}
