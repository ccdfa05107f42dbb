// Command fuzzmin-vet is go vet with the check of fuzz targets that use
// fuzzshrink added:
//
//	go install github.com/fuzzmin/fuzzmin/cmd/fuzzmin-vet
//	go vet -vettool=$(command -v fuzzmin-vet) ./...
//
// It runs go vet's own analyzers (a -vettool replaces them) and the
// fuzzshrink check: a fuzzshrink.Add whose values do not match the fuzz
// function, a type fuzzshrink.Fuzz cannot decode, fuzzshrink.Add after
// fuzzshrink.Fuzz or in a target of generators, and a Draw given another
// property's *fuzzshrink.T. It takes go vet's flags (-printf=false, …),
// and -fuzzshrink=false turns the check off.
package main

import "github.com/fuzzmin/fuzzmin/internal/vetcheck"

func main() { vetcheck.Main() }
