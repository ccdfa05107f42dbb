// Package structured is the codec that carries a Go value of a type native
// fuzzing cannot take (a struct, a slice, a map, a pointer, ...) as one
// []byte fuzz argument.
//
// [CheckType] tells whether a type can be carried. [Decode] turns any byte
// string into a value of that type: decoding is total, so every mutation the
// fuzzer makes is a valid input, and lengths are capped by the input, so a
// few bytes never allocate much. [Encode] is its canonical inverse, whose
// shorter encodings are the simpler values. Types that implement the
// MarshalFuzz/UnmarshalFuzz pair encode themselves ([IsCustom]).
//
// The format is described in codec.go and scalar.go.
package structured
