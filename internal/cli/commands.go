package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fuzzmin/fuzzmin/internal/testbin"
)

// A subcommand is one of fuzzmin's commands. The table, commands, is the
// one place each is named: Main runs it, the manual fills its flags in,
// and -help prints its section.
type subcommand struct {
	name    string               // "" for the command itself, which minimizes
	section string               // the heading of its section of the manual; "" for the overview
	flags   func() *flag.FlagSet // its own flags, for the manual; nil if it has none
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands is set in init: the subcommands' run functions print the
// manual, which is made from the table.
var commands []subcommand

func init() {
	commands = []subcommand{
		{name: "", flags: flagsOf(defaultOptions, minimizeFlags), run: runPipeline("", defaultOptions, minimizeFlags, (*command).minimize)},
		{name: "check", section: "# Check", flags: flagsOf(checkDefaults, checkFlags), run: runPipeline("check", checkDefaults, checkFlags, (*command).check)},
		{name: "fuzz", section: "# Fuzzing a module", flags: flagsOf(campaignDefaults, campaignFlags), run: runPipeline("fuzz", campaignDefaults, campaignFlags, (*command).campaign)},
		{name: "known", section: "# Known failures", flags: flagsOf(checkDefaults, knownFlags), run: runPipeline("known", checkDefaults, knownFlags, (*command).addKnown)},
		{name: "export", section: "# Exporting corpora", flags: flagsOf(exportDefaults, exportFlags), run: runPipeline("export", exportDefaults, exportFlags, (*command).export)},
		{name: "cover", section: "# Coverage of the corpora", flags: flagsOf(defaultOptions, coverFlags), run: runPipeline("cover", defaultOptions, coverFlags, (*command).cover)},
		{name: "cmin", section: "# Cmin", flags: flagsOf(defaultOptions, cminFlags), run: runPipeline("cmin", defaultOptions, cminFlags, (*command).cmin)},
		{name: "import", section: "# Importing crashes", flags: importFlags, run: runImport},
		{name: "migrate", section: "# Migrating entries", flags: migrateFlags, run: runMigrate},
		{name: "demo", section: "# Demo", run: runDemo},
		{name: "help", section: "# Help", run: runHelp},
	}
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

// flagsOf returns the flags of a command, with their defaults, for the
// manual.
func flagsOf(defaults func() options, flags func(*options) *flag.FlagSet) func() *flag.FlagSet {
	return func() *flag.FlagSet {
		o := defaults()
		return flags(&o)
	}
}

// runPipeline runs a command that works on the entries of packages
// (minimize, check, cmin): its flags, with their defaults, and main, its
// work on the packages the arguments name.
func runPipeline(name string, defaults func() options, flags func(*options) *flag.FlagSet, main func(c *command, ctx context.Context, patterns []string) int) func(args []string, stdout, stderr io.Writer) int {
	return func(args []string, stdout, stderr io.Writer) int {
		o := defaults()
		fs := flags(&o)
		if code, ok := parseFlags(fs, name, args, stdout, stderr); !ok {
			return code
		}
		if o.version {
			if fs.NArg() > 0 {
				return subUsage(stderr, name, fmt.Errorf("-version takes no arguments, got %s", strings.Join(fs.Args(), " ")))
			}
			fmt.Fprintln(stdout, version())
			return exitOK
		}
		match, err := newMatcher(o.run)
		if err == nil {
			err = o.validate()
		}
		if err == nil {
			err = o.checkDir()
		}
		if err != nil {
			return subUsage(stderr, name, err)
		}
		patterns := fs.Args()
		if len(patterns) == 0 {
			patterns = []string{"."}
		}
		ctx, finish, stop := interruptible()
		defer stop()
		c := &command{opts: o, match: match, rep: newReporter(stdout, stderr, o.json, o.verbose), env: os.Environ(), finishing: finish}
		return c.rep.end(main(c, ctx, patterns))
	}
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
		return exitUsage
	}
	return exitOK
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
			return exitOK, false
		}
		fmt.Fprintln(stderr, usageHint(name))
		return exitUsage, false
	}
	return exitOK, true
}

// subUsage reports a usage error of subcommand name.
func subUsage(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n%s\n", strings.TrimSpace("fuzzmin "+name), err, usageHint(name))
	return exitUsage
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
