// Package cli is the fuzzmin command; cmd/fuzzmin is a few lines around
// [Main], so that the end-to-end tests can run the command in process.
// What it knows of the toolchain (building test binaries, running them,
// reading their output, the fuzz worker) is package testbin's.
//
// One run of the command (a [command]) takes every selected entry through
// a pipeline:
//
//   - package (package.go): load the packages and their fuzz targets
//     (load.go; which targets are wrapped by fuzzshrink, wrapped.go), select
//     entries with -run, build each package's test binary once (build.go,
//     the go command's runs in gocmd.go), and read
//     the message templates of the packages it links while it builds
//     (templates.go), by which every failure's identity is judged;
//   - entry (entry.go): replay the zero input, then the original until two
//     runs agree, in fresh processes (replay.go), to learn its failure
//     signature; take the
//     zero input if it fails the same way, else shrink: in the test process
//     for a wrapped target (inprocess.go, the protocol of internal/session),
//     falling back to shrinking its encoded arguments from here, as for any
//     other target (oracle.go, which runs candidates in a test process that
//     stays up in the toolchain's fuzz worker mode when the original fails
//     there as in a process of its own, and otherwise through the test
//     binary as a private seed corpus; a hang with a short limit first);
//   - write back (writeback.go): write the result atomically, verify it with
//     go test itself, and only then remove the original;
//   - result (result.go): the entry's status, which report.go prints for
//     people or as -json events.
//
// check (check.go) replays the seed corpora and reports what it finds; cmin
// (cmin.go) distills generated corpora by coverage. The subcommands that
// work on one target (subcommand.go) share the setup
// of a run (withPackages) and ask the test binary for the target's
// argument types (testbin.Runner.ArgTypes). import (import.go) decodes
// crash files (the OSS-Fuzz builds' decoders are internal/ossfuzz), writes them into
// the seed corpus and hands the new entries to the pipeline above
// (minimizeJobs); migrate (migrate.go, migrate_entries.go) rewrites a
// target's entries by a mapping (mapping.go) after its arguments changed.
//
// fuzz (campaign.go) builds the targets' instrumented binaries, gives them
// turns of the toolchain's fuzzer under one budget (campaign_turns.go),
// minimizes and counts what stops a turn (campaign_failure.go), keeps the
// generated corpora (campaign_corpus.go) and reports (campaign_report.go).
// known (known.go) lists a module's accepted failures, which fuzz and
// check count instead of reporting; export (export.go) writes the corpora
// as OSS-Fuzz seed directories; cover (cover.go) measures what the corpora
// cover.
//
// The stages take what they serve as parameters: the entries a stage
// selects (a [matcher]), whether a job writes its result, where the
// generated corpora are. A command's options are read where the command
// starts its stages, and never swapped for a stage.
//
// fuzzmin's cache (cache.go) keeps the test binaries, which go test links
// again only when they changed (go test -o), and the message templates.
// The manual (manual.txt, manual.go) is made from the commands' flag sets:
// a flag several commands take is described once.
package cli
