package pipeline

import (
	"slices"
	"strings"
	"time"

	"github.com/fuzzmin/fuzzmin/internal/failure"
)

// status is the outcome of one entry.
type status string

const (
	statusMinimized  status = "minimized" // replaced by a smaller, verified entry
	statusWould      status = "would-minimize"
	StatusMinimal    status = "minimal"    // nothing smaller fails the same way
	StatusStopped    status = "stopped"    // a budget ran out before anything smaller was found
	statusDuplicate  status = "duplicate"  // minimized to an input the corpus already holds
	StatusSame       status = "same"       // fails as an entry the run kept does: removed
	StatusCounted    status = "counted"    // fails as a failure the caller counted already (TargetJob.Counted): not minimized
	statusFound      status = "found"      // another failure met on the way, written as an entry of its own
	statusSeen       status = "seen"       // another failure met on the way is one an entry has: nothing to do
	StatusPasses     status = "passes"     // the entry does not fail
	StatusRegression status = "regression" // a committed entry fails: left alone
	statusMalformed  status = "malformed"  // not a corpus file the toolchain reads
	statusStale      status = "stale"      // its values no longer fit the target
	statusFlaky      status = "flaky"      // it does not fail the same way every time
	statusFailed     status = "failed"     // minimizing or verifying went wrong
)

// Failure reports whether the status makes the command fail: go test would
// fail on such an entry too, or fuzzmin could not do its job.
func (s status) Failure() bool {
	switch s {
	case statusMalformed, statusStale, statusFlaky, statusFailed, StatusStopped, StatusRegression:
		return true
	}
	return false
}

// Result is what became of one entry. It is also the "result" event of
// -json, whose field names it sets.
type Result struct {
	Package   string
	Test      string // Target/entry
	Status    status
	Signature failure.Signature `json:"-"`          // how the entry fails; -json spells it as a string
	Before    int               `json:",omitempty"` // file size in bytes
	After     int               `json:",omitempty"`
	Runs      int               `json:",omitempty"`
	Elapsed   float64           `json:",omitempty"` // seconds
	Stop      string            `json:",omitempty"` // why the search stopped
	Value     string            `json:",omitempty"` // the result as a line of Go: f.Add(...)
	Draws     string            `json:",omitempty"` // for a target of generators, what the result draws: label = value lines
	Path      string            `json:",omitempty"` // the file written
	Removed   string            `json:",omitempty"`
	Others    []met             `json:",omitempty"` // distinct failures met on the way
	Note      string            `json:",omitempty"` // something the user should know of a result
	Error     string            `json:",omitempty"` // why the entry could not be minimized
	Rerun     string            `json:",omitempty"` // how to run the entry with go test
	// Explanation says which parts of Value matter.
	Explanation *explanation `json:",omitempty"`

	Found        bool `json:"-"` // another failure met while shrinking, not an entry of the corpus
	maybeTracked bool // a regression because nobody can tell whether it is committed
	quiet        bool // one of many alike: counted, not shown (see screen.go)
	// saved says, of a result an interrupt came during, what is on disk.
	saved string
}

func newResult(j *entryJob) Result {
	return Result{Package: j.pkg.ImportPath, Test: j.target.Name + "/" + j.entry.Name, Before: len(j.entry.Data),
		Found: j.isFound()}
}

// Seconds converts a duration to the seconds of -json's Elapsed, as go test
// -json reports them.
func Seconds(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }

// A met failure is another failure than the entry's that candidates showed
// on the way, and how many did.
type met struct {
	Signature string
	Count     int // candidates
}

// metFailures lists the failures of counts, the most often met first (ties
// by text), so that a report is the same whatever the order they came in.
func metFailures(counts map[string]int) []met {
	var ms []met
	for sig, n := range counts {
		ms = append(ms, met{sig, n})
	}
	slices.SortFunc(ms, func(a, b met) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Signature, b.Signature)
	})
	return ms
}
