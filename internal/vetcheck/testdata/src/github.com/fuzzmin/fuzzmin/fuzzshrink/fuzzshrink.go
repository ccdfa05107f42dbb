// Package fuzzshrink is the part of fuzzshrink's API the check knows, for
// its tests.
package fuzzshrink

import "testing"

type T struct{ *testing.T }

type Gen[V any] struct{ v V }

func (g *Gen[V]) Draw(t *T, label string) V { return g.v }

func Int() *Gen[int]       { return nil }
func String() *Gen[string] { return nil }

func Fuzz(f *testing.F, fn any)                     {}
func Add(f *testing.F, args ...any)                 {}
func AddDraws(f *testing.F, labelsAndValues ...any) {}

type CheckOption func()

func Check(t testing.TB, prop func(*T), opts ...CheckOption) {}
