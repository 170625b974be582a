package bitboard

import "os"

// Which assembly paths run is decided once at start from CPUID: the AVX2
// Moves and Flips (moves_amd64.s) and the perft kernel (perft_amd64.s) need
// AVX2, BMI1, BMI2, LZCNT and POPCNT (any x86-64 since 2013-2015).
// Elsewhere, or with OUTFLANK_NOASM=1 in the environment, the portable Go
// code runs. Tests compare the two.

func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() uint32

// hasAVX2Kernel is decided once at start from CPUID; read-only afterwards
// (but for TestDispatch, which sets it and hasAVX512Kernel in turn to reach
// each kernel through the entry points, then restores them).
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

// hasAVX512Kernel is set where, beyond hasAVX2Kernel, the CPU has AVX-512
// F, CD and VL (VPLZCNTQ on 256-bit registers) and the OS saves the AVX-512
// state: Flips and Last2-Last5 then use the VPLZCNTQ flips, Moves the
// VPTERNLOGQ fill (moves_amd64.h). With OUTFLANK_NOAVX512=1 in the
// environment they do not.
var hasAVX512Kernel = func() bool {
	if !hasAVX2Kernel || os.Getenv("OUTFLANK_NOAVX512") != "" {
		return false
	}
	if xgetbv0()&0xE6 != 0xE6 { // opmask, upper ZMM halves, ZMM16-31
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	const avx512f, avx512cd, avx512vl = 1 << 16, 1 << 28, 1 << 31
	return b7&avx512f != 0 && b7&avx512cd != 0 && b7&avx512vl != 0
}()

// HasAVX2Kernel reports whether the AVX2 assembly paths run (the CPU has
// what they need and OUTFLANK_NOASM is unset): other packages' assembly
// follows the same decision, so that one switch turns all of it off.
func HasAVX2Kernel() bool { return hasAVX2Kernel }

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string {
	if hasAVX2Kernel {
		if hasAVX512Kernel {
			return "amd64 AVX-512 (moves, flips, perft kernel, last empties)"
		}
		return "amd64 AVX2 (moves, flips, perft kernel)"
	}
	return "portable Go"
}
