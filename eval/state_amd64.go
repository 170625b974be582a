package eval

import (
	"os"

	"github.com/klauspost/cpuid/v2"
	"github.com/outflank-othello/outflank/bitboard"
)

// playAVX2 is the index update of Play in AVX2 (state_amd64.s): the first
// deltaLanes indexes of both readings of src plus the placed square's row
// of sqDelta (twice in the reading of the side not moving) and minus (the
// mover's reading) or plus (the other) the rows of the flipped squares,
// into dst (which may be src). Six 8-lane adds per square instead of a
// read-modify-write per pattern instance it lies in.
//
//go:noescape
func playAVX2(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)

// playAVX512 is playAVX2 in 16-lane registers: three adds per square.
//
//go:noescape
func playAVX512(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)

// patternSumAVX2 is patternSumGo in AVX2: six 8-lane gathers of the
// weights (each lane reads 4 bytes at its weight, whose low half
// VPMADDWD keeps, sign-extended), the padding lanes 46 and 47 cleared,
// then one horizontal sum.
//
//go:noescape
func patternSumAVX2(t *[stageSize]int16, idx *[idxLen]uint32) int

// patternSumAVX512 is patternSumGo in AVX-512: three 16-lane gathers (the
// third masked to instances 32-45).
//
//go:noescape
func patternSumAVX512(t *[stageSize]int16, idx *[idxLen]uint32) int

// playSumAVX2 is playSumGo in AVX2: playAVX2's sums of delta rows into
// the one reading, then patternSumAVX2's gathers from the registers.
//
//go:noescape
func playSumAVX2(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int

// playSumAVX512 is playSumGo in AVX-512.
//
//go:noescape
func playSumAVX512(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int

// playKernel is set where playAVX2 runs (bitboard's AVX2 decision, so that
// OUTFLANK_NOASM turns it off as well).
var playKernel = bitboard.HasAVX2Kernel()

// The evaluation's kernels, from the slowest: the portable Go, AVX2 (with
// the BMI2 move patterns), AVX-512 F.
const (
	kernelGo = iota
	kernelAVX2
	kernelAVX512
)

// sumKernel is the fastest kernel the CPU runs, decided once at start:
// AVX2 where bitboard's assembly runs (OUTFLANK_NOASM=1 turns all of it
// off), AVX-512 where the CPU and the OS also have AVX-512 F (cpuid checks
// that the OS saves the registers) and OUTFLANK_NOAVX512 is unset.
// Read-only afterwards: the tests call each kernel directly.
var sumKernel = func() int {
	switch {
	case !playKernel:
		return kernelGo
	case cpuid.CPU.Supports(cpuid.AVX512F) && os.Getenv("OUTFLANK_NOAVX512") == "":
		return kernelAVX512
	}
	return kernelAVX2
}()
