//go:build !linux

package eval

// newTable returns n zeroed int16s for a Pattern's full weight tables.
func newTable(owner *Pattern, n int) []int16 { return make([]int16, n) }
