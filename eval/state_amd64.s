#include "textflag.h"

// NEXTROW: R8 = the delta row of the lowest square in BX (the zero row 64
// when BX is empty: TZCNTQ of no bits is 64), which BX loses; the flags
// tell whether squares remain. Clobbers R8.
#define NEXTROW \
	TZCNTQ BX, R8 \
	LEAQ (R8)(R8*2), R8 \
	SHLQ $6, R8 \
	ADDQ DX, R8 \
	BLSRQ BX, BX

// SETROW and ADDROW set Y0-Y5 to the row at R8, or add it to them (no
// flags changed).
#define SETROW \
	VMOVDQU 0(R8), Y0 \
	VMOVDQU 32(R8), Y1 \
	VMOVDQU 64(R8), Y2 \
	VMOVDQU 96(R8), Y3 \
	VMOVDQU 128(R8), Y4 \
	VMOVDQU 160(R8), Y5

#define ADDROW \
	VPADDD 0(R8), Y0, Y0 \
	VPADDD 32(R8), Y1, Y1 \
	VPADDD 64(R8), Y2, Y2 \
	VPADDD 96(R8), Y3, Y3 \
	VPADDD 128(R8), Y4, Y4 \
	VPADDD 160(R8), Y5, Y5

// MOVER0(off, S) and MOVER1(off, S): the 32-byte chunk at off of dst (DI)
// from src (SI), the placed square's row (AX) and the flipped rows' sum S,
// for reader 0 to move (src + row - S) or the other side (src + 2 row +
// S). Clobbers Y6 (and S for MOVER1).
#define MOVER0(off, S) \
	VMOVDQU off(SI), Y6 \
	VPADDD off(AX), Y6, Y6 \
	VPSUBD S, Y6, Y6 \
	VMOVDQU Y6, off(DI)

#define MOVER1(off, S) \
	VMOVDQU off(AX), Y6 \
	VPADDD Y6, Y6, Y6 \
	VPADDD off(SI), S, S \
	VPADDD Y6, S, S \
	VMOVDQU S, off(DI)

// func playAVX2(dst, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)
//
// Y0-Y5 sum the delta rows (deltaLanes = 48 lanes, 192 bytes a row) of
// the flipped squares; then dst = src + row(sq) - sum for mover 0 (the
// placed square 0 -> 1, the flipped 2 -> 1) or src + 2 row(sq) + sum for
// mover 1 (0 -> 2, 1 -> 2). Each 32-byte chunk of src is read before the
// same chunk of dst is written, so dst may be src.
TEXT ·playAVX2(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ delta+16(FP), DX
	MOVQ sq+24(FP), AX
	MOVQ flips+32(FP), BX
	MOVL mover+40(FP), CX
	// The first three flipped squares without a branch (the zero row
	// stands in for missing ones): the loop's exit, after a varying
	// count, was mispredicted about once a call.
	NEXTROW
	SETROW
	NEXTROW
	ADDROW
	NEXTROW
	ADDROW
	JZ   placed
flip:
	NEXTROW
	ADDROW
	JNZ  flip
placed:
	LEAQ (AX)(AX*2), AX
	SHLQ $6, AX
	ADDQ DX, AX
	TESTL CX, CX
	JNZ  other
	MOVER0(0, Y0)
	MOVER0(32, Y1)
	MOVER0(64, Y2)
	MOVER0(96, Y3)
	MOVER0(128, Y4)
	MOVER0(160, Y5)
	VZEROUPPER
	RET
other:
	MOVER1(0, Y0)
	MOVER1(32, Y1)
	MOVER1(64, Y2)
	MOVER1(96, Y3)
	MOVER1(128, Y4)
	MOVER1(160, Y5)
	VZEROUPPER
	RET
