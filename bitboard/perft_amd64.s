// The perft kernel: the last two plies of perft in one call (see
// perft_amd64.go). It uses the vector move generator of moves_amd64.s and
// a scalar form of Flips.

#include "textflag.h"

// One direction pair of Flips towards higher bits, ray offset off(R12).
// In: R8 = p, R9 = o. Adds the flips to R13. Clobbers BX DX SI DI.
#define FLIP_UP(off) \
	MOVQ off(R12), DX \
	MOVQ DX, BX \
	NOTQ BX \
	ORQ  R9, BX \
	ADDQ $1, BX \
	ANDQ DX, BX \
	ANDQ R8, BX \
	LEAQ -1(BX), SI \
	ANDQ DX, SI \
	NEGQ BX \
	SBBQ DI, DI \
	ANDQ DI, SI \
	ORQ  SI, R13

// One direction of Flips towards lower bits. The highest non-o square of the
// ray is 1<<63 >> lzcnt; SHRX masks a count of 64 to 0, which leaves bit 63,
// never on such a ray, so the AND with the ray clears it.
#define FLIP_DOWN(off) \
	MOVQ  off(R12), DX \
	ANDNQ DX, R9, BX \
	LZCNTQ BX, BX \
	MOVQ  $0x8000000000000000, AX \
	SHRXQ BX, AX, BX \
	ANDQ  DX, BX \
	ANDQ  R8, BX \
	NEGQ  BX \
	ADDQ  BX, BX \
	ANDQ  DX, BX \
	ORQ   BX, R13

// func perftLeavesAVX2(p, o uint64) uint64
TEXT ·perftLeavesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	VMOVDQU ·dirMask(SB), Y8
	VMOVDQU ·dirShift(SB), Y9
	VMOVDQU ·dirShift2(SB), Y10
	XORQ R11, R11

	// R10 = legal moves of (p, o), by the same vector code as below.
	VMOVQ R8, X0
	VPBROADCASTQ X0, Y0
	VMOVQ R9, X1
	VPBROADCASTQ X1, Y1
	CALL ·movesCandidatesAVX2(SB)
	MOVQ R8, DI
	ORQ  R9, DI
	ANDNQ BX, DI, R10

loop:
	TESTQ R10, R10
	JZ    done
	TZCNTQ R10, CX
	BLSRQ R10, R10

	// R13 = Flips(p, o, CX)
	MOVQ CX, AX
	SHLQ $6, AX
	LEAQ ·rays(SB), R12
	ADDQ AX, R12
	XORQ R13, R13
	FLIP_UP(0)
	FLIP_UP(8)
	FLIP_UP(16)
	FLIP_UP(24)
	FLIP_DOWN(32)
	FLIP_DOWN(40)
	FLIP_DOWN(48)
	FLIP_DOWN(56)

	// Child: player SI = o &^ f, opponent DI = p | f | bit.
	ANDNQ R9, R13, SI
	MOVQ $1, DI
	SHLXQ CX, DI, DI
	ORQ  R8, DI
	ORQ  R13, DI
	VMOVQ SI, X0
	VPBROADCASTQ X0, Y0
	VMOVQ DI, X1
	VPBROADCASTQ X1, Y1
	CALL ·movesCandidatesAVX2(SB)
	ORQ  SI, DI
	ANDNQ BX, DI, BX
	POPCNTQ BX, BX
	// A child without moves is one leaf: a pass, or the end of the game.
	MOVQ $1, AX
	TESTQ BX, BX
	CMOVQEQ AX, BX
	ADDQ BX, R11
	JMP  loop

done:
	VZEROUPPER
	MOVQ R11, ret+16(FP)
	RET
