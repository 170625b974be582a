package train

import "unsafe"

// prefetchRows asks the processor to bring into its caches the elements
// idx[i]·mul+off of the array of size-byte elements at base, without
// waiting for them (PREFETCHT0, which never faults, so an index outside the
// array is harmless): the fit's reads are scattered over hundreds of
// megabytes, and a batch knows its indexes before it reads them.
//
//go:noescape
func prefetchRows(base unsafe.Pointer, size uintptr, mul, off int, idx []int32)
