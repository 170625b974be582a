#include "textflag.h"

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
	// The first three flipped squares without a branch (TZCNTQ of no bits
	// is 64, the zero row): the loop's exit, after a varying count, was
	// mispredicted about once a call.
	TZCNTQ BX, R8
	LEAQ (R8)(R8*2), R8
	SHLQ $6, R8
	ADDQ DX, R8
	VMOVDQU 0(R8), Y0
	VMOVDQU 32(R8), Y1
	VMOVDQU 64(R8), Y2
	VMOVDQU 96(R8), Y3
	VMOVDQU 128(R8), Y4
	VMOVDQU 160(R8), Y5
	BLSRQ BX, BX
	TZCNTQ BX, R8
	LEAQ (R8)(R8*2), R8
	SHLQ $6, R8
	ADDQ DX, R8
	VPADDD 0(R8), Y0, Y0
	VPADDD 32(R8), Y1, Y1
	VPADDD 64(R8), Y2, Y2
	VPADDD 96(R8), Y3, Y3
	VPADDD 128(R8), Y4, Y4
	VPADDD 160(R8), Y5, Y5
	BLSRQ BX, BX
	TZCNTQ BX, R8
	LEAQ (R8)(R8*2), R8
	SHLQ $6, R8
	ADDQ DX, R8
	VPADDD 0(R8), Y0, Y0
	VPADDD 32(R8), Y1, Y1
	VPADDD 64(R8), Y2, Y2
	VPADDD 96(R8), Y3, Y3
	VPADDD 128(R8), Y4, Y4
	VPADDD 160(R8), Y5, Y5
	BLSRQ BX, BX
	JZ   placed
flip:
	TZCNTQ BX, R8
	LEAQ (R8)(R8*2), R8
	SHLQ $6, R8
	ADDQ DX, R8
	VPADDD 0(R8), Y0, Y0
	VPADDD 32(R8), Y1, Y1
	VPADDD 64(R8), Y2, Y2
	VPADDD 96(R8), Y3, Y3
	VPADDD 128(R8), Y4, Y4
	VPADDD 160(R8), Y5, Y5
	BLSRQ BX, BX
	JNZ  flip
placed:
	LEAQ (AX)(AX*2), AX
	SHLQ $6, AX
	ADDQ DX, AX
	TESTL CX, CX
	JNZ  other
	VMOVDQU 0(SI), Y6
	VPADDD 0(AX), Y6, Y6
	VPSUBD Y0, Y6, Y6
	VMOVDQU Y6, 0(DI)
	VMOVDQU 32(SI), Y6
	VPADDD 32(AX), Y6, Y6
	VPSUBD Y1, Y6, Y6
	VMOVDQU Y6, 32(DI)
	VMOVDQU 64(SI), Y6
	VPADDD 64(AX), Y6, Y6
	VPSUBD Y2, Y6, Y6
	VMOVDQU Y6, 64(DI)
	VMOVDQU 96(SI), Y6
	VPADDD 96(AX), Y6, Y6
	VPSUBD Y3, Y6, Y6
	VMOVDQU Y6, 96(DI)
	VMOVDQU 128(SI), Y6
	VPADDD 128(AX), Y6, Y6
	VPSUBD Y4, Y6, Y6
	VMOVDQU Y6, 128(DI)
	VMOVDQU 160(SI), Y6
	VPADDD 160(AX), Y6, Y6
	VPSUBD Y5, Y6, Y6
	VMOVDQU Y6, 160(DI)
	VZEROUPPER
	RET
other:
	VMOVDQU 0(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 0(SI), Y0, Y0
	VPADDD Y6, Y0, Y0
	VMOVDQU Y0, 0(DI)
	VMOVDQU 32(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 32(SI), Y1, Y1
	VPADDD Y6, Y1, Y1
	VMOVDQU Y1, 32(DI)
	VMOVDQU 64(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 64(SI), Y2, Y2
	VPADDD Y6, Y2, Y2
	VMOVDQU Y2, 64(DI)
	VMOVDQU 96(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 96(SI), Y3, Y3
	VPADDD Y6, Y3, Y3
	VMOVDQU Y3, 96(DI)
	VMOVDQU 128(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 128(SI), Y4, Y4
	VPADDD Y6, Y4, Y4
	VMOVDQU Y4, 128(DI)
	VMOVDQU 160(AX), Y6
	VPADDD Y6, Y6, Y6
	VPADDD 160(SI), Y5, Y5
	VPADDD Y6, Y5, Y5
	VMOVDQU Y5, 160(DI)
	VZEROUPPER
	RET
