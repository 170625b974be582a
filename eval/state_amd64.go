package eval

import "github.com/outflank-othello/outflank/bitboard"

// playAVX2 is the index update of Play in AVX2 (state_amd64.s): the first
// deltaLanes indexes of both readings of src plus the placed square's row
// of sqDelta (twice in the reading of the side not moving) and minus (the
// mover's reading) or plus (the other) the rows of the flipped squares,
// into dst (which may be src). Six 8-lane adds per square instead of a
// read-modify-write per pattern instance it lies in.
//
//go:noescape
func playAVX2(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)

// playKernel is set where playAVX2 runs (bitboard's AVX2 decision, so that
// OUTFLANK_NOASM turns it off as well).
var playKernel = bitboard.HasAVX2Kernel()
