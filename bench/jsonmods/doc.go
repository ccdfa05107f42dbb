// Package jsonbench is a benchmark of fuzzmin fuzz on real bugs: eight
// fuzz targets of two JSON modules at versions from before their fixes,
// gjson v1.6.0 (panics and backtracking hangs in Get and its matcher,
// fixed in v1.6.4 to v1.9.3) and jsonparser v1.0.0 (panics in Get, Set
// and Delete on malformed input), fuzzed by the campaign and by a shell
// loop of go test -fuzz over the same targets with the same total time,
// each from empty corpora and an empty build cache (compare.sh). Both
// results are named by fuzzmin check, one line per failure.
//
// The targets live in harness packages, as a user's would: the bugs sit
// in the modules they import.
package jsonbench
