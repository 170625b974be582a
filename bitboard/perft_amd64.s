// The perft kernels: the last two or three plies of perft in one call (see
// perft_amd64.go), with the vector flips and move generator of
// moves_amd64.h. One body per kernel (PERFT_LEAVES, PERFT3), written out
// for AVX2 and for AVX-512 with that variant's setup, flips and fill.

#include "textflag.h"
#include "moves_amd64.h"

// The variants' steps. PSETUP_*: from p in R8 and o in R9, what the flips
// and the fill read (p and o broadcast to Y12 and Y13, the fill's masks and
// shifts in Y8-Y10, Y15 = 0). PFLIPS_*: Y4 = the flips of the move CX
// broadcast (folded into every lane) and Y1 = p | f | bit, so that the
// child's boards are made where the fill reads them; clobbers Y2-Y8, AX,
// SI and R12. PMOVES_*: BX = the candidate moves of Y0 against Y1, not
// yet masked by the empty squares; clobbers Y2-Y8.
//
// AVX-512: FLIPSZ reads ·topBit from Y8 where the fill reads ·dirMask, so
// each loads its own just before use.

#define PSETUP_AVX2 FLIPS_SETUP

#define PFLIPS_AVX2 \
	FLIPS_LANES \
	FOLD_Y4_ALL \
	VPOR Y12, Y4, Y1 \
	VPOR Y2, Y1, Y1

#define PMOVES_AVX2 MOVES_CANDIDATES

// CSETUP_AVX2: FLIPS_SETUP's masks of o for a new o in Y13 (Y8 = ·dirMask).
#define CSETUP_AVX2 \
	VPAND Y8, Y13, Y11 \
	VPSRLVQ Y9, Y11, Y14 \
	VPAND Y11, Y14, Y14

#define CSETUP_AVX512

#define PSETUP_AVX512 \
	FLIPSZ_SETUP \
	MOVES_MASKS

#define PFLIPS_AVX512 \
	MOVQ $1, SI \
	SHLXQ CX, SI, SI \
	VMOVQ SI, X2 \
	VPBROADCASTQ X2, Y2 \
	VPOR Y12, Y2, Y1 \
	VPBROADCASTQ ·topBit(SB), Y8 \
	FLIPSZ_LANES \
	FOLD_Y4_ALL \
	VPOR Y4, Y1, Y1

#define PMOVES_AVX512 \
	VMOVDQU ·dirMask(SB), Y8 \
	MOVES_CANDIDATESZ

// LEGAL_MOVES(PMOVES): BX = the moves of the position broadcast in Y12
// and Y13 (R8 and R9 in the general registers), DI = its empty squares.
#define LEGAL_MOVES(PMOVES) \
	VMOVDQU Y12, Y0 \
	VMOVDQU Y13, Y1 \
	PMOVES \
	MOVQ R8, DI \
	ORQ  R9, DI \
	NOTQ DI \
	ANDQ DI, BX

// ADD_LEAVES(ACC): adds to ACC the leaves below a child whose moves are in
// BX: one per move, or one if it has none (a pass, or the end of the
// game). Clobbers AX.
#define ADD_LEAVES(ACC) \
	POPCNTQ BX, BX \
	MOVQ    $1, AX \
	TESTQ   BX, BX \
	CMOVQEQ AX, BX \
	ADDQ    BX, ACC

// LEAVES_LOOP(PFLIPS, PMOVES, ACC, loop, exit): for each move in R10 of
// the position in Y12, Y13 (DI its empty squares), adds the child's leaves
// to ACC, then jumps to exit. loop is the loop's own label.
#define LEAVES_LOOP(PFLIPS, PMOVES, ACC, loop, exit) \
loop: \
	TESTQ  R10, R10 \
	JZ     exit \
	TZCNTQ R10, CX \
	BLSRQ  R10, R10 \
	PFLIPS \
	VPANDN Y13, Y4, Y0 \
	PMOVES \
	MOVQ DI, SI \
	BTRQ CX, SI \
	ANDQ SI, BX \
	ADD_LEAVES(ACC) \
	JMP     loop

// PERFT_LEAVES(SETUP, PFLIPS, PMOVES): the body of perftLeaves*: for each
// move of (p, o), the child's moves counted.
#define PERFT_LEAVES(SETUP, PFLIPS, PMOVES) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	SETUP \
	XORQ R13, R13 \
	LEGAL_MOVES(PMOVES) \
	MOVQ BX, R10 \
	LEAVES_LOOP(PFLIPS, PMOVES, R13, loop, done) \
done: \
	VZEROUPPER \
	MOVQ R13, ret+16(FP) \
	RET

// PERFT3(SETUP, PFLIPS, PMOVES, CSETUP): the body of perft3*: for each
// move of (p, o), the child's two plies as in PERFT_LEAVES, without
// returning to Go. The frame holds p and o while the registers serve the
// child, made in Y12 and Y13 (and R8, R9); CSETUP completes the setup for
// it. DX holds the moves of (p, o) left to play, DI the child's empty
// squares.
#define PERFT3(SETUP, PFLIPS, PMOVES, CSETUP) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	MOVQ R8, 0(SP) \
	MOVQ R9, 8(SP) \
	SETUP \
	XORQ R13, R13 \
	LEGAL_MOVES(PMOVES) \
	MOVQ BX, DX \
outer: \
	TESTQ  DX, DX \
	JZ     outdone \
	TZCNTQ DX, CX \
	BLSRQ  DX, DX \
	MOVQ 0(SP), R8 \
	MOVQ 8(SP), R9 \
	SETUP \
	PFLIPS \
	VPANDN Y13, Y4, Y12 \
	VMOVDQU Y1, Y13 \
	VMOVQ X12, R8 \
	VMOVQ X13, R9 \
	CSETUP \
	LEGAL_MOVES(PMOVES) \
	MOVQ BX, R10 \
	TESTQ R10, R10 \
	JNZ  inner \
	VMOVDQU Y13, Y0 \
	VMOVDQU Y12, Y1 \
	PMOVES \
	ANDQ DI, BX \
	ADD_LEAVES(R13) \
	JMP     outer \
	LEAVES_LOOP(PFLIPS, PMOVES, R13, inner, outer) \
outdone: \
	VZEROUPPER \
	MOVQ R13, ret+16(FP) \
	RET

// func perftLeavesAVX2(p, o uint64) uint64
TEXT ·perftLeavesAVX2(SB), NOSPLIT, $0-24
	PERFT_LEAVES(PSETUP_AVX2, PFLIPS_AVX2, PMOVES_AVX2)

// func perftLeavesAVX512(p, o uint64) uint64
TEXT ·perftLeavesAVX512(SB), NOSPLIT, $0-24
	PERFT_LEAVES(PSETUP_AVX512, PFLIPS_AVX512, PMOVES_AVX512)

// func perft3AVX2(p, o uint64) uint64
TEXT ·perft3AVX2(SB), NOSPLIT, $16-24
	PERFT3(PSETUP_AVX2, PFLIPS_AVX2, PMOVES_AVX2, CSETUP_AVX2)

// func perft3AVX512(p, o uint64) uint64
TEXT ·perft3AVX512(SB), NOSPLIT, $16-24
	PERFT3(PSETUP_AVX512, PFLIPS_AVX512, PMOVES_AVX512, CSETUP_AVX512)
