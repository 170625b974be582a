package tt

import "syscall"

// adviseHuge asks Linux to back b with transparent huge pages (it matters
// when THP is in "madvise" mode, the common default). Failure is harmless:
// the table then uses normal pages.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, 14 /* MADV_HUGEPAGE */) }
