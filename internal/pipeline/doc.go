// Package pipeline is the work of fuzzmin's commands on packages: one run
// (a [Run], the run context: the go environment, the scratch directories,
// the output, the confinement of what it writes) takes every selected
// entry through a pipeline whose stages take what they serve as
// parameters. The commands above it (package cli) parse their flags into
// the option groups defined here ([Common], [SearchOptions], …) and call
// one stage per command; package campaign calls the minimize stage with
// each failure it finds. What the pipeline knows of the toolchain
// (building test binaries, running them, reading their output, the fuzz
// worker) is package testbin's.
//
// The stages:
//
//   - packages (run.go, load.go, select.go): load the packages and their
//     fuzz targets (which are wrapped by fuzzshrink: wrapped.go), refuse
//     those not fuzzmin's to write (confine.go), select entries with a
//     [Matcher] ([Run.SelectEntries]), build each package's test binary
//     once (build.go, fuzzmin's cache of binaries in cache.go, the go
//     command's runs in gocmd.go), and read the message templates of the
//     packages it links while it builds (templates.go), by which every
//     failure's identity is judged;
//   - entry (package.go, entry.go): replay the zero input, then the
//     original until two runs agree, in fresh processes (replay.go), to
//     learn its failure signature; take the zero input if it fails the
//     same way, else shrink: in the test process for a wrapped target
//     (inprocess.go, the protocol of internal/session), falling back to
//     shrinking its encoded arguments from here, as for any other target
//     (oracle.go, which runs candidates in a test process that stays up in
//     the toolchain's fuzz worker mode when the original fails there as in
//     a process of its own, and otherwise through the test binary as a
//     private seed corpus; a hang with a short limit first); the other
//     failures met on the way are minimized after (others.go);
//   - write back (writeback.go): write the result atomically, verify it
//     with go test itself, and only then remove the original;
//   - result (result.go): the entry's status, which report.go prints for
//     people or as -json events.
//
// The other commands' stages: check (check.go, check_gotest.go) replays
// the seed corpora and reports what it finds; cmin (cmin.go) distills
// generated corpora by coverage, which cover (cover.go) measures; known
// (known.go) adds to a module's accepted failures, which fuzz and check
// count instead of reporting; export (export.go) writes the corpora as
// OSS-Fuzz seed directories; import (import.go) decodes crash files (the
// OSS-Fuzz builds' decoders are internal/ossfuzz), writes them into the
// seed corpus and hands the new entries to the pipeline
// ([Run.MinimizeJobs]); migrate (migrate.go, migrate_entries.go) rewrites
// a target's entries by a mapping (mapping.go) after its arguments
// changed.
package pipeline
