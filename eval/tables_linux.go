package eval

import "syscall"

// adviseHuge asks Linux to back b with transparent huge pages. Failure is
// harmless: the tables then use normal pages.
func adviseHuge(b []byte) { _ = syscall.Madvise(b, syscall.MADV_HUGEPAGE) }
