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

// CHUNK(off, S): the 32-byte chunk at off of both readings. R is the
// placed square's row (AX), S the flipped rows' sum: the mover's reading
// (at R9 from the State) gains R - S (placed 0 -> 1, flipped 2 -> 1), the
// other's (at R10) 2R + S (0 -> 2, 1 -> 2). Both chunks of src are read
// before dst's are written, so dst may be src. Clobbers Y6, Y7 and S.
#define CHUNK(off, S) \
	VMOVDQU off(AX), Y6 \
	VPSUBD S, Y6, Y7 \
	VPADDD Y6, Y6, Y6 \
	VPADDD Y6, S, S \
	VPADDD off(SI)(R9*1), Y7, Y7 \
	VPADDD off(SI)(R10*1), S, S \
	VMOVDQU Y7, off(DI)(R9*1) \
	VMOVDQU S, off(DI)(R10*1)

// func playAVX2(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)
//
// Y0-Y5 sum the delta rows (deltaLanes = 48 lanes, 192 bytes a row) of
// the flipped squares; then each reading of src gains the placed square's
// row and the sum as CHUNK says, into dst. A reading is idxLen = 64 lanes,
// 256 bytes: the mover's starts at mover*256, the other's at the rest.
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
	MOVL CX, R9
	ANDL $1, R9
	SHLL $8, R9
	MOVL $256, R10
	SUBL R9, R10
	CHUNK(0, Y0)
	CHUNK(32, Y1)
	CHUNK(64, Y2)
	CHUNK(96, Y3)
	CHUNK(128, Y4)
	CHUNK(160, Y5)
	VZEROUPPER
	RET
