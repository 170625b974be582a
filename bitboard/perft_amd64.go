package bitboard

import "os"

// The perft inner loop in assembly: for every move of (p, o), flips, the
// child's moves with AVX2 (four directions in the four 64-bit lanes of one
// register) and their count, in one call instead of two calls per move.
// It needs AVX2, BMI1, BMI2, LZCNT and POPCNT (any x86-64 since 2013-2015),
// checked once at start with CPUID; elsewhere, or with OUTFLANK_NOASM=1 in the
// environment, the portable Go loop runs. Tests compare the two.
//
//go:noescape
func perftLeavesAVX2(p, o uint64) uint64

func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() uint32

// hasAVX2Kernel is decided once at start from CPUID; read-only afterwards.
var hasAVX2Kernel = func() bool {
	if os.Getenv("OUTFLANK_NOASM") != "" {
		return false
	}
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const popcnt, osxsave, avx = 1 << 23, 1 << 27, 1 << 28
	if c1&popcnt == 0 || c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xgetbv0()&6 != 6 { // the OS saves the SSE and AVX registers
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	const bmi1, avx2, bmi2 = 1 << 3, 1 << 5, 1 << 8
	if b7&bmi1 == 0 || b7&avx2 == 0 || b7&bmi2 == 0 {
		return false
	}
	maxExt, _, _, _ := cpuid(0x80000000, 0)
	if maxExt < 0x80000001 {
		return false
	}
	_, _, ce, _ := cpuid(0x80000001, 0)
	const lzcnt = 1 << 5
	return ce&lzcnt != 0
}()

// perftLeaves returns the number of leaves two plies below (p, o), which
// must have a legal move, with a pass counting as a ply.
func perftLeaves(p, o uint64) uint64 {
	if hasAVX2Kernel {
		return perftLeavesAVX2(p, o)
	}
	return perftLeavesGo(p, o)
}

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string {
	if hasAVX2Kernel {
		return "amd64 AVX2 (moves, flips, perft kernel)"
	}
	return "portable Go"
}

// movesAVX2 and flipsAVX2 are Moves and Flips with AVX2: the four direction
// pairs in the four lanes of one register. Even with the cost of a call that
// the compiler cannot inline, they take about 40% (moves) and 60% (flips) of
// the time of the Go versions here; Moves and Flips use them when
// hasAVX2Kernel is set.
//
//go:noescape
func movesAVX2(p, o uint64) uint64

//go:noescape
func flipsAVX2(p, o uint64, sq Square) uint64
