// The perft kernel: the last two plies of perft in one call (see
// perft_amd64.go), with the vector Flips and move generator of
// moves_amd64.h.

#include "textflag.h"
#include "moves_amd64.h"

// The AVX-512 twins: FLIPSZ (VPLZCNTQ) for the flips and the VPTERNLOGQ
// fill. FLIPSZ reads ·topBit from Y8 where the fill reads ·dirMask, so
// each loads its own just before use (ZFLIPS, ZMOVES); the shifts stay in
// Y9 and Y10. The flips are folded into every lane (FOLD_Y4_ALL) and the
// child's boards made where the fill reads them, as in FLIPS_REPLIES.

// ZFLIPS: Y4 = the flips of the move CX broadcast, Y1 = p | f | bit.
// Reads Y12 = p, Y13 = o, Y15 = 0; clobbers Y2-Y8, AX, SI and R12.
#define ZFLIPS \
	MOVQ $1, SI \
	SHLXQ CX, SI, SI \
	VMOVQ SI, X2 \
	VPBROADCASTQ X2, Y2 \
	VPOR Y12, Y2, Y1 \
	VPBROADCASTQ ·topBit(SB), Y8 \
	FLIPSZ_LANES \
	FOLD_Y4_ALL \
	VPOR Y4, Y1, Y1

// ZMOVES: BX = the candidate moves of Y0 against Y1 (not yet masked by
// the empty squares). Clobbers Y2-Y8.
#define ZMOVES \
	VMOVDQU ·dirMask(SB), Y8 \
	MOVES_CANDIDATESZ

// func perftLeavesAVX2(p, o uint64) uint64
TEXT ·perftLeavesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	FLIPS_SETUP
	XORQ R11, R11

	// R10 = legal moves of (p, o); DI = the empty squares.
	VMOVDQU Y12, Y0
	VMOVDQU Y13, Y1
	MOVES_CANDIDATES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI
	ANDQ DI, BX
	MOVQ BX, R10

loop:
	TESTQ  R10, R10
	JZ     done
	TZCNTQ R10, CX
	BLSRQ  R10, R10

	// X4 = flips of the move CX, Y2 = its bit.
	FLIPS

	// The child, still broadcast: player Y0 = o &^ f, opponent Y1 = p | f | bit.
	VPBROADCASTQ X4, Y4
	VPANDN Y13, Y4, Y0
	VPOR   Y12, Y4, Y1
	VPOR   Y2, Y1, Y1
	MOVES_CANDIDATES
	MOVQ DI, SI
	BTRQ CX, SI
	ANDQ SI, BX
	POPCNTQ BX, BX

	// A child without moves is one leaf: a pass, or the end of the game.
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R11
	JMP     loop

done:
	VZEROUPPER
	MOVQ R11, ret+16(FP)
	RET

// func perft3AVX2(p, o uint64) uint64
//
// The last three plies: for each move of (p, o), the child's two plies as
// in perftLeavesAVX2, without returning to Go. The frame holds p and o
// while the registers serve the child.
TEXT ·perft3AVX2(SB), NOSPLIT, $16-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVQ R8, 0(SP)
	MOVQ R9, 8(SP)
	FLIPS_SETUP
	XORQ R13, R13
	VMOVDQU Y12, Y0
	VMOVDQU Y13, Y1
	MOVES_CANDIDATES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI
	ANDQ DI, BX
	MOVQ BX, DX           // DX = the moves of (p, o) left to play

outer:
	TESTQ  DX, DX
	JZ     outdone
	TZCNTQ DX, CX
	BLSRQ  DX, DX
	MOVQ 0(SP), R8
	MOVQ 8(SP), R9
	FLIPS_SETUP
	FLIPS
	VMOVQ X4, AX
	// The child: player R8 = o &^ f, opponent R9 = p | f | bit.
	MOVQ  R8, BX
	ANDNQ R9, AX, R8
	ORQ   AX, BX
	BTSQ  CX, BX
	MOVQ  BX, R9
	FLIPS_SETUP
	VMOVDQU Y12, Y0
	VMOVDQU Y13, Y1
	MOVES_CANDIDATES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI               // DI = the child's empty squares
	ANDQ DI, BX
	MOVQ BX, R10
	TESTQ R10, R10
	JNZ  inner

	// The child must pass: one leaf per move of the other side, or one
	// leaf if the game is over.
	VMOVDQU Y13, Y0
	VMOVDQU Y12, Y1
	MOVES_CANDIDATES
	ANDQ DI, BX
	POPCNTQ BX, BX
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R13
	JMP     outer

inner:
	TESTQ  R10, R10
	JZ     outer
	TZCNTQ R10, CX
	BLSRQ  R10, R10
	FLIPS
	VPBROADCASTQ X4, Y4
	VPANDN Y13, Y4, Y0
	VPOR   Y12, Y4, Y1
	VPOR   Y2, Y1, Y1
	MOVES_CANDIDATES
	MOVQ DI, SI
	BTRQ CX, SI
	ANDQ SI, BX
	POPCNTQ BX, BX
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R13
	JMP     inner

outdone:
	VZEROUPPER
	MOVQ R13, ret+16(FP)
	RET

// func perftLeavesAVX512(p, o uint64) uint64
TEXT ·perftLeavesAVX512(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	FLIPSZ_SETUP
	MOVES_MASKS
	XORQ R11, R11
	VMOVDQU Y12, Y0
	VMOVDQU Y13, Y1
	ZMOVES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI
	ANDQ DI, BX
	MOVQ BX, R10

zloop:
	TESTQ  R10, R10
	JZ     zdone
	TZCNTQ R10, CX
	BLSRQ  R10, R10
	ZFLIPS
	VPANDN Y13, Y4, Y0
	ZMOVES
	MOVQ DI, SI
	BTRQ CX, SI
	ANDQ SI, BX
	POPCNTQ BX, BX
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R11
	JMP     zloop

zdone:
	VZEROUPPER
	MOVQ R11, ret+16(FP)
	RET

// func perft3AVX512(p, o uint64) uint64
//
// perft3AVX2 with the AVX-512 flips and fill.
TEXT ·perft3AVX512(SB), NOSPLIT, $16-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVQ R8, 0(SP)
	MOVQ R9, 8(SP)
	FLIPSZ_SETUP
	MOVES_MASKS
	XORQ R13, R13
	VMOVDQU Y12, Y0
	VMOVDQU Y13, Y1
	ZMOVES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI
	ANDQ DI, BX
	MOVQ BX, DX           // DX = the moves of (p, o) left to play

zouter:
	TESTQ  DX, DX
	JZ     zoutdone
	TZCNTQ DX, CX
	BLSRQ  DX, DX
	MOVQ 0(SP), R8
	MOVQ 8(SP), R9
	VMOVQ R8, X12
	VPBROADCASTQ X12, Y12
	VMOVQ R9, X13
	VPBROADCASTQ X13, Y13
	ZFLIPS
	// The child, broadcast: player Y12 = o &^ f, opponent Y13 = Y1 =
	// p | f | bit; and in R8, R9.
	VPANDN Y13, Y4, Y12
	VMOVDQU Y1, Y13
	VMOVQ X12, R8
	VMOVQ X13, R9
	VMOVDQU Y12, Y0
	ZMOVES
	MOVQ R8, DI
	ORQ  R9, DI
	NOTQ DI               // DI = the child's empty squares
	ANDQ DI, BX
	MOVQ BX, R10
	TESTQ R10, R10
	JNZ  zinner

	// The child must pass: one leaf per move of the other side, or one
	// leaf if the game is over.
	VMOVDQU Y13, Y0
	VMOVDQU Y12, Y1
	ZMOVES
	ANDQ DI, BX
	POPCNTQ BX, BX
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R13
	JMP     zouter

zinner:
	TESTQ  R10, R10
	JZ     zouter
	TZCNTQ R10, CX
	BLSRQ  R10, R10
	ZFLIPS
	VPANDN Y13, Y4, Y0
	ZMOVES
	MOVQ DI, SI
	BTRQ CX, SI
	ANDQ SI, BX
	POPCNTQ BX, BX
	MOVQ    $1, AX
	TESTQ   BX, BX
	CMOVQEQ AX, BX
	ADDQ    BX, R13
	JMP     zinner

zoutdone:
	VZEROUPPER
	MOVQ R13, ret+16(FP)
	RET
