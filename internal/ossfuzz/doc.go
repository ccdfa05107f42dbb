// Package ossfuzz decodes the raw libFuzzer testcases of OSS-Fuzz and
// ClusterFuzzLite builds of Go native fuzz targets into the arguments of
// the fuzz function, as each build does.
//
// There are two builds, and the bytes of a testcase do not say which one
// made it:
//
//   - v1, OSS-Fuzz's compile_native_go_fuzzer: go-118-fuzz-build rewrites
//     the test's import of "testing" to its own package, whose F.Fuzz
//     (github.com/AdamKorcz/go-118-fuzz-build, testing/f.go) reads the
//     arguments in order with go-fuzz-headers' ConsumeFuzzer
//     (github.com/AdaLogics/go-fuzz-headers, consumer.go), and does not call
//     the fuzz function at all if the bytes run out;
//   - v2, compile_native_go_fuzzer_v2: go-118-fuzz-build's v2 line fills the
//     arguments with input.Source.FillAndCall (input/reader.go): the
//     fixed-size ones first, then the strings and byte slices share what is
//     left by weights; short input is padded with zeros, and the function
//     is always called.
//
// The decoders below follow the code of go-fuzz-headers from its commit
// 75876d8 (2023-08-10) on, which every project that requires the current
// go-118-fuzz-build/testing gets, and of input/reader.go at f67648b. In
// neither build does a lone []byte argument receive the bytes unchanged:
// v1 reads a 4-byte length first, v2 a weight byte.
package ossfuzz
