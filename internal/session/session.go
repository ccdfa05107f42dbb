// Package session is the protocol between the fuzzmin command and a test
// binary whose fuzz target is wrapped by fuzzshrink: the in-process minimize
// session. Both sides import it; nothing else of either is shared.
//
// The command starts the test binary with [Env] naming a session
// directory, and the entry to minimize as the only seed of a private
// corpus. The directory holds:
//
//   - [ConfigFile], from the command: a [Config] in JSON;
//   - [CurrentFile], from the session: the candidate running, rewritten in
//     place before each run (see [Recorder]);
//   - [BestFile], from the session: the best candidate so far, rewritten in
//     place on each accepted candidate;
//   - [ExplainingFile], from the session: made once the search is done,
//     its result written, and the explanation of it begins;
//   - [ResultFile], from the session at the end: a [Result] in JSON.
//
// A process that dies or hangs leaves no result: the command charges the
// failure to the candidate in CurrentFile and starts a new session from the
// one in BestFile; one that dies or hangs once ExplainingFile exists did so
// explaining a finished search, and the result it wrote stands, with
// nothing learned from the candidate. Candidates are recorded as tuples of native fuzz values
// ([AppendTuple]); a session's events reach the command as framed lines of
// its output ([Event]).
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
	"github.com/fuzzmin/fuzzmin/internal/shrink"
)

// Env names the session directory in the test binary's environment.
const Env = "FUZZMIN_SESSION"

// CommandEnv is set, to the command's process id, in the environment of
// every process of a test binary the command starts (the go test run that
// checks results, and the processes that run candidates): a wrapped target
// then leaves out what it prints for people under plain go test, which
// would only be in the way of the command reading the failure.
const CommandEnv = "FUZZMIN_PID"

// Probe, as the value of Env, asks a wrapped target to say so with an
// ActionWrapped event instead of running a session. The command learns from
// the source which targets are wrapped; it probes those whose source does
// not show it (a target that reaches fuzzshrink.Fuzz through a function of
// another package, or a function value).
const Probe = "probe"

// ReplayEnv, set to "1" in the environment of a test, has fuzzshrink.Check
// replay the failures it persisted and generate nothing: fuzzmin check
// runs each test with a seed corpus directory so, as go test replays them,
// without the random cases go test would also run. Check reports each
// persisted failure as a line of the test's log, ReplayMark, the file and
// the failure's signature, and fails the test if any failed.
const (
	ReplayEnv  = "FUZZSHRINK_REPLAY_ONLY"
	ReplayMark = "fuzzshrink replay: "
)

// The files of a session directory.
const (
	ConfigFile     = "config.json"
	CurrentFile    = "current"
	BestFile       = "best"
	ExplainingFile = "explaining"
	ResultFile     = "result.json"
)

// Config is what the command asks of a session.
type Config struct {
	Target   string    `json:"target"`
	Entry    string    `json:"entry"`             // the seed corpus file to start from
	Verbose  bool      `json:"verbose,omitempty"` // print each pass and accepted candidate as an Event
	MaxRuns  int       `json:"maxRuns,omitempty"` // 0: no limit
	Deadline time.Time `json:"deadline,omitzero"` // zero: none
	Runs     int       `json:"runs,omitempty"`    // runs made by earlier sessions of this entry
	// Explain bounds the runs that explain the result (which draws, or
	// fields, do not matter): 0 turns it off, -1 allows as many as the
	// search took. A session whose failure is Want does not explain: its
	// candidates' deaths would be read as the failure.
	Explain int `json:"explain,omitempty"`
	// Want is the failure to keep when the original crashes the process (a
	// fatal error, an exit or a timeout), which the session cannot observe;
	// otherwise the session learns it by running the original.
	Want *failure.Signature `json:"want,omitempty"`
	// Known are the verdicts the command learned from earlier sessions that
	// died, by the Key of the candidate's tuple: those candidates are not
	// run again.
	Known map[string]shrink.Verdict `json:"known,omitempty"`
	// Templates names a file that holds the message templates of the test
	// binary's packages, as failure.Templates.Sites returns them: the
	// session judges failures by them as the command does.
	Templates string `json:"templates,omitempty"`
}

// Result is what a session reports.
type Result struct {
	Best     []byte            `json:"best"`     // the smallest failing candidate, as a corpus file
	Accepted int               `json:"accepted"` // candidates accepted; 0: nothing smaller was found
	Value    string            `json:"value"`    // Best's values as Go source
	Add      string            `json:"add"`      // a line that adds Best to the fuzz test's seeds
	Want     failure.Signature `json:"want"`
	Runs     int               `json:"runs"`
	Elapsed  time.Duration     `json:"elapsed"` // spent searching
	Stop     string            `json:"stop"`    // why the search stopped
	Others   []Other           `json:"others,omitempty"`
	Error    string            `json:"error,omitempty"`

	// Explained says which parts of the result matter (shrink.Explain), as
	// the report shows it.
	Explained string `json:"explained,omitempty"`
	// Draws is, for a target of generators (fuzzshrink.Fuzz with a
	// func(*fuzzshrink.T)), the values Best's choice sequence draws: one
	// "label = value" line per draw of the property, values in Go syntax;
	// and for a sequence of commands (fuzzshrink.Repeat) the lines
	// "Original: [Push(3), Pop()]", "Shrunk:   [Push(0), Pop()] (N shrink
	// steps)" and "Failure:  postcondition failed at step 2, Pop(): …".
	Draws string `json:"draws,omitempty"`
}

// Other is another failure a session met: its signature and the smallest
// candidate that showed it, as a tuple.
type Other struct {
	Want  failure.Signature `json:"want"`
	Tuple []byte            `json:"tuple"`
	Count int               `json:"count"` // candidates that failed so
}

// Key identifies a candidate by its tuple in Config.Known.
func Key(tuple []byte) string {
	sum := sha256.Sum256(tuple)
	return hex.EncodeToString(sum[:16])
}
