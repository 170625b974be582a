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

// SETROW512, ADDROW512 and CHUNK512 are SETROW, ADDROW and CHUNK in
// 16-lane registers: Z0-Z2 sum the flipped rows, Z6 and Z7 are scratch.
#define SETROW512 \
	VMOVDQU32 0(R8), Z0 \
	VMOVDQU32 64(R8), Z1 \
	VMOVDQU32 128(R8), Z2

#define ADDROW512 \
	VPADDD 0(R8), Z0, Z0 \
	VPADDD 64(R8), Z1, Z1 \
	VPADDD 128(R8), Z2, Z2

#define CHUNK512(off, S) \
	VMOVDQU32 off(AX), Z6 \
	VPSUBD    S, Z6, Z7 \
	VPADDD    Z6, Z6, Z6 \
	VPADDD    Z6, S, S \
	VPADDD    off(SI)(R9*1), Z7, Z7 \
	VPADDD    off(SI)(R10*1), S, S \
	VMOVDQU32 Z7, off(DI)(R9*1) \
	VMOVDQU32 S, off(DI)(R10*1)

// SUM256: AX = the sum of the weights (table at DI) at the 46 indexes in
// Y0-Y5 (lanes 46 and 47 padding). A gather consumes its mask register,
// so each takes a copy of the all-ones Y15; Y14 holds 1 in each dword
// (words 1, 0), so that VPMADDWD by it turns a gathered dword into its low
// word sign-extended. Clobbers Y6-Y15.
#define SUM256 \
	VPCMPEQD   Y15, Y15, Y15 \
	VPSRLD     $31, Y15, Y14 \
	VMOVDQA    Y15, Y6 \
	VPGATHERDD Y6, (DI)(Y0*2), Y8 \
	VMOVDQA    Y15, Y7 \
	VPGATHERDD Y7, (DI)(Y1*2), Y9 \
	VMOVDQA    Y15, Y6 \
	VPGATHERDD Y6, (DI)(Y2*2), Y10 \
	VMOVDQA    Y15, Y7 \
	VPGATHERDD Y7, (DI)(Y3*2), Y11 \
	VMOVDQA    Y15, Y6 \
	VPGATHERDD Y6, (DI)(Y4*2), Y12 \
	VMOVDQA    Y15, Y7 \
	VPGATHERDD Y7, (DI)(Y5*2), Y13 \
	VPXOR      Y6, Y6, Y6 \
	VPBLENDD   $0xC0, Y6, Y13, Y13 \
	VPMADDWD   Y14, Y8, Y8 \
	VPMADDWD   Y14, Y9, Y9 \
	VPMADDWD   Y14, Y10, Y10 \
	VPMADDWD   Y14, Y11, Y11 \
	VPMADDWD   Y14, Y12, Y12 \
	VPMADDWD   Y14, Y13, Y13 \
	VPADDD     Y9, Y8, Y8 \
	VPADDD     Y11, Y10, Y10 \
	VPADDD     Y13, Y12, Y12 \
	VPADDD     Y10, Y8, Y8 \
	VPADDD     Y12, Y8, Y8 \
	VEXTRACTI128 $1, Y8, X9 \
	VPADDD     X9, X8, X8 \
	VPSHUFD    $0x4E, X8, X9 \
	VPADDD     X9, X8, X8 \
	VPSHUFD    $0xB1, X8, X9 \
	VPADDD     X9, X8, X8 \
	VMOVD      X8, AX \
	MOVLQSX    AX, AX

// SUM512: SUM256 from Z0-Z2 in three 16-lane gathers, the third masked to
// lanes 0-13 (instances 32-45; the padding lanes stay at the zero they
// start from). VPSLLD and VPSRAD sign-extend each dword's low word
// (VPMADDWD on 512 bits would need AVX-512 BW). Clobbers Z3-Z5, K1-K3.
#define SUM512 \
	MOVL       $0xFFFF, AX \
	KMOVW      AX, K1 \
	KMOVW      AX, K2 \
	MOVL       $0x3FFF, AX \
	KMOVW      AX, K3 \
	VPXORD     Z5, Z5, Z5 \
	VPGATHERDD (DI)(Z0*2), K1, Z3 \
	VPGATHERDD (DI)(Z1*2), K2, Z4 \
	VPGATHERDD (DI)(Z2*2), K3, Z5 \
	VPSLLD     $16, Z3, Z3 \
	VPSLLD     $16, Z4, Z4 \
	VPSLLD     $16, Z5, Z5 \
	VPSRAD     $16, Z3, Z3 \
	VPSRAD     $16, Z4, Z4 \
	VPSRAD     $16, Z5, Z5 \
	VPADDD     Z4, Z3, Z3 \
	VPADDD     Z5, Z3, Z3 \
	VEXTRACTI64X4 $1, Z3, Y4 \
	VPADDD     Y4, Y3, Y3 \
	VEXTRACTI128 $1, Y3, X4 \
	VPADDD     X4, X3, X3 \
	VPSHUFD    $0x4E, X3, X4 \
	VPADDD     X4, X3, X3 \
	VPSHUFD    $0xB1, X3, X4 \
	VPADDD     X4, X3, X3 \
	VMOVD      X3, AX \
	MOVLQSX    AX, AX

// func patternSumAVX2(t *[stageSize]int16, idx *[idxLen]uint32) int
TEXT ·patternSumAVX2(SB), NOSPLIT, $0-24
	MOVQ t+0(FP), DI
	MOVQ idx+8(FP), SI
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	SUM256
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET

// func patternSumAVX512(t *[stageSize]int16, idx *[idxLen]uint32) int
TEXT ·patternSumAVX512(SB), NOSPLIT, $0-24
	MOVQ t+0(FP), DI
	MOVQ idx+8(FP), SI
	VMOVDQU32 0(SI), Z0
	VMOVDQU32 64(SI), Z1
	VMOVDQU32 128(SI), Z2
	SUM512
	VZEROUPPER
	MOVQ AX, ret+16(FP)
	RET

// PLACED(off, R, scratch): R += twice the placed square's row (at AX) and
// the reading's chunk (at SI), at off: the reading of the side not moving
// after the move (placed 0 -> 2, the flipped 1 -> 2, whose sum R holds).
#define PLACED(off, R, scratch) \
	VMOVDQU off(AX), scratch \
	VPADDD  scratch, scratch, scratch \
	VPADDD  scratch, R, R \
	VPADDD  off(SI), R, R

#define PLACED512(off, R, scratch) \
	VMOVDQU32 off(AX), scratch \
	VPADDD    scratch, scratch, scratch \
	VPADDD    scratch, R, R \
	VPADDD    off(SI), R, R

// func playSumAVX2(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int
//
// playAVX2's row sums for the one reading the child's side to move reads,
// then SUM256 straight from the registers.
TEXT ·playSumAVX2(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ delta+16(FP), DX
	MOVQ sq+24(FP), AX
	MOVQ flips+32(FP), BX
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
	PLACED(0, Y0, Y6)
	PLACED(32, Y1, Y6)
	PLACED(64, Y2, Y6)
	PLACED(96, Y3, Y6)
	PLACED(128, Y4, Y6)
	PLACED(160, Y5, Y6)
	SUM256
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func playSumAVX512(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int
TEXT ·playSumAVX512(SB), NOSPLIT, $0-48
	MOVQ t+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ delta+16(FP), DX
	MOVQ sq+24(FP), AX
	MOVQ flips+32(FP), BX
	NEXTROW
	SETROW512
	NEXTROW
	ADDROW512
	NEXTROW
	ADDROW512
	JZ   placed
flip:
	NEXTROW
	ADDROW512
	JNZ  flip
placed:
	LEAQ (AX)(AX*2), AX
	SHLQ $6, AX
	ADDQ DX, AX
	PLACED512(0, Z0, Z6)
	PLACED512(64, Z1, Z6)
	PLACED512(128, Z2, Z6)
	SUM512
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func playAVX512(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)
TEXT ·playAVX512(SB), NOSPLIT, $0-44
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ delta+16(FP), DX
	MOVQ sq+24(FP), AX
	MOVQ flips+32(FP), BX
	MOVL mover+40(FP), CX
	NEXTROW
	SETROW512
	NEXTROW
	ADDROW512
	NEXTROW
	ADDROW512
	JZ   placed512
flip512:
	NEXTROW
	ADDROW512
	JNZ  flip512
placed512:
	LEAQ (AX)(AX*2), AX
	SHLQ $6, AX
	ADDQ DX, AX
	MOVL CX, R9
	ANDL $1, R9
	SHLL $8, R9
	MOVL $256, R10
	SUBL R9, R10
	CHUNK512(0, Z0)
	CHUNK512(64, Z1)
	CHUNK512(128, Z2)
	VZEROUPPER
	RET
