package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/pipeline"
	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// A subcommand is one of fuzzmin's commands. The table, commands, is the
// one place each is named: Main runs it, the manual fills its flags in,
// and -help prints its section.
type subcommand struct {
	name    string     // "" for the command itself, which minimizes
	section string     // the heading of its section of the manual; "" for the overview
	cmd     func() cmd // a new one, its options at their defaults; nil for demo and help
	run     func(args []string, stdout, stderr io.Writer) int
}

// A cmd is a command that works on packages: its options, bound to its
// flags, and its work, run over the run context its common options make.
type cmd interface {
	flags(fs *flag.FlagSet) // adds its flags, bound to its options
	validate(args []string) error
	Options() *pipeline.Common
	run(ctx context.Context, c *pipeline.Run, args []string) int
}

// commands is set in init: the subcommands' run functions print the
// manual, which is made from the table.
var commands []subcommand

func init() {
	commands = []subcommand{
		{name: "", cmd: newMinimizeCmd},
		{name: "check", section: "# Check", cmd: newCheckCmd},
		{name: "fuzz", section: "# Fuzzing a module", cmd: newFuzzCmd},
		{name: "known", section: "# Known failures", cmd: newKnownCmd},
		{name: "export", section: "# Exporting corpora", cmd: newExportCmd},
		{name: "cover", section: "# Coverage of the corpora", cmd: newCoverCmd},
		{name: "cmin", section: "# Cmin", cmd: newCminCmd},
		{name: "import", section: "# Importing crashes", cmd: newImportCmd},
		{name: "migrate", section: "# Migrating entries", cmd: newMigrateCmd},
		{name: "demo", section: "# Demo", run: runDemo},
		{name: "help", section: "# Help", run: runHelp},
	}
	for i := range commands {
		if sc := &commands[i]; sc.cmd != nil {
			sc.run = func(args []string, stdout, stderr io.Writer) int {
				return runCmd(sc.name, sc.cmd(), args, stdout, stderr)
			}
		}
	}
}

// flagSet returns the flag set of the command x named name, bound to its
// options.
func flagSet(name string, x cmd) *flag.FlagSet {
	fs := flag.NewFlagSet(strings.TrimSpace("fuzzmin "+name), flag.ContinueOnError)
	x.flags(fs)
	return fs
}

// flagsOf returns the flags of sc, with their defaults, for the manual;
// nil if it has none.
func (sc *subcommand) flagsOf() *flag.FlagSet {
	if sc.cmd == nil {
		return nil
	}
	return flagSet(sc.name, sc.cmd())
}

// lookup returns the subcommand of that name, or nil.
func lookup(name string) *subcommand {
	for i := range commands {
		if commands[i].name == name && name != "" {
			return &commands[i]
		}
	}
	return nil
}

// Main runs the fuzzmin command with args (without the program name) and
// returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == testbin.ExecArg {
			return testbin.RunExecWrapper(args[1:], stdout, stderr)
		}
		if sc := lookup(args[0]); sc != nil {
			return sc.run(args[1:], stdout, stderr)
		}
	}
	return commands[0].run(args, stdout, stderr)
}

// runCmd runs the command x named name with args: its flags, checked
// before any work, then its work on the packages the arguments name, over
// a new run context.
func runCmd(name string, x cmd, args []string, stdout, stderr io.Writer) int {
	fs := flagSet(name, x)
	if code, ok := parseFlags(fs, name, args, stdout, stderr); !ok {
		return code
	}
	o := x.Options()
	err := x.validate(fs.Args())
	if err == nil {
		err = o.RunOptions.Validate()
	}
	if err == nil {
		err = o.CheckDir()
	}
	if err != nil {
		return subUsage(stderr, name, err)
	}
	if m, ok := x.(*minimizeCmd); ok && m.version {
		fmt.Fprintln(stdout, version())
		return pipeline.ExitOK
	}
	ctx, finish, stop := pipeline.Interruptible()
	defer stop()
	c := pipeline.NewRun(*o, stdout, stderr, finish)
	return c.Rep.End(x.run(ctx, c, fs.Args()))
}

// orDot returns patterns, or "." if there are none, as go test has it.
func orDot(patterns []string) []string {
	if len(patterns) == 0 {
		return []string{"."}
	}
	return patterns
}

// runHelp prints the manual, or the section of one subcommand.
func runHelp(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, Manual())
	case len(args) == 1 && lookup(args[0]) != nil:
		fmt.Fprint(stdout, manualSection(args[0]))
	default:
		fmt.Fprintf(stderr, "fuzzmin help: want nothing, or one of %s\n", strings.Join(commandNames(), ", "))
		return pipeline.ExitUsage
	}
	return pipeline.ExitOK
}

// commandNames returns the names of the subcommands.
func commandNames() []string {
	var names []string
	for _, sc := range commands[1:] {
		names = append(names, sc.name)
	}
	return names
}

// parseFlags parses the arguments of subcommand name ("" for the command
// itself). It returns false, with the exit code, if the command ends there:
// -help prints the subcommand's section of the manual (the command's
// overview), a bad flag is a usage error.
func parseFlags(fs *flag.FlagSet, name string, args []string, stdout, stderr io.Writer) (int, bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {} // a bad flag gets one line and the hint, not the manual
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, manualSection(name))
			return pipeline.ExitOK, false
		}
		fmt.Fprintln(stderr, usageHint(name))
		return pipeline.ExitUsage, false
	}
	return pipeline.ExitOK, true
}

// subUsage reports a usage error of subcommand name.
func subUsage(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n%s\n", strings.TrimSpace("fuzzmin "+name), err, usageHint(name))
	return pipeline.ExitUsage
}

func usageHint(name string) string {
	return fmt.Sprintf("Run '%s -help' for usage.", strings.TrimSpace("fuzzmin "+name))
}

// notACommand returns the error for a word given where a command or a
// package goes that is neither: a bare word the go command found no
// package for ("chek", "bogus"), with the nearest command. It returns ""
// for what reads as a package path (it has a slash or a dot).
func notACommand(word string) string {
	if word == "" || strings.ContainsAny(word, "./\\") || strings.HasPrefix(word, "-") {
		return ""
	}
	nearest, dist := "", 0
	for _, name := range commandNames() {
		if d := editDistance(word, name); nearest == "" || d < dist {
			nearest, dist = name, d
		}
	}
	if dist <= 2 && len(word) > 2 {
		return fmt.Sprintf("%q is neither a fuzzmin command nor a package; did you mean fuzzmin %s?", word, nearest)
	}
	return fmt.Sprintf("%q is neither a fuzzmin command nor a package (the nearest command is fuzzmin %s; fuzzmin help lists them all)", word, nearest)
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
