// Package failure describes how a fuzz input fails, so that a candidate
// counts as failing only if it fails the same way as the original: the
// command line reads it from a test binary's output, and fuzzshrink's
// in-process session from the recovered panic or the failed test.
//
// Two failures are the same bug when they are of one kind, at one place,
// made by the same format. The files, in the order a failure meets them:
//
//   - failure.go: the Signature (kind, text, position) and the runtime's
//     own panic messages;
//   - recovered.go: the signature of a panic recovered in process;
//   - source.go: the templates of a package's messages, read from its Go
//     source (SourceTemplates);
//   - template.go: a message matched to the templates of its call and of
//     the program, errors matched again as chains (Templates.Match);
//   - shape.go: the Shaper, one per target, which judges by the templates
//     and masks what looks like a value where none explains the text, and
//     learns what differs between two runs (Vary).
package failure
