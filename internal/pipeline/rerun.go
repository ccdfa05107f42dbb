package pipeline

import (
	"regexp"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// rerun is the go test command that runs entry name of the job's target.
func rerun(j *entryJob, name string) string {
	return "go test " + runFlag(j.target.Name, name) + " " + shellWords(j.pkg.Args)
}

// runFlag is the -run flag that selects the entry name of target, for go
// test and fuzzmin alike: Target/name, as the toolchain prints it, for a
// name that needs nothing more (the toolchain's hex names); otherwise an
// anchored pattern that matches the name alone (testbin.RunPattern),
// quoted for the shell.
func runFlag(target, name string) string {
	if plainName.MatchString(name) {
		return "-run=" + target + "/" + name
	}
	return shellWord("-run=" + testbin.RunPattern(target, name))
}

var plainName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// shellWords joins words for a shell, quoting those that need it.
func shellWords(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellWord(w)
	}
	return strings.Join(quoted, " ")
}

// shellWord quotes a word for a POSIX shell if it holds anything the shell
// would read otherwise.
func shellWord(w string) string {
	if w != "" && !strings.ContainsFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// fuzzminCommand is the fuzzmin command that minimizes the job's entry,
// run from where this command was.
func (c *Run) fuzzminCommand(j *entryJob) string {
	cmd := "fuzzmin "
	if c.Dir != "" {
		cmd += "-C " + shellWord(c.Dir) + " "
	}
	return cmd + runFlag(j.target.Name, j.entry.Name) + " " + shellWords(j.pkg.Args)
}
