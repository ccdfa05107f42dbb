/*
Fuzzmin replaces each failing entry of the seed corpora of Go fuzz targets
(testdata/fuzz/<Target>/<entry>) by the smallest input that fails the same
way, and writes it back as a seed corpus file that go test replays.

Usage:

	fuzzmin [flags] [packages]
	fuzzmin check [flags] [packages]
	fuzzmin fuzz [flags] [packages]
	fuzzmin known -run Target/entry [flags] [packages]
	fuzzmin export -o dir [flags] [packages]
	fuzzmin cover -o file [flags] [packages]
	fuzzmin cmin [flags] [packages]
	fuzzmin import -run Target [-pkg package] [-format format] [flags] file...
	fuzzmin migrate -run Target -arg source... [-from types] [flags] [package]
	fuzzmin demo
	fuzzmin help [command]

Packages are named as for go test: the default is ".", and "./...", import
paths and .go files work. fuzzmin writes only into packages of the main
module. For each package it finds the fuzz targets in its test files and
the entries of their seed corpora, builds the package's test binary once,
and replays the selected entries in as few processes as go test does, those
that fail twice. Entries that pass are left alone (past three, a target's
are counted, not listed). Of the entries that fail the same way, the
smallest is minimized first; the rest are the same bug, and are removed
for its result without a search of their own (past three, counted). Each
entry minimized is replayed, each run in a fresh process, until two runs
agree (a hang included); runs that disagree go on to eight, to tell how
often it fails. Malformed entries, stale
ones (their values no longer fit the target) and flaky ones (their replays
disagree: the report says in how many of the runs they fail) are reported
and never touched. An entry git tracks is a regression test somebody chose to
keep: if it fails, it is reported as a regression and left alone, unless
-tracked is given.

Each failing entry then shrinks, all its arguments jointly: strings and byte
slices lose blocks, then characters and bytes get simpler; integers go
toward zero by binary search, floats toward small integers, bools toward
false. A candidate counts only if it fails the same way as the original:
the same kind of failure (panic, t.Fatal or t.Error, runtime fatal error,
process exit, timeout, out of memory, data race under -race), at the same
place in your code, made by the same format. Two failures are the same bug
when they are of one kind, at one place, made by the same format.

The formats come from the source: before the first replay fuzzmin reads
the packages the test binary links (your tests, your code, the modules
they import, the standard library) and takes the constant text of every
call that makes a message: t.Error, t.Fatal and their kin, fmt.Errorf and
Sprintf, errors.New, panic, log and slog calls, a + of literals and
values, an Error method's result. Each verb of a format is a value slot
that matches any text; the literal text between slots matches only
itself, digits included (gmp2, HTTP/1.1 stay). An error in a slot (%w,
an operand named err, t.Fatal(err)) is matched again, so one message may
be a chain of templates; where several match, the one with the most
literal text wins. So t.Fatalf("round trip: got %v, want %v", got, want)
is one failure whatever got and want hold, and t.Fatal(err) reached by
"unexpected EOF" and by "invalid escape \%c in %q" is two. A process that
exits (os.Exit, log.Fatalf) has its last line as its message, and what
differs between two runs of the original is a value. Reports show the
templates: fail: round trip: got %v, want %v at x_test.go:21; -v says,
for each entry, which template judged it. The templates are cached per
package in the user's cache directory.

Text no template explains (a message built at run time, t.Fatal(x) of a
value) is masked instead: an input of several lines printed whole,
strings in quotes, what brackets hold with the type before it ([1 2],
map[a:1], main.T{A:1}, &{…}), words with a digit, true, false and nil,
the running test's name, lines that start with -, +, @ or a space (diff
bodies), and words of the failing input; reports show those values as ….

Candidates run through the test binary from a private copy of the corpus,
so your testdata never sees one. A
target wrapped by fuzzshrink.Fuzz shrinks inside the test binary instead,
as Go values. A candidate that fails another way is not accepted, but kept:
once the target's entries are done, each other failure is minimized against
its own signature and written as an entry of its own (see -others).

If the search found something strictly smaller, the result is written
under the name go test would give it (the first 16 hex digits of the
SHA-256 of the file), "go test -run=Target/entry" checks that it fails the
same way, and only then is the original removed: at every moment the
directory holds the original or a verified replacement. When -timeout or
-max-runs ends a search, and at an interrupt (Ctrl-C; SIGTERM, as a CI
job's timeout sends; SIGHUP, as a closed terminal sends; SIGQUIT), the
smallest value found so far is checked and
written the same way; the entries after it are left as they are. A second
interrupt abandons the check and leaves the entry as it was.

With -fuzz, fuzzmin first runs go test -fuzz on one target (without the
toolchain's own minimization) and then minimizes the failing entries the
fuzzer wrote: one step from fuzzing to an entry to commit.

The vet tool is a command of its own, fuzzmin-vet (go install
github.com/fuzzmin/fuzzmin/cmd/fuzzmin-vet; go vet
-vettool=$(command -v fuzzmin-vet) ./...): it runs go vet's own checks (a
-vettool replaces them, so it carries them) and also checks the fuzz
targets that use fuzzshrink: a
fuzzshrink.Add whose values do not match the fuzz function, a type
fuzzshrink.Fuzz cannot decode, fuzzshrink.Add after fuzzshrink.Fuzz or in a
target of generators, and a Draw given another property's *fuzzshrink.T.

"fuzzmin check" is for CI; "fuzzmin cmin" distills generated corpora;
"fuzzmin import" turns crashes found elsewhere into minimized entries, and
"fuzzmin migrate" rewrites a target's entries after its arguments changed.
Each has a section below. "fuzzmin demo" minimizes a crasher of an
embedded example package in a temporary directory and shows the corpus
before and after. "fuzzmin help" prints this manual.

# Flags

	-explain n
		Explain each result with at most n runs: which arguments, and
		which characters of strings and byte slices, matter. -1 allows
		as many runs as the search took; 0 turns it off. The default is
		-1.
	-fuzz regexp
		First fuzz the target matching regexp with go test -fuzz (one
		package), then minimize the failing entries it wrote.
	-fuzztime duration
		With -fuzz, how long to fuzz: a duration or a number of runs
		(100x), as for go test -fuzztime. The default is 1m.
	-keep
		Keep the original entry beside the minimized one.
	-n
		Minimize, but write nothing: show what would change.
	-p n
		Run up to n test processes at once, as go test -p: the
		candidates of a batch are dealt out to them once inputs are seen
		to take 0.5 ms or more to run (below that, one process is
		faster). The result does not depend on n. The default is
		GOMAXPROCS.
	-run regexp
		Minimize only the targets and entries matching regexp, as go
		test -run selects tests and subtests: FuzzParse, or
		FuzzParse/9e16f0a1 for one entry.
	-tracked
		Minimize the entries that git tracks too. By default a committed
		entry is a regression test somebody chose to keep: it is
		replayed, and if it fails it is reported as a regression and
		left alone.
	-version
		Print fuzzmin's version and exit.
	-worker
		Run the candidates of an entry inside a test process that stays
		up, in the test binary's fuzz worker mode (as go test -fuzz runs
		inputs), when the original fails there exactly as in a process
		of its own: many per call in a worker fuzzmin adds to the binary
		it builds (go test -overlay; nothing is written into the
		module), or one per call in the toolchain's. -worker=false runs
		every batch of candidates in a fresh process, and builds the
		binary without fuzzmin's worker. The default is true.

It takes the shared flags -C, -exec-timeout, -flaky, -json, -max-runs,
-memory-limit, -others, -race, -shard, -tags, -timeout and -v too (see
Shared flags).

GOFLAGS and the rest of the environment reach the go command as they would
for go test.

fuzzmin keeps a cache, as the go command keeps GOCACHE: the packages' test
binaries, which go test links again only when something they are built from
changed, and the message templates read from the packages' source. It is
$FUZZMINCACHE, or fuzzmin in the user's cache directory ($XDG_CACHE_HOME or
~/.cache on Linux, ~/Library/Caches on macOS); FUZZMINCACHE=off turns it
off. What no run has used for five days is removed.

# Shared flags

These flags mean the same for every command that takes them:

Of fuzzmin, check, fuzz, known, export, cover, cmin, import and migrate:

	-C dir
		Change to dir before doing anything.
	-tags list
		Build tags, a comma-separated list as for go test.

Of fuzzmin, check, fuzz, known, cover, cmin and import:

	-exec-timeout duration
		The most one input may run before it counts as hanging. Once
		inputs have passed, an input hangs after 20 times the slowest of
		them (at least 1s), but for the candidates of an entry that runs
		out of memory, which take what their allocations take, and for
		an input past half of -memory-limit when its time is up, which
		is on its way out of memory; a search for a smaller input that
		hangs judges candidates by 4 times (at least 50ms), and confirms
		its result with the longer limit. Other searches give the
		candidates that pass after 20 times the typical one (at least
		20ms) a quarter of their time: past it, such a candidate is cut
		short and counts as passing. The default is 10s.
	-memory-limit bytes
		The most resident memory a test process may reach, in bytes (a
		number, or with a suffix KiB, MiB or GiB; 0: no limit). A
		process that grows past it is killed and the input it ran fails
		as out of memory, a failure of its own kind, as does one the
		runtime reports out of memory; the kind alone is its identity.
		Linux only. The default is 2GiB.

Of fuzzmin, fuzz and import:

	-flaky
		Minimize an entry even if its failure is not the same on every
		replay, against the first failure seen; the report says how
		often it fails, gives no explanation and notes that the result
		may not fail every time.
	-max-runs n
		Stop the search of an entry after n candidates; 0 means no
		limit. The default is 100000.
	-others write
		What to do with the other failures met while shrinking, each
		kept with the smallest input that showed it: write minimizes
		each against its own failure and writes it as an entry of its
		own; report only reports them. The default is write.
	-timeout duration
		Time budget per entry. The best input found by then is verified
		and written. The other failures the entries of a target meet
		share what the entries left of their time; an explanation takes
		at most a quarter of a search's budget; go test's check of a
		result, and the end of each go test run, are bounded too, so
		that a run on n entries ends after about n times this. The
		default is 2m.
	-v
		Show the search: the build, each pass and each accepted
		candidate.

Of fuzzmin, check, fuzz, known, export, cover, cmin and import:

	-json
		Print one JSON object per event, as go test -json does (see
		Output).

Of fuzzmin, check, fuzz, known and cmin:

	-race
		Build the test binary with the race detector, as go test -race.
		A data race is a failure of its own kind, known by where its
		first two accesses are in your code; each candidate that races
		runs in a process of its own (the detector reports a race once a
		process), and a target wrapped by fuzzshrink shrinks its encoded
		arguments from outside.

Of fuzzmin, check and cmin:

	-shard i/n
		Do only shard i/n of the work: the entries are split into n
		shards by a hash of package, target and entry, so that n jobs of
		a CI matrix, given 1/n to n/n, do each entry exactly once. The
		default is 1/1.

# Output

One paragraph per entry: target/entry, what happened, the size of the
corpus file before and after, the candidates run, the time, and the
failure; then the minimized value as a line to paste into the fuzz test
(f.Add(...), or fuzzshrink.Add(...) for a wrapped target), what was written
and removed, and how to re-run it with go test. For example:

	$ fuzzmin ./kv
	FuzzParse/5ec67e2451cd668e: minimized 105 → 39 bytes, 51 runs, 197ms: panic: runtime error: index out of range [N] with length N at kv.go:34
		f.Add(string("=\"\\"), int(0))
		wrote testdata/fuzz/FuzzParse/455503b3a3ab325a, removed testdata/fuzz/FuzzParse/5ec67e2451cd668e
		To re-run: go test -run=FuzzParse/455503b3a3ab325a example.com/kv
	fuzzmin: 1 entry: 1 minimized

Under the value, what matters in it: after the search, each argument is
tried with other values of its type (it does not matter if every one
fails the same way), and each character of a string or []byte argument
that matters with others, from its own class outward: a digit, a
lowercase or an uppercase letter, a letter, a printable character, any
byte. The value is shown again with each character as fixed (as it is),
[digit], [lower], [upper], [letter], [printable] or _ (any byte): the
widest class whose alternatives all failed the same way. In binary data
guarded by checksums (CRC-32, Adler-32, CRC-64, IPv4 header sums), every
alternative has its sums computed again, and a sum's own bytes show as
[sealed]. It is evidence
from the alternatives tried, not a proof; the explanation only runs
candidates and never changes the result, and -explain bounds its runs
(by default as many as the search took; -json gives it per argument and
per character). A struct of a wrapped target is explained field by field,
and a generated target's draws that do not matter are listed under its
draws.

On a terminal a progress line (entry, current size, runs, runs per second)
shows while an entry shrinks; nothing is animated when stdout is not a
terminal.

With -json, every event is one JSON object on a line, with the field names
and types of go test -json: Time, Action, Package, Test (Target/entry) and,
where they apply, Elapsed (seconds) and Output. fuzzmin's own events have
actions go test -json does not use: "build" (a test binary is built),
"build-error", "entry" (the work on an entry starts), "search-pass" and
"accept" (with -v: a pass of the search starts, a candidate is accepted),
"report" (Output: a line of the report for people), "result" (the entry's
outcome: Status, Signature, Before, After, Runs, Stop, Value, Path, Removed,
Others, Note, Error, Rerun, Explanation), "finding" (of check), "error"
(Output: what went wrong outside any entry) and, last in every run,
"summary" (Counts: the number of entries by status; Exit: the exit status). "output" is only a line go test -fuzz
printed. docs/json.md gives every field.

# Check

"fuzzmin check" replays every entry of the seed corpora, as go test does,
and reports every problem in one pass, where go test stops a target at its
first malformed file: malformed files, stale entries (their values no longer
fit the target), failing entries (a regression, with its failure) and
duplicates (the same values under two names); with -minimal, how far a
bounded search shrinks each failing entry. It also runs, through go test,
the rest of what go test replays: each target's f.Add seeds, and the
failures fuzzshrink.Check saved for a test in testdata/fuzz/TestXxx (those
only, without generating cases). A corpus directory whose target is in a
test file the build constraints leave out (a GOOS, a tag) is not an orphan:
a note says it is not built here. It writes nothing. Each finding is
a line "path:line: message"; with -json a "finding" event (Path, Line,
Level, Message); in GitHub Actions (GITHUB_ACTIONS=true) or with -github
also a workflow annotation (::error or ::warning), which shows on the pull
request; it names the file from the root of the work space
(GITHUB_WORKSPACE), also when the module is in a subdirectory of it. Names
and messages are printed with their control characters as Go escapes
(\x1b), so that neither a terminal nor a log acts on them. Its exit status is 0 when nothing was found, 1 when something was,
2 for a usage error or a package that does not build. Its flags:

	-github
		Also print each finding as a GitHub Actions annotation (::error
		or ::warning), as when GITHUB_ACTIONS is true.
	-max-runs n
		With -minimal, stop the search of an entry after n candidates.
		The default is 1000.
	-minimal
		Also run a bounded search on each failing entry, and report
		those it can shrink. Nothing is written.
	-p n
		Run up to n test processes at once, as go test -p: one target's
		entries each. The default is GOMAXPROCS.
	-run regexp
		Check only the targets and entries matching regexp, as go test
		-run selects tests and subtests: FuzzParse, or
		FuzzParse/9e16f0a1 for one entry.
	-timeout duration
		With -minimal, the time budget of the search of an entry. The
		default is 30s.

It takes the shared flags -C, -exec-timeout, -json, -memory-limit, -race,
-shard and -tags too (see Shared flags).

# Fuzzing a module

"fuzzmin fuzz" fuzzes every fuzz target of its packages with the toolchain's
own fuzzer under one budget (-fuzztime, for all the targets together), and
minimizes what it finds. It builds each package's test binary for fuzzing
once (go test -c -fuzz) and gives the targets turns of go test -fuzz's
coordinator and workers, -p targets at once: the first turn of each target
in order, five seconds at most, each later one to a target that has fuzzed less than half its
even share so far, or else to the target that found inputs with new
coverage, and new failures, fastest in its last turn. The generated corpus of each target is the one go
test -fuzz keeps in $GOCACHE/fuzz, so each turn goes on from the last, and
go test -fuzz from the campaign.

A turn fuzzes past the failures it meets: fuzzmin adds to the binary a
fuzz test of its own for each target (go test -overlay; nothing is written
into the module) that runs the target in go test -fuzz's workers and
records an input that fails (a panic, t.Fatal, t.Error) instead of ending
the turn, with no coverage, so that the fuzzer keeps none of them. A
worker tells kinds of failure apart by where they happen and the text of
their first line, numbers and quoted values aside (eight texts at most at
one place; the rest there are one kind). When the turn ends, the smallest
input of each kind it met is screened, all of them in one run, and only
those of failures not found before are minimized: the smallest of each
failure. The others, and every input of a kind an earlier turn met,
count as repeats. The first failure a target meets ends its turn at once,
so that it is minimized, written and reported as soon as go test -fuzz
would report it; the turn after goes on from the same corpora.

An input that ends its worker process (an exit, a fatal error of the
runtime, a hang) does not stop the fuzzing either. Each worker the
toolchain's coordinator starts is a shim that runs the worker of the
inputs as a child, which writes each input where the shim reads it
before it runs it; when the child ends, the shim records the input,
answers the coordinator as if it had passed, and starts another child.
Such an input costs a process start, and a hang its limit. Where fuzzmin
cannot check the toolchain's worker protocol against its source (a
release it does not know, or a test binary built by another release than
the go command's), there is no shim: such an input stops the
toolchain's coordinator, which writes it into the seed corpus; the
hook's coordinator takes it out, records it, and starts the toolchain's
again for the time left, from the same corpora (with less than a second
left, the turn stops on it), at the cost of a start of the workers and a
replay of the corpus. Of the
inputs that ended a worker the same way (the exit status, and the first
line and place of the report the worker's runtime wrote, as for an
unrecovered panic in another goroutine or a stack overflow), the
smallest is kept; when the turn ends, each kept one is screened and
minimized with the others.
A worker counts an input as hanging as fuzzmin
judges its own runs (past 20 times the slowest input that passed, a
second at least, -exec-timeout at most), where the toolchain's workers
wait ten seconds, as long as a short turn. A worker that grows past
-memory-limit while an input runs ends itself too (Linux), and the input
is minimized as out of memory, as fuzzmin judges its own runs. Inputs with new coverage are minimized by the fuzzer, as go test -fuzz does, for
two seconds at most each. Beside the toolchain's mutations, the workers run
one input in 16 a second time with one of its values replaced: by an
integer, character, float or string literal of the package's Go files
and of the packages it and its tests import, nearest first, but for the
standard library's and their test files (one off, negated, or put inside
a string), or by an edge of the value's
type (0, -1, the smallest and largest). That reaches comparisons with
constants (n == 31337, a keyword, an overflow of int) which the toolchain's
mutator, moving an integer by at most 100 at a time, does not. Only the
failures of such a run are kept, not its coverage: the generated corpus
stays the toolchain's. A variant that ends its worker (an exit, a hang)
ends it while the toolchain names the input it replaced: the campaign
minimizes the variant, and the named input only if it fails too; a seed
entry so named is not taken for a failing seed. A package whose test binary does not build with
that test, or whose testing package the test does not know, has its turns
stop at each failure, and the report says so.

A failing input is minimized as the command minimizes any entry (its
failure, checked by go test, with the other failures it meets), its result
is written to the target's seed corpus, and the target fuzzes on. Minimizing takes time of the budget: each failure
gets -timeout, or an eighth of the budget if that is less but 20 seconds
at least (a hang's searches with the short and the full limit share that
time), and none runs past the budget's end: no turn fuzzes in the last
eighth of the budget (20 seconds at most), which is for minimizing what
the last turns found, and a minimization stops early enough for go
test's check of its result to end with the budget. So the campaign ends
with its budget, building and the coverage and kept corpus after it
aside. The input itself is held outside testdata until then. If nothing smaller fails
the same way in the time, or go test does not see its minimized input fail
so (a hang that is only slow under go test's limit), the input is written
as it was found, checked by go test as any result; if it cannot be
minimized at all (an interrupt, an error), it is written as it was and the
report names it. A turn runs in a copy of the package's seed corpus
directory. Its workers replay that corpus before they fuzz: a worker that
fuzzes past failures goes on past a seed entry that fails, and then past
its mutations, which fail alike. So the first time a target meets a
failure, its seed corpus is replayed too, and its failing entries are
taken as the command takes them: a committed one is a regression,
reported once, and what fails as it does counts as a repeat; one that
git does not track (go test -fuzz left it) is minimized in place and
counts as the failure found. Where a turn stops at each failure instead, a
seed entry that fails is left out of the target's later turns (go test and
fuzzmin check report it). A failure is one finding however often, and in
however many targets, a turn meets it: nothing of a repeat stays in
testdata, and the report counts it. A failure that the module's known
failures list (see fuzzmin known) is counted, not reported as new, and
nothing of it stays. A new failure whose entry passes when the campaign
runs it again at the end (it depended on the time, on state) is reported
as flaky, not as a failure to commit. The report says how much time the
failures a target met cost it.

The report has a line per target: the time it fuzzed, its executions and
executions per second, the inputs with new coverage it found, its new
failures and the time from the first turn's start to the first of them
(when a worker met it, for a failure fuzzed past), the known ones and the
repeats it met, and the time those cost; a target that fuzzed nothing says why (the budget ran out
before its turn, or the replay of its corpus took each turn whole). While
it works, each turn that ends is a line on a terminal and with -v (the
target, the turn's time, executions and their rate, new inputs, the
size of its corpora and what they cover, in bits of the fuzzer's coverage
mask, the failure it stopped on, and the target's failures
so far: new, known and met again), and a "fuzz-turn" event with -json. With -json
each target is a "fuzz-target" event at the end. The last line says
where the time went: building, the turns (minimizing what stopped them
among them), and the coverage and kept corpus after them. A fuzzer still
running ten seconds past its turn (a child the target started holds its
workers' pipes) is ended with what it started, and the report says so.
The exit status is 1 when a new failure was found, with the entries to commit
named. Its flags:

	-corpus dir
		Keep the generated corpora of the targets in dir, laid out as
		$GOCACHE/fuzz (<import path>/<Target>/): its entries are added
		to the fuzz cache before fuzzing, and the cache's copied back
		after, so that CI can keep the directory between runs with an
		ordinary cache. Nothing else in the fuzz cache is touched.
	-corpus-max n
		With -corpus, distill a target's kept corpus, as fuzzmin cmin
		does, once it holds more than n entries. The default is 1000.
	-fuzztime duration
		How long to fuzz and minimize what the fuzzing finds, all the
		targets together: the turns of the targets that run at once
		overlap, and the last eighth (20s at most) is for minimizing.
		Building, and the coverage and kept corpus after it, come on
		top. The default is 5m.
	-known file
		Read the known failures from file instead of fuzzmin-known.txt
		at the root of each package's module.
	-p n
		Run up to n test processes at once, as go test -p: targets
		fuzzed at once, each with GOMAXPROCS/n fuzz workers; minimizing
		a failure runs its candidates on n processes too. The default is
		GOMAXPROCS.
	-run regexp
		Fuzz only the targets matching regexp.
	-shard i/n
		Fuzz only shard i/n of the targets: they are split into n shards
		by a hash of package and target, so that n jobs of a CI matrix,
		given 1/n to n/n, fuzz each target exactly once. The default is
		1/1.

It takes the shared flags -C, -exec-timeout, -flaky, -json, -max-runs,
-memory-limit, -others, -race, -tags, -timeout and -v too (see Shared
flags).

# Known failures

	fuzzmin known -run Target/entry [flags] [packages]

A module's known failures are failures it accepts for now: fuzzmin fuzz
counts them instead of reporting them as new, and fuzzmin check notes their
entries instead of failing. They are listed in fuzzmin-known.txt at the
root of the module, one a line as fuzzmin reports them (kind, message and
position: "fail: bad header N at parse.go:41"),
each after a comment that says where it was found; lines that start with #
are comments. "fuzzmin known" replays the entries -run selects and adds the
failure of each that fails; remove a line by hand once its bug is fixed.
Its flags:

	-known file
		Add to file instead of fuzzmin-known.txt at the root of the
		package's module.
	-p n
		Run up to n test processes at once, as go test -p: one target's
		entries each. The default is GOMAXPROCS.
	-run Target/entry
		The entries whose failures to add, as Target/entry (regular
		expressions, as for go test -run).

It takes the shared flags -C, -exec-timeout, -json, -memory-limit, -race
and -tags too (see Shared flags).

# Exporting corpora

	fuzzmin export -o dir [flags] [packages]

Export writes the corpora of fuzz targets, the seed corpus in testdata and
the generated corpus in the fuzz cache, as the raw testcases that OSS-Fuzz's
and ClusterFuzzLite's builds of native Go fuzz targets read, so that a
project can seed them with what go test -fuzz found: each target's into
dir/<Target>/, a file a testcase named by its hash, and with -zip also
dir/<Target>_seed_corpus.zip, the archive a build script copies to $OUT.
The layout is v2's (compile_native_go_fuzzer_v2: the fixed-size arguments,
a weight byte per string or []byte, then their bytes), or with -format=raw
the bytes of a target's one []byte or string argument. Import reads the
testcases back (fuzzmin import -format=v2) into the same entries. A v2
testcase shares its bytes out among three or more strings and byte slices
by weights of a byte each: an entry whose lengths no such weights give is
named, and not written. Its flags:

	-format v2
		The layout of a testcase: v2, as a build made with
		compile_native_go_fuzzer_v2 reads it (the default of OSS-Fuzz
		and ClusterFuzzLite for native Go fuzz targets), or raw, the
		bytes of a target's one []byte or string argument. The default
		is v2.
	-o dir
		Write each target's testcases into dir/<Target>/ (required);
		where targets of two packages share a name, each into
		dir/<package>_<Target>/, the package's path in its module with _
		for /, as OSS-Fuzz projects name such fuzzers.
	-run regexp
		Export only the targets matching regexp.
	-zip
		Also write <Target>_seed_corpus.zip beside each target's
		directory, the seed corpus archive an OSS-Fuzz build script
		copies to $OUT.

It takes the shared flags -C, -json and -tags too (see Shared flags).

# Coverage of the corpora

	fuzzmin cover -o file [flags] [packages]

Cover measures what the corpora of fuzz targets cover, the seed corpus and
the generated corpus go test -fuzz keeps, and writes it as a coverage
profile that go tool cover reads (go tool cover -func=file, -html=file).
It measures as cmin does: the test binary built for the set coverage of the
packages of the main module it links, each entry run alone. The test
binary writes its profile when it exits: an entry that panics or crashes
its process counts nothing, one that fails by t.Error or t.Fatal counts
what it ran. It prints each
target's share of the statements, and the profile holds the union of all
the targets'. Its flags:

	-o file
		Write the coverage profile to file (required).
	-p n
		Run up to n test processes at once, as go test -p: each
		measuring one entry at a time. The default is GOMAXPROCS.
	-run regexp
		Measure only the targets matching regexp.

It takes the shared flags -C, -exec-timeout, -json, -memory-limit and -tags
too (see Shared flags).

# Cmin

"fuzzmin cmin" distills the generated corpus of each fuzz target, the
inputs go test -fuzz keeps in $GOCACHE/fuzz because each covered something
new, to a small subset that covers as much, as libFuzzer's -merge=1 and
afl-cmin do. It builds the test binary for coverage (go test -cover), runs
each entry alone and reads the blocks it covered, then keeps, greedily, the
entry that covers the most blocks not yet covered (the smaller first among
equals) until every block any entry covers is, and removes the others.
Failing entries are always kept, and so is an entry whose coverage could
not be read. Its flags:

	-fuzzcache dir
		Distill the generated corpora under dir (as <import
		path>/<Target>) instead of $GOCACHE/fuzz: a fuzz cache kept by
		CI, say.
	-n
		Measure and choose, but remove nothing: show what would be
		removed.
	-p n
		Run up to n test processes at once, as go test -p: each
		measuring one entry at a time. The default is GOMAXPROCS.
	-run regexp
		Distill only the targets and entries matching regexp, as go test
		-run selects tests and subtests: FuzzParse, or
		FuzzParse/9e16f0a1 for one entry.
	-seed
		Distill the seed corpus too: its passing entries that git does
		not track may go; the committed ones stay.

It takes the shared flags -C, -exec-timeout, -json, -memory-limit, -race,
-shard and -tags too (see Shared flags).

# Importing crashes

	fuzzmin import -run Target [-pkg package] [-format format] [flags] file...

Import turns crash testcases found elsewhere (a CI artifact, a bug report,
an OSS-Fuzz or ClusterFuzzLite testcase) into entries of a fuzz target's
seed corpus and minimizes them. It decodes each file into the values of
the target's arguments, writes them into testdata/fuzz/<Target> under the
name go test would give the file, and takes the new entries through the
command's pipeline: replayed, minimized against their own failure,
checked with go test, and the imported entry removed once its minimized
replacement is verified (-keep keeps it). With -n nothing is written: the
report shows the values each file decodes to, where it would go, and what
minimizing it would give.

The target's argument types are those of the function its f.Fuzz
receives, which import asks the package's test binary for: go test names
them when a seed corpus file does not fit. For a target wrapped by
fuzzshrink.Fuzz each composite argument is one []byte, which the wrapper
decodes into the value, as under go test: import fills that []byte as the
build fills any []byte argument.

-format says how to read the files. A raw testcase carries no mark of the
build that found it, and the two OSS-Fuzz builds read the same bytes
differently, so fuzzmin never guesses:

	gofuzz
		A go test fuzz v1 file, as go test -fuzz and CI artifacts
		hold them (the default): its first line says so, a file
		without that line is refused, and the file is imported as it
		is if its values fit the target.
	v1
		A raw libFuzzer testcase of a build made with OSS-Fuzz's
		compile_native_go_fuzzer (go-118-fuzz-build's testing
		package, which reads the arguments in order with
		go-fuzz-headers): a string or []byte has a 4-byte big-endian
		length first (a []byte's is taken modulo the bytes left, and 0
		means 30), a bool is true if its byte is even, int8 and uint8
		take a byte, 16-bit integers two bytes and an endianness byte
		(even: little-endian), 32-bit integers four bytes big-endian,
		int, uint, 64-bit integers and floats their bytes and an
		endianness byte. If the bytes run out, the build does not call
		the fuzz function at all, so such a file cannot be the crash:
		it is refused.
	v2
		A raw libFuzzer testcase of a build made with
		compile_native_go_fuzzer_v2 (go-118-fuzz-build's v2 line): the
		fixed-size arguments first, big-endian, a bool true if its
		byte is odd; then a weight byte per string or []byte, which
		share the bytes left in proportion to their weights, the last
		one taking the rest. Every testcase decodes; missing bytes are
		zeros, as the build reads them.
	raw
		The bytes are the value of the target's one []byte or string
		argument: a testcase of a plain libFuzzer harness, or an input
		from a bug report.

Neither OSS-Fuzz build passes a testcase unchanged to a lone []byte
argument: v1 reads a length first, v2 a weight byte. ClusterFuzzLite uses
the same builds. The README gives the rules with their sources.

Import reports each file: the entry it became, with its values as an
f.Add line, or why it was not imported; then the minimizing of each new
entry, as the command reports it. An imported entry that does not fail
is left in the corpus and reported, as the bug may be fixed, or the file
read with the wrong -format. Exit status: 0 when every file was imported
and minimized; 1 when a file could not be imported, an imported entry
does not fail, or it could not be minimized or verified; 2 for a usage
error, a target that is not in the package, or a package that does not
build.

Import's flags:

	-format gofuzz
		How to read each file: gofuzz, a go test fuzz v1 file, as go
		test, CI artifacts and bug reports hold them; v1 or v2, a raw
		libFuzzer testcase of an OSS-Fuzz or ClusterFuzzLite build made
		with compile_native_go_fuzzer (v1) or
		compile_native_go_fuzzer_v2 (v2); raw, the bytes as the value of
		the target's one []byte or string argument. Nothing in a raw
		testcase tells which build made it, so fuzzmin never guesses: a
		file that is not a go test fuzz v1 file needs -format. The
		default is gofuzz.
	-keep
		Keep the original entry beside the minimized one.
	-max-size size
		Refuse a file larger than size bytes (a number, or with a suffix
		KiB, MiB or GiB); only regular files are read. The default is
		16MiB.
	-n
		Minimize, but write nothing: show what would change.
	-p n
		Run up to n test processes at once, as go test -p: the
		candidates of a batch are dealt out to them once inputs are seen
		to take 0.5 ms or more to run (below that, one process is
		faster). The result does not depend on n. The default is
		GOMAXPROCS.
	-pkg package
		The package of the target, as go test names it. The default is
		".".
	-run name
		The fuzz target the files are crashes of, by its name
		(required).

It takes the shared flags -C, -exec-timeout, -flaky, -json, -max-runs,
-memory-limit, -others, -tags, -timeout and -v too (see Shared flags).

# Migrating entries

	fuzzmin migrate -run Target -arg source... [-from types] [flags] [package]

When a fuzz target's arguments change, go test refuses its old entries
("mismatched types in corpus entry", go.dev/issue/48717). Migrate rewrites
them by an explicit mapping: one -arg per argument of the target's new
signature, in order, each one of

	@N
		The old argument N (from 1). If its type is not the new
		argument's, it converts only where every value of its type is
		one of the new type: a wider integer of the same signedness,
		an unsigned integer to a wider signed one, float32 to float64,
		string to []byte and back.
	T(@N)
		The old argument N converted to the native type T: between
		integer types, between float types, or between string and
		[]byte. An entry whose value does not fit exactly, as 300 in
		int8(@2), is reported and left unchanged.
	value
		A constant, as a corpus file spells it: int64(0), string(""),
		[]byte("\x00"), bool(true).

Old arguments that no -arg names are dropped, and migrate says which.
The old signature is -from if given, else that of the entries go test
refuses, if they all have the same one. Only entries of the old signature
are rewritten: one that fits the target already is left alone, and one of
neither signature is reported. (-from lets migrate rewrite entries that go
test does not refuse, as when two arguments of one type swap places.)

The target's signature comes from the package's test binary, as for
import. Before any file changes, the mapping is checked against it: a
mapping that does not give exactly the target's argument types is a usage
error, and so is a conversion that cannot be made. Then the test binary
reads every new entry, as go test does, before any is written; each is
written atomically under the name go test would give it, and the old file
is removed only after the new one is written. Entries git tracks are
migrated too, since they are the ones that go stale; the report says so,
for you to commit the change. -n shows what would change.

Migrate reports the mapping, then each entry: its new values as an f.Add
line and the files written and removed, or why it was left alone; then
the counts. Exit status: 0 when every entry fits the target now; 1 when
an entry was left malformed, stale or unchanged because a value does not
fit, or a file could not be written; 2 for a usage error, a mapping that
does not fit the target, or a package that does not build.

Migrate's flags:

	-arg source
		Where an argument of the target's new signature comes from: one
		-arg per argument, in order (required). A source is @N, the old
		argument N (from 1); T(@N), the old argument N converted to the
		native type T; or a value, as a corpus file spells it: int64(0),
		string(""), []byte("").
	-from types
		The old signature, Go types separated by commas, as string,int.
		Without it the old signature is that of the target's stale
		entries, if they all have one.
	-n
		Migrate, but write nothing: show what would change.
	-run name
		The fuzz target whose entries to migrate, by its name
		(required).

It takes the shared flags -C and -tags too (see Shared flags).

# Demo

"fuzzmin demo" copies an embedded example package, with a real bug and the
unminimized crasher go test -fuzz found for it, into a temporary
directory, minimizes it there, and shows the corpus before and after. It
takes no arguments and needs nothing but the Go toolchain.

# Help

"fuzzmin help" prints this manual; "fuzzmin help <command>" the section of
one command. Each command's -help prints its section, and the command's
own -help the manual without the commands' sections.

# Exit status

0 when done, also when nothing failed; 1 when -fuzz found a new failure
(after minimizing it and writing the entry), when some entry could not be
minimized or verified, also when a budget ran out before anything smaller
was found, or is malformed, stale, flaky or a failing committed entry (go
test would fail on those too), or when something outside the command
failed (the go command, the file system); 2 for a usage error, a package
that does not build, or a package fuzzmin may not write into (in the
module cache, in GOROOT, or outside the main module).
*/
package main
