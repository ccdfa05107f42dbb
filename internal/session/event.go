package session

import (
	"bytes"
	"encoding/json"
)

// An Event is one step of a session's search, which the session prints as
// a line of its output when Config.Verbose asks (and an error always):
// eventPrefix, then the event in JSON. The prefix starts with the byte the
// testing package frames its own lines with (^V), so a test's output cannot
// be mistaken for an event.
type Event struct {
	Action string `json:"action"`          // one of the Action constants
	Pass   string `json:"pass,omitempty"`  // the pass, for Pass and Accept
	Round  int    `json:"round,omitempty"` // from 1
	Runs   int    `json:"runs,omitempty"`  // runs so far
	Value  string `json:"value,omitempty"` // the accepted candidate as Go, for Accept
	Error  string `json:"error,omitempty"` // for Error
}

// The actions of events.
const (
	ActionPass   = "pass"   // a pass starts
	ActionAccept = "accept" // a candidate was accepted
	ActionError  = "error"  // the session cannot go on, or cannot report its result
	// ActionWrapped answers a Probe: the target is wrapped by fuzzshrink.
	ActionWrapped = "wrapped"
)

const eventPrefix = "\x16fuzzmin event "

// AppendEvent appends the line of ev, with its newline, to b.
func AppendEvent(b []byte, ev Event) []byte {
	j, err := json.Marshal(ev)
	if err != nil {
		panic(err) // strings and ints only
	}
	b = append(b, eventPrefix...)
	b = append(b, j...)
	return append(b, '\n')
}

// ParseEvent reads an event from a line of output without its newline. It
// reports false for any other line.
func ParseEvent(line []byte) (Event, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(eventPrefix))
	if !ok {
		return Event{}, false
	}
	var ev Event
	if json.Unmarshal(rest, &ev) != nil {
		return Event{}, false
	}
	return ev, true
}
