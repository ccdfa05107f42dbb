package shrink

import "slices"

// SizePassesAfterRemove runs the passes that keep sizes consistent
// (fields, lengths, inflate) right after remove, not first, for a
// measurement of the order; it returns what puts the order back. Searches
// must not run meanwhile.
func SizePassesAfterRemove() (restore func()) {
	saved := passes
	consistent := []string{"fields", "lengths", "inflate"}
	i := 0
	for _, p := range saved {
		if !slices.Contains(consistent, p.name) {
			passes[i] = p
			i++
		}
		if p.name == "remove" {
			for _, q := range saved {
				if slices.Contains(consistent, q.name) {
					passes[i] = q
					i++
				}
			}
		}
	}
	return func() { passes = saved }
}
