// Package campaignbench is the benchmark of fuzzmin fuzz: six fuzz targets
// with eight planted bugs of different depths, each a panic whose message
// names it (bug1 … bug8), fuzzed by the campaign and by a shell loop of go
// test -fuzz over the same targets with the same total time (compare.sh).
//
//	bug1 ParseNum  shallow: a minus sign and three more bytes
//	bug2 ParseNum  deep: "0x" then d, e, a, d, one byte at a time
//	bug3 Header    deep: the ELF magic, 7f 45 4c 46, one byte at a time
//	bug4 Header    shallow: more than 64 bytes
//	bug5 Sum       middle: two positive ints whose sum overflows
//	bug6 Words     middle: five spaces, then an x right after a y
//	bug7 Port      middle: the one uint16 31337
//	bug8 Token     deep: "FUZZ" then "ME", one byte at a time
//
// Each bug is in code the package's tests call, so that its identity is
// one place however a target reaches it.
package campaignbench
