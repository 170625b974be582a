// Moves and Flips with AVX2; moves_amd64.go says what they do and when
// they are used (cpu_amd64.go decides).

#include "textflag.h"

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

// movesCandidatesAVX2 computes the move candidates of the player broadcast in Y0
// against the opponent broadcast in Y1, all four directions at once, one per
// 64-bit lane (Kogge-Stone as in Moves). Returns them in BX, not yet masked
// with the empty squares. Needs Y8-Y10 loaded; clobbers Y2-Y7.
TEXT ·movesCandidatesAVX2(SB), NOSPLIT|NOFRAME, $0-0
	VPAND   Y8, Y1, Y2          // m = o & mask
	// Towards higher bits.
	VPSLLVQ Y9, Y0, Y3
	VPAND   Y2, Y3, Y3          // l = m & (p << s)
	VPSLLVQ Y9, Y3, Y4
	VPAND   Y2, Y4, Y4
	VPOR    Y4, Y3, Y3          // l |= m & (l << s)
	VPSLLVQ Y9, Y2, Y5
	VPAND   Y2, Y5, Y5          // pl = m & (m << s)
	VPSLLVQ Y10, Y3, Y4
	VPAND   Y5, Y4, Y4
	VPOR    Y4, Y3, Y3          // l |= pl & (l << 2s)
	VPSLLVQ Y10, Y3, Y4
	VPAND   Y5, Y4, Y4
	VPOR    Y4, Y3, Y3
	VPSLLVQ Y9, Y3, Y3          // moves towards higher bits
	// Towards lower bits.
	VPSRLVQ Y9, Y0, Y6
	VPAND   Y2, Y6, Y6          // r = m & (p >> s)
	VPSRLVQ Y9, Y6, Y4
	VPAND   Y2, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y9, Y5, Y7          // pr = pl >> s
	VPSRLVQ Y10, Y6, Y4
	VPAND   Y7, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y10, Y6, Y4
	VPAND   Y7, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y9, Y6, Y6
	VPOR    Y6, Y3, Y3
	// OR the four lanes together.
	VEXTRACTI128 $1, Y3, X4
	VPOR    X4, X3, X3
	VPSHUFD $0x4E, X3, X4
	VPOR    X4, X3, X3
	VMOVQ   X3, BX
	RET

// func movesAVX2(p, o uint64) uint64
TEXT ·movesAVX2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	VMOVDQU ·dirMask(SB), Y8
	VMOVDQU ·dirShift(SB), Y9
	VMOVDQU ·dirShift2(SB), Y10
	VMOVQ R8, X0
	VPBROADCASTQ X0, Y0
	VMOVQ R9, X1
	VPBROADCASTQ X1, Y1
	CALL ·movesCandidatesAVX2(SB)
	ORQ  R9, R8
	ANDNQ BX, R8, BX
	VZEROUPPER
	MOVQ BX, ret+16(FP)
	RET

// func flipsAVX2(p, o uint64, sq Square) uint64
//
// The discs flipped by a move at sq, all eight directions in two registers:
// from the move's bit, a Kogge-Stone fill over the o discs in each lane's
// direction (towards higher bits in one register, lower in the other); a
// lane's run flips when the square just past it holds a p disc.
TEXT ·flipsAVX2(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVBQSX sq+16(FP), CX
	VMOVDQU ·dirMask(SB), Y8
	VMOVDQU ·dirShift(SB), Y9
	VMOVDQU ·dirShift2(SB), Y10
	MOVQ $1, AX
	SHLXQ CX, AX, AX
	VMOVQ AX, X0
	VPBROADCASTQ X0, Y0        // the move
	VMOVQ R9, X1
	VPBROADCASTQ X1, Y1
	VPAND   Y8, Y1, Y2         // m = o & mask
	VMOVQ R8, X1
	VPBROADCASTQ X1, Y1        // p
	VPXOR   Y11, Y11, Y11      // zero
	// Towards higher bits.
	VPSLLVQ Y9, Y0, Y3
	VPAND   Y2, Y3, Y3         // f = m & (x << s)
	VPSLLVQ Y9, Y3, Y4
	VPAND   Y2, Y4, Y4
	VPOR    Y4, Y3, Y3         // f |= m & (f << s)
	VPSLLVQ Y9, Y2, Y5
	VPAND   Y2, Y5, Y5         // pre = m & (m << s)
	VPSLLVQ Y10, Y3, Y4
	VPAND   Y5, Y4, Y4
	VPOR    Y4, Y3, Y3         // f |= pre & (f << 2s)
	VPSLLVQ Y10, Y3, Y4
	VPAND   Y5, Y4, Y4
	VPOR    Y4, Y3, Y3
	VPSLLVQ Y9, Y3, Y4
	VPAND   Y1, Y4, Y4         // the square past the run holds p?
	VPCMPEQQ Y11, Y4, Y4       // all ones where it does not
	VPANDN  Y3, Y4, Y3         // keep the runs that are outflanked
	// Towards lower bits.
	VPSRLVQ Y9, Y0, Y6
	VPAND   Y2, Y6, Y6
	VPSRLVQ Y9, Y6, Y4
	VPAND   Y2, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y9, Y5, Y7         // pre >> s
	VPSRLVQ Y10, Y6, Y4
	VPAND   Y7, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y10, Y6, Y4
	VPAND   Y7, Y4, Y4
	VPOR    Y4, Y6, Y6
	VPSRLVQ Y9, Y6, Y4
	VPAND   Y1, Y4, Y4
	VPCMPEQQ Y11, Y4, Y4
	VPANDN  Y6, Y4, Y6
	VPOR    Y6, Y3, Y3
	VEXTRACTI128 $1, Y3, X4
	VPOR    X4, X3, X3
	VPSHUFD $0x4E, X3, X4
	VPOR    X4, X3, X3
	VMOVQ   X3, AX
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
