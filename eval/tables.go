package eval

import "unsafe"

// hugePage is the size of a transparent huge page on x86-64 and arm64
// Linux.
const hugePage = 2 << 20

// newTable returns n zeroed int16s for a Pattern's full weight tables,
// starting on a huge-page boundary and, where the OS allows, backed by
// huge pages (as the transposition table is). A stage's tables (1.85 MB)
// span about 450 small pages, and the reads of one evaluation fall in
// dozens of them: with small pages most of those reads also miss the TLB.
// Where THP is "always" the kernel may back the tables with huge pages
// anyway; in "madvise" mode, the common default, only this advice does.
func newTable(n int) []int16 {
	const per = hugePage / 2 // int16s in a huge page
	raw := make([]int16, n+per)
	off := (hugePage - uintptr(unsafe.Pointer(&raw[0]))%hugePage) % hugePage / 2
	t := raw[off : off+uintptr(n) : off+uintptr(n)]
	adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(&t[0])), 2*n))
	return t
}
