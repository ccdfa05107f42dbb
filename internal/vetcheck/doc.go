// Package vetcheck is the go vet check of fuzz targets that use fuzzshrink,
// run as
//
//	go install github.com/fuzzmin/fuzzmin/cmd/fuzzmin-vet
//	go vet -vettool=$(command -v fuzzmin-vet) ./...
//
// (cmd/fuzzmin-vet is [Main]: a command of its own, so that fuzzmin does
// not carry the analyzers). A -vettool replaces
// go vet's own analyzers, so the tool runs them too ([Suite]): it reports
// all that go vet does and, where fuzzshrink would fail only at run time or
// do something else than meant:
//
//   - a fuzzshrink.Add whose values do not match, in number or type, the
//     parameters after *testing.T of the function the same target gives
//     fuzzshrink.Fuzz (an untyped constant has its default type: Add(f, 3)
//     adds an int), as vet's tests check does for f.Add;
//   - fuzzshrink.Add in a target of generators, whose entries are choice
//     sequences: AddDraws adds them by the values of labelled draws;
//   - fuzzshrink.Add after fuzzshrink.Fuzz, which never sees it;
//   - fuzzshrink.Fuzz given a function that is not func(*testing.T, ...) or
//     func(*fuzzshrink.T), or whose parameters have a type fuzzshrink
//     cannot decode (a channel, a function, an interface, a complex
//     number, an unsafe pointer, uintptr);
//   - a generator's Draw given a *fuzzshrink.T of an enclosing function
//     instead of the property's own: its draws would go to another run.
package vetcheck
