package train

import (
	"syscall"
	"unsafe"
)

// newWeights returns n zeroed weights in a mapping of their own, which the
// kernel backs with 2 MB pages where it can (fresh memory, so that no page
// is faulted in small before the advice), and the function that unmaps it.
// The fit reads the table at random over hundreds of megabytes: with 4 KB
// pages nearly every read would miss the TLB as well as the cache.
func newWeights(n int) ([]adamWeight, func()) {
	size := n * int(unsafe.Sizeof(adamWeight{}))
	if size == 0 {
		return nil, func() {}
	}
	b, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]adamWeight, n), func() {}
	}
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) // advice: without it the fit is slower, not wrong
	return unsafe.Slice((*adamWeight)(unsafe.Pointer(&b[0])), n), func() { _ = syscall.Munmap(b) }
}
