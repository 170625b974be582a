//go:build !amd64

package bitboard

// No assembly on this architecture: the portable paths run.
const hasAVX2Kernel = false

func perftLeaves(p, o uint64) uint64          { return perftLeavesGo(p, o) }
func perft3Leaves(p, o uint64) uint64         { return perft3LeavesGo(p, o) }
func movesAVX2(p, o uint64) uint64            { return movesGo(p, o) }
func flipsAVX2(p, o uint64, sq Square) uint64 { return flipsGo(p, o, sq) }

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string { return "portable Go" }
