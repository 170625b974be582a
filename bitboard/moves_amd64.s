// Moves and Flips with AVX2; moves_amd64.go says what they do and when
// they are used (cpu_amd64.go decides). The vector code itself is in the
// macros of moves_amd64.h, shared with the perft kernel.

#include "textflag.h"
#include "moves_amd64.h"

// Per-lane constants of the four directions (east-west, north-south, and
// the two diagonals): the column mask against wrapping, the shift and the
// doubled shift of the parallel prefix.
DATA ·dirMask+0(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA ·dirMask+8(SB)/8, $0xFFFFFFFFFFFFFFFF
DATA ·dirMask+16(SB)/8, $0x7E7E7E7E7E7E7E7E
DATA ·dirMask+24(SB)/8, $0x7E7E7E7E7E7E7E7E
GLOBL ·dirMask(SB), RODATA|NOPTR, $32
DATA ·dirShift+0(SB)/8, $1
DATA ·dirShift+8(SB)/8, $8
DATA ·dirShift+16(SB)/8, $7
DATA ·dirShift+24(SB)/8, $9
GLOBL ·dirShift(SB), RODATA|NOPTR, $32
DATA ·dirShift2+0(SB)/8, $2
DATA ·dirShift2+8(SB)/8, $16
DATA ·dirShift2+16(SB)/8, $14
DATA ·dirShift2+24(SB)/8, $18
GLOBL ·dirShift2(SB), RODATA|NOPTR, $32

DATA ·laneOne+0(SB)/8, $1
DATA ·laneOne+8(SB)/8, $1
DATA ·laneOne+16(SB)/8, $1
DATA ·laneOne+24(SB)/8, $1
GLOBL ·laneOne(SB), RODATA|NOPTR, $32

// The most significant bit in each lane, for FLIPSZ.
DATA ·topBit+0(SB)/8, $0x8000000000000000
GLOBL ·topBit(SB), RODATA|NOPTR, $8

// MOVES_BOTH(CANDIDATES): the body of movesBothAVX2 and movesBothAVX512,
// which differ only in the fill (MOVES_CANDIDATES or MOVES_CANDIDATESZ):
// the second fill runs with the two broadcasts swapped, sharing the setup
// and the call. (Before the first function: go vet reads what follows a
// TEXT line as that function's.)
#define MOVES_BOTH(CANDIDATES) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	MOVES_SETUP \
	CANDIDATES \
	ORQ  R9, R8 \
	ANDNQ BX, R8, BX \
	MOVQ BX, pm+16(FP) \
	VMOVDQU Y0, Y11 \
	VMOVDQU Y1, Y0 \
	VMOVDQU Y11, Y1 \
	CANDIDATES \
	ANDNQ BX, R8, BX \
	MOVQ BX, om+24(FP) \
	VZEROUPPER

// FLIPS_REPLIES(SETUP, FLIPS, CANDIDATES): the body of flipsRepliesAVX2
// and flipsRepliesAVX512: the flips of the move on sq into f, then the
// moves of the opponent, who moves next, into r. FLIPS is the kernel's
// FLIPS_LANES, folded here into every lane. The child's boards are
// built where the fill reads them, in the vector registers (o &^ f into
// Y0, p | sq | f into Y1 with p | sq broadcast
// while the flips run): a round trip through the general registers would
// lengthen the call's critical path, on which the endgame's move loop
// waits. (Before the first function, as MOVES_BOTH.)
#define FLIPS_REPLIES(SETUP, FLIPS, CANDIDATES) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	MOVBQSX sq+16(FP), CX \
	SETUP \
	MOVQ $1, R11 \
	SHLXQ CX, R11, R11 \
	ORQ  R8, R11 \
	VMOVQ R11, X1 \
	VPBROADCASTQ X1, Y1 \
	ORQ  R9, R11 \
	FLIPS \
	FOLD_Y4_ALL \
	VMOVQ X4, AX \
	VPANDN Y13, Y4, Y0 \
	VPOR Y4, Y1, Y1 \
	MOVES_MASKS \
	CANDIDATES \
	ANDNQ BX, R11, BX \
	VZEROUPPER \
	MOVQ AX, f+24(FP) \
	MOVQ BX, r+32(FP)

// func movesAVX2(p, o uint64) uint64
TEXT ·movesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVES_SETUP
	MOVES_CANDIDATES
	ORQ  R9, R8
	ANDNQ BX, R8, BX
	VZEROUPPER
	MOVQ BX, ret+16(FP)
	RET

// func flipsAVX2(p, o uint64, sq Square) uint64
TEXT ·flipsAVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVBQSX sq+16(FP), CX
	FLIPS_SETUP
	FLIPS
	VMOVQ X4, AX
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func flipsAVX512(p, o uint64, sq Square) uint64
TEXT ·flipsAVX512(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVBQSX sq+16(FP), CX
	FLIPSZ_SETUP
	FLIPSZ
	VMOVQ X4, AX
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func movesAVX512(p, o uint64) uint64
TEXT ·movesAVX512(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVES_SETUP
	MOVES_CANDIDATESZ
	ORQ  R9, R8
	ANDNQ BX, R8, BX
	VZEROUPPER
	MOVQ BX, ret+16(FP)
	RET

// func flipsRepliesAVX2(p, o uint64, sq Square) (f, r uint64)
TEXT ·flipsRepliesAVX2(SB), NOSPLIT, $0-40
	FLIPS_REPLIES(FLIPS_SETUP, FLIPS_LANES, MOVES_CANDIDATES)
	RET

// func flipsRepliesAVX512(p, o uint64, sq Square) (f, r uint64)
TEXT ·flipsRepliesAVX512(SB), NOSPLIT, $0-40
	FLIPS_REPLIES(FLIPSZ_SETUP, FLIPSZ_LANES, MOVES_CANDIDATESZ)
	RET

// func movesBothAVX2(p, o uint64) (pm, om uint64)
//
// movesAVX2 of (p, o) and of (o, p) in one call.
TEXT ·movesBothAVX2(SB), NOSPLIT, $0-32
	MOVES_BOTH(MOVES_CANDIDATES)
	RET

// func movesBothAVX512(p, o uint64) (pm, om uint64)
//
// movesBothAVX2 with the VPTERNLOGQ fill.
TEXT ·movesBothAVX512(SB), NOSPLIT, $0-32
	MOVES_BOTH(MOVES_CANDIDATESZ)
	RET
