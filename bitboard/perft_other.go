//go:build !amd64

package bitboard

func perftLeaves(p, o uint64) uint64 { return perftLeavesGo(p, o) }

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string { return "portable Go" }
