package shrink

import "iter"

// boolArg shrinks true to false. The cursor is unused.
func boolArg(v any, _ pos) iter.Seq2[pos, any] {
	b, ok := v.(bool)
	if !ok || !b {
		return nil
	}
	return func(yield func(pos, any) bool) { yield(pos{}, false) }
}
