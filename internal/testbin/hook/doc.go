// Package hook is the batch worker of fuzz targets: a fuzz test that runs
// a target's candidates many per call from fuzzmin, where the toolchain's
// fuzz worker runs one (see internal/testbin, batch.go). The same fuzz
// test, run by go test -fuzz in fuzzmin fuzz, fuzzes the target past its
// failures (fuzzon.go): the toolchain's coordinator and workers fuzz as
// they do, and a failing input is recorded for fuzzmin instead of ending
// the run; each worker is a shim (shim.go) that goes on past an input
// that ends the process running it, and the coordinator of the fuzz test
// goes on past a worker that ended (crash.go). fuzzmin adds it to the test binaries it builds through go
// test's -overlay, never on disk:
// this package, as a package of the module under test, and a test file in
// the package under test with a fuzz test per target that calls [Serve].
// So it imports the standard library alone, and keeps to the language of
// Go 1.16 (no any, no range over an integer): it is compiled with the
// language version of the user's module.
package hook
