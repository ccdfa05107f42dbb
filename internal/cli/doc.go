// Package cli is the fuzzmin command; cmd/fuzzmin is a few lines around
// [Main], so that the end-to-end tests can run the command in process.
//
// Each command (the command itself, which minimizes, in minimize.go;
// check, cmin, fuzz, known, export, cover, import and migrate in
// cmd_*.go) is a type with its own options, its flags (the shared groups'
// in flags.go), its validation and its run, which calls one stage of
// package pipeline, or package campaign, with its options as parameters.
// The table of commands (commands.go) is the one place each is named:
// Main runs it, and the manual (manual.txt, manual.go) is made from the
// commands' flag sets, a flag several commands take described once. demo
// (demo.go) runs the command itself on an embedded example.
package cli
