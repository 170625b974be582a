package bitboard

// The perft inner loop in assembly: for every move of (p, o), flips, the
// child's moves with AVX2 (four directions in the four 64-bit lanes of one
// register) and their count, in one call instead of two calls per move.
// It runs where hasAVX2Kernel is set (cpu_amd64.go).
//
//go:noescape
func perftLeavesAVX2(p, o uint64) uint64

// perftLeavesAVX512 and perft3AVX512 are the AVX-512 twins of
// perftLeavesAVX2 and perft3AVX2 (VPLZCNTQ flips, VPTERNLOGQ fill), used
// where hasAVX512Kernel is set.
//
//go:noescape
func perftLeavesAVX512(p, o uint64) uint64

//go:noescape
func perft3AVX512(p, o uint64) uint64

// perftLeaves returns the number of leaves two plies below (p, o), which
// must have a legal move, with a pass counting as a ply.
func perftLeaves(p, o uint64) uint64 {
	if hasAVX512Kernel {
		return perftLeavesAVX512(p, o)
	}
	if hasAVX2Kernel {
		return perftLeavesAVX2(p, o)
	}
	return perftLeavesGo(p, o)
}

// perft3AVX2 is perft3Leaves in assembly: the last three plies in one call.
//
//go:noescape
func perft3AVX2(p, o uint64) uint64

// perft3Leaves returns the number of leaves three plies below (p, o), which
// must have a legal move, with a pass counting as a ply.
func perft3Leaves(p, o uint64) uint64 {
	if hasAVX512Kernel {
		return perft3AVX512(p, o)
	}
	if hasAVX2Kernel {
		return perft3AVX2(p, o)
	}
	return perft3LeavesGo(p, o)
}
