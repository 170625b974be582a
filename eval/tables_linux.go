package eval

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64
// Linux.
const hugePage = 2 << 20

// newTable returns n zeroed int16s for a Pattern's full weight tables (the
// owner of the mapping, freed when owner is collected), backed by memory
// the kernel is asked to map with huge pages. A stage's tables (1.85 MB)
// span about 450 small pages, and the reads of one evaluation fall in
// dozens of them: with small pages most reads also miss the TLB. Where
// the kernel gives no huge pages, or the mapping fails, the tables are
// ordinary memory and only slower.
func newTable(owner *Pattern, n int) []int16 {
	size := (2*n + hugePage - 1) &^ (hugePage - 1)
	m, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]int16, n)
	}
	// Start on a huge-page boundary, so that every 2 MB of the tables can
	// be one huge page.
	skip := int(-uintptr(unsafe.Pointer(&m[0])) & (hugePage - 1))
	al := m[skip : skip+size]
	syscall.Madvise(al, syscall.MADV_HUGEPAGE) // advice: tables work without it
	runtime.AddCleanup(owner, func(m []byte) { syscall.Munmap(m) }, m)
	return unsafe.Slice((*int16)(unsafe.Pointer(&al[0])), n)
}
