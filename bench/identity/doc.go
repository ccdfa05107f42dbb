// Package identitybench is the module of the identity benchmark: eleven
// failing entries whose messages print values holding NUL bytes and
// brackets, errors of the standard library, exits of log.Fatalf, a time
// and a map's order, and two that hang. compare.sh times two revisions of
// fuzzmin on them, interleaved; docs/performance.md keeps its figures.
package identitybench
