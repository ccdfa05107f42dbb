package shrink

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fuzzmin/fuzzmin/internal/formats"
)

// Explain says which parts of a minimized result matter, from the verdicts
// of alternatives: after the search, with the same oracle, within a budget
// of runs. It never changes the result; it only runs candidates.
//
// Each argument is free if every alternative tried (its zero value, and
// random values of its type) fails the same way, and needed otherwise.
// Each position of a needed string or []byte argument (each rune of valid
// UTF-8, each byte otherwise) is tried with other characters, from the
// narrowest class that holds it outward: its own class (a digit, a
// lowercase or an uppercase letter), then letters for a letter, then
// printable characters, then any byte. The position is of the widest class
// whose alternatives all failed the same way: fixed if an alternative of
// its own class did not, free if none did. In binary data guarded by
// checksums (formats.FindSums), every alternative has its sums computed
// again, so that a byte is judged by what it means, not by the sum it
// breaks, and the bytes of a sum are sealed. An explanation is evidence from
// the alternatives tried, not a proof: each part says how many it tried,
// and a claim needs all of them to agree.

// A Class is what an explanation found a position of a string or []byte
// can be.
type Class int

// The classes, narrowest first.
const (
	Unexplained Class = iota // the budget ran out before the position was tried
	Fixed                    // an alternative of its own class does not fail the same way
	Digit                    // any digit fails the same way
	Lower                    // any lowercase letter
	Upper                    // any uppercase letter
	Letter                   // any letter
	Printable                // any printable ASCII character
	Free                     // any byte (any rune)
	// Sealed: a byte of a checksum of other bytes of the argument, which
	// every alternative of those has computed again; not tried itself.
	Sealed
)

// String returns the class's name, as the legend shows it.
func (c Class) String() string {
	switch c {
	case Unexplained:
		return "unexplained"
	case Fixed:
		return "fixed"
	case Digit:
		return "digit"
	case Lower:
		return "lower"
	case Upper:
		return "upper"
	case Letter:
		return "letter"
	case Printable:
		return "printable"
	case Free:
		return "free"
	case Sealed:
		return "sealed"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// An Explanation is what Explain found.
type Explanation struct {
	Runs int   // candidates run
	Args []Arg // one per argument
	// Smaller is a tuple smaller than the result that failed the same
	// way, met by accident: a miss of the search, reported, never used.
	Smaller []any
}

// An Arg is the explanation of one argument.
type Arg struct {
	Free bool // every alternative tried failed the same way
	// Unexplained: the budget ran out before an alternative passed or
	// all of them failed the same way; the argument is neither free nor
	// known to matter.
	Unexplained bool
	Tried       int        // alternatives tried for the argument as a whole
	Positions   []Position // of a needed string or []byte: one per rune, or byte
	Fields      []Field    // of a needed struct (or pointer to one): one per exported field
}

// A Field is the explanation of one field of a struct argument.
type Field struct {
	Name  string
	Free  bool // every alternative tried failed the same way
	Tried int
}

// A Position is the explanation of one rune or byte of a string or
// []byte argument.
type Position struct {
	At    int    // its offset in bytes
	Text  string // the rune or byte
	Class Class
	Tried int // alternatives tried
}

// wholeAlternatives is how many alternatives an argument is tried with;
// classAlternatives how many of each class a position is.
const (
	wholeAlternatives = 6
	classAlternatives = 2
)

// ExplainBudget returns the runs an explanation may take when asked for
// asked runs, of which -1 means as many as the search took, searchRuns.
func ExplainBudget(asked, searchRuns int) int {
	if asked < 0 {
		return searchRuns
	}
	return asked
}

// Explain explains args, a tuple that o judges to fail, with at most
// budget runs (no limit if budget ≤ 0), its random alternatives drawn from
// seed. Only an error of the oracle, or ctx's cancellation, ends it early;
// ctx's deadline ends it as the end of the budget does, with what it had
// not come to unexplained.
func Explain(ctx context.Context, args []any, o Oracle, budget int, seed uint64) (Explanation, error) {
	x := &explainer{ctx: ctx, o: o, budget: budget, args: args, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
	x.ex.Args = make([]Arg, len(args))
	for i := range args {
		free, tried, out, err := x.whole(i)
		if err != nil {
			return x.ex, err
		}
		x.ex.Args[i] = Arg{Free: free, Tried: tried, Unexplained: out}
	}
	for i, a := range args {
		if x.ex.Args[i].Free || x.ex.Args[i].Unexplained {
			continue
		}
		var ps []Position
		var err error
		switch v := a.(type) {
		case string:
			ps, err = x.positions(i, v, utf8.ValidString(v))
		case []byte:
			if isBinary(v) && len(v) <= formats.MaxSumsInput {
				x.sums = formats.FindSums(v)
			}
			ps, err = x.positions(i, string(v), false)
			x.sums = nil
		default:
			x.ex.Args[i].Fields, err = x.fields(i)
		}
		x.ex.Args[i].Positions = ps
		if err != nil {
			return x.ex, err
		}
	}
	return x.ex, nil
}

type explainer struct {
	ctx    context.Context
	o      Oracle
	budget int
	args   []any
	rng    *rand.Rand
	ex     Explanation
	sums   []formats.Sum // of the []byte argument whose positions are tried
}

// fails runs args with argument i replaced by v and reports whether it
// fails the same way; out is true when the budget has run out.
func (x *explainer) fails(i int, v any) (fails, out bool, err error) {
	if x.budget > 0 && x.ex.Runs >= x.budget {
		return false, true, nil
	}
	if err := x.ctx.Err(); err != nil {
		return false, true, timeIsBudget(err)
	}
	cand := with(x.args, i, v)
	vs, err := x.o.Run(x.ctx, [][]any{cand})
	if err != nil || len(vs) == 0 {
		return false, true, timeIsBudget(err)
	}
	x.ex.Runs++
	if vs[0] != Fail {
		return false, false, nil
	}
	if x.ex.Smaller == nil && compareArgs(cand, x.args) < 0 {
		x.ex.Smaller = cand
	}
	return true, false, nil
}

// timeIsBudget reads the end of ctx's time (its deadline, as a caller sets
// it to bound the explanation's time) as the end of the budget, which
// leaves what is not explained yet unexplained; other errors stay errors.
func timeIsBudget(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// whole tries argument i with other values of its type; out is true when
// the budget ran out before a verdict.
func (x *explainer) whole(i int) (free bool, tried int, out bool, err error) {
	alts := alternatives(x.args[i], x.rng)
	if len(alts) == 0 {
		return false, 0, false, nil
	}
	for _, v := range alts {
		f, out, err := x.fails(i, v)
		if err != nil || out {
			return false, tried, true, err
		}
		tried++
		if !f {
			return false, tried, false, nil
		}
	}
	return true, tried, false, nil
}

// fields tries each exported field of argument i, a struct or a pointer
// to one, with other values of its type, the rest of the argument as it
// is.
func (x *explainer) fields(i int) ([]Field, error) {
	rv := reflect.ValueOf(x.args[i])
	ptr := rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Elem().Kind() == reflect.Struct
	if ptr {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, nil
	}
	var fs []Field
	for k := range rv.NumField() {
		sf := rv.Type().Field(k)
		if !sf.IsExported() {
			continue
		}
		f := Field{Name: sf.Name, Free: true}
		for _, alt := range alternatives(rv.Field(k).Interface(), x.rng) {
			c := reflect.New(rv.Type()).Elem()
			c.Set(rv)
			c.Field(k).Set(reflect.ValueOf(alt))
			v := c.Interface()
			if ptr {
				v = c.Addr().Interface()
			}
			fails, out, err := x.fails(i, v)
			if err != nil || out {
				return fs, err // this field, and those after it, unexplained
			}
			f.Tried++
			if !fails {
				f.Free = false
				break
			}
		}
		if f.Tried > 0 {
			fs = append(fs, f)
		}
	}
	return fs, nil
}

// alternatives returns other values of v's type: its zero value first,
// then random ones; none for types it does not know.
func alternatives(v any, rng *rand.Rand) []any {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil
	}
	var alts []any
	add := func(a reflect.Value) {
		x := a.Interface()
		if !reflect.DeepEqual(x, v) && !slices.ContainsFunc(alts, func(y any) bool { return reflect.DeepEqual(x, y) }) {
			alts = append(alts, x)
		}
	}
	add(reflect.Zero(rv.Type()))
	for range wholeAlternatives - 1 {
		a := reflect.New(rv.Type()).Elem()
		switch rv.Kind() {
		case reflect.Bool:
			a.SetBool(!rv.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			a.SetInt(int64(rng.Uint64()) >> (rng.IntN(64)))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			a.SetUint(rng.Uint64() >> (rng.IntN(64)))
		case reflect.Float32, reflect.Float64:
			a.SetFloat(rng.NormFloat64() * float64(int(1)<<rng.IntN(30)))
		case reflect.String:
			a.SetString(randomText(rng, rng.IntN(2*len(rv.String())+8)))
		case reflect.Slice:
			if rv.Type().Elem().Kind() != reflect.Uint8 {
				return alts
			}
			b := make([]byte, rng.IntN(2*rv.Len()+8))
			for k := range b {
				b[k] = byte(rng.Uint32())
			}
			a.SetBytes(b)
		default:
			return alts
		}
		add(a)
	}
	return alts
}

// randomText returns n random printable characters and, now and then,
// other runes.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		if rng.IntN(8) == 0 {
			b.WriteRune(rune(0x80 + rng.IntN(0x2000)))
		} else {
			b.WriteByte(byte(' ' + rng.IntN(95)))
		}
	}
	return b.String()
}

// chain returns the classes of character c from its own outward, each
// with the characters it adds: the classes of the printable-first order
// (see [classStart]).
func chain(c rune) (classes []Class, adds []string) {
	if c < 0 || c >= utf8.RuneSelf {
		return []Class{Free}, []string{""}
	}
	chars := func(from, to int) string { return string(rankByte[classStart[from]:classStart[to]]) }
	digits, others := chars(classDigit, classLower), chars(classSpace, classRest)
	switch charClass(uint64(runeRank(c))) {
	case classDigit:
		return []Class{Digit, Printable, Free}, []string{digits, chars(classLower, classRest), ""}
	case classLower:
		return []Class{Lower, Letter, Printable, Free}, []string{chars(classLower, classUpper), chars(classUpper, classSpace), digits + others, ""}
	case classUpper:
		return []Class{Upper, Letter, Printable, Free}, []string{chars(classUpper, classSpace), chars(classLower, classUpper), digits + others, ""}
	case classSpace, classPunct:
		return []Class{Printable, Free}, []string{chars(classDigit, classRest), ""}
	}
	return []Class{Free}, []string{""}
}

// positions explains each rune (text) or byte of argument i, s. Once the
// budget runs out, the position being tried and those after it are
// unexplained.
func (x *explainer) positions(i int, s string, text bool) ([]Position, error) {
	var ps []Position
	var err error
	out := false
	for at := 0; at < len(s); {
		c, size := rune(s[at]), 1
		if text {
			c, size = utf8.DecodeRuneInString(s[at:])
		}
		p := Position{At: at, Text: s[at : at+size], Class: Unexplained}
		if slices.ContainsFunc(x.sums, func(z formats.Sum) bool { return z.At <= at && at < z.Field.End() }) {
			p.Class = Sealed
		} else if !out {
			p.Class, p.Tried, out, err = x.position(i, s, at, size, c, text)
			if err != nil {
				return ps, err
			}
		}
		ps = append(ps, p)
		at += size
	}
	return ps, nil
}

// position tries the character c at s[at:at+size] with others, class by
// class outward.
func (x *explainer) position(i int, s string, at, size int, c rune, text bool) (class Class, tried int, out bool, err error) {
	classes, adds := chain(c)
	for k := range classes {
		for _, alt := range x.pick(adds[k], c, text) {
			var v any = s[:at] + alt + s[at+size:]
			if b, ok := x.args[i].([]byte); ok {
				v = []byte(v.(string))
				if len(x.sums) > 0 {
					v = formats.Reseal(b, v.([]byte), x.sums)
				}
			}
			f, out, err := x.fails(i, v)
			if err != nil || out {
				return Unexplained, tried, true, err
			}
			tried++
			if !f {
				if k == 0 {
					return Fixed, tried, false, nil
				}
				return classes[k-1], tried, false, nil
			}
		}
	}
	return Free, tried, false, nil
}

// pick returns classAlternatives characters of set other than c, a space
// first if set has one, or, for the empty set (any byte, any rune), bytes
// that are in no printable class (a zero byte, a newline, a byte of 0x80 or
// more; for text, a rune beyond ASCII).
func (x *explainer) pick(set string, c rune, text bool) []string {
	var alts []string
	if set == "" {
		if text {
			alts = append(alts, "\x00", "\n", string(rune(0xe9+x.rng.IntN(0x100))))
		} else {
			alts = append(alts, "\x00", "\n", string([]byte{byte(0x80 + x.rng.IntN(0x80))}))
		}
		return alts
	}
	// A space separates words: where text is read, it is the printable
	// character most likely to change what is read, so it is tried first.
	if c != ' ' && strings.ContainsRune(set, ' ') {
		alts = append(alts, " ")
	}
	for len(alts) < classAlternatives {
		r := rune(set[x.rng.IntN(len(set))])
		if r == c && len(set) > 1 {
			continue
		}
		if r != c {
			alts = append(alts, string(r))
		}
		if len(set) == 1 {
			break
		}
	}
	return alts
}

// Legend returns the value of a string or []byte argument with each
// position shown by its class: fixed ones as they are, classes as
// [digit], [letter] and the like (a checksum's bytes as [sealed]), free
// ones as _, unexplained ones as ?.
func (a Arg) Legend() string {
	var b strings.Builder
	for _, p := range a.Positions {
		switch p.Class {
		case Fixed:
			q := strconv.Quote(p.Text)
			b.WriteString(q[1 : len(q)-1])
		case Free:
			b.WriteByte('_')
		case Unexplained:
			b.WriteByte('?')
		default:
			b.WriteString("[" + p.Class.String() + "]")
		}
	}
	return b.String()
}

// Summary says what the explanation found, as a report shows it under the
// value: "explained in 62 runs: argument 1 reads [letter]=[digit](;
// arguments 2–12 do not matter", with a key to _ and ? when the legends
// have them.
func (ex Explanation) Summary() string {
	var parts []string
	key := ""
	for i := 0; i < len(ex.Args); i++ {
		a := ex.Args[i]
		name := fmt.Sprintf("argument %d", i+1)
		if len(ex.Args) == 1 {
			name = "the value"
		}
		switch {
		case a.Free || a.Unexplained:
			j := i
			for j+1 < len(ex.Args) && ex.Args[j+1].Free == a.Free && ex.Args[j+1].Unexplained == a.Unexplained {
				j++
			}
			what := " does not matter"
			if a.Unexplained {
				what = " not explained: the budget ran out"
			}
			if j > i {
				parts = append(parts, fmt.Sprintf("arguments %d–%d", i+1, j+1)+strings.Replace(what, "does not", "do not", 1))
			} else {
				parts = append(parts, name+what)
			}
			i = j
		case slices.ContainsFunc(a.Positions, func(p Position) bool { return p.Class != Unexplained }):
			l := a.Legend()
			parts = append(parts, name+" reads "+l)
			if strings.Contains(l, "_") {
				key = " (_ is any byte)"
			}
			if strings.Contains(l, "?") {
				key += " (? was not tried: the budget ran out)"
			}
		case len(a.Fields) > 0:
			var free, needed []string
			for _, f := range a.Fields {
				if f.Free {
					free = append(free, f.Name)
				} else {
					needed = append(needed, f.Name)
				}
			}
			switch {
			case len(free) == 0:
				parts = append(parts, name+": every field matters")
			case len(needed) == 0:
				parts = append(parts, name+": no one field matters alone")
			default:
				matter, not := " matter", " do not"
				if len(needed) == 1 {
					matter = " matters"
				}
				if len(free) == 1 {
					not = " does not"
				}
				parts = append(parts, name+": "+strings.Join(needed, ", ")+matter+", "+strings.Join(free, ", ")+not)
			}
		case a.Tried > 0:
			parts = append(parts, name+" matters")
		}
	}
	runs := "runs"
	if ex.Runs == 1 {
		runs = "run"
	}
	return fmt.Sprintf("explained in %d %s: %s%s", ex.Runs, runs, strings.Join(parts, "; "), key)
}
