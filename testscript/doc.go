// Package testscript holds the end-to-end tests of the fuzzmin command: each
// script in testdata/*.txtar is a small module with fuzz targets and corpus
// files written inline, on which fuzzmin runs as a user runs it (exec
// fuzzmin ...), and the script checks its exit status, its output, the
// corpus files left behind, and that plain go test reproduces the minimized
// failure. One topic a script: shrinking strings, ints and every other
// argument type; keeping the original failure when smaller inputs fail
// another way; process exits, hangs and slow inputs; malformed, stale,
// passing and flaky entries; the flags (-n, -keep, -json, -run, -v, -C,
// -tags, -max-runs, -timeout, -exec-timeout); several packages, external
// test packages, build errors and missing corpora; noisy tests, tests that
// print crash-like lines or read files through relative paths; GOTRACEBACK
// levels; interrupts; targets wrapped by fuzzshrink, shrunk structurally in
// process, including sessions that crash; and the demo. Besides testscript's
// own commands the scripts use ls (list a directory), status (exec and check
// the exit status), within (exec and check the time taken), waitfile (wait
// for a file) and usefuzzmin (let the script's module import this
// repository, offline), all defined in testscript_test.go. Run the suite with "go test ./testscript",
// one script with "go test ./testscript -run TestScripts/name" (name is the
// file name without .txtar), and add -update to rewrite the files a script
// compares against (cmp stdout want/...) from what fuzzmin now does.
package testscript
