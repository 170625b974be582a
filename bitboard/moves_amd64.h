// Macros shared by moves_amd64.s and perft_amd64.s. Register use is
// fixed; each macro says which registers it reads and clobbers.

// MOVES_CANDIDATES: the move candidates of the player broadcast in Y0
// against the opponent broadcast in Y1, all four directions at once, one per
// 64-bit lane (Kogge-Stone as in Moves), OR-ed into BX, not yet masked with
// the empty squares. Reads Y8-Y10 (·dirMask, ·dirShift, ·dirShift2);
// clobbers Y2-Y7.
#define MOVES_CANDIDATES \
	VPAND   Y8, Y1, Y2 \
	VPSLLVQ Y9, Y0, Y3 \
	VPAND   Y2, Y3, Y3 \
	VPSLLVQ Y9, Y3, Y4 \
	VPAND   Y2, Y4, Y4 \
	VPOR    Y4, Y3, Y3 \
	VPSLLVQ Y9, Y2, Y5 \
	VPAND   Y2, Y5, Y5 \
	VPSLLVQ Y10, Y3, Y4 \
	VPAND   Y5, Y4, Y4 \
	VPOR    Y4, Y3, Y3 \
	VPSLLVQ Y10, Y3, Y4 \
	VPAND   Y5, Y4, Y4 \
	VPOR    Y4, Y3, Y3 \
	VPSLLVQ Y9, Y3, Y3 \
	VPSRLVQ Y9, Y0, Y6 \
	VPAND   Y2, Y6, Y6 \
	VPSRLVQ Y9, Y6, Y4 \
	VPAND   Y2, Y4, Y4 \
	VPOR    Y4, Y6, Y6 \
	VPSRLVQ Y9, Y5, Y7 \
	VPSRLVQ Y10, Y6, Y4 \
	VPAND   Y7, Y4, Y4 \
	VPOR    Y4, Y6, Y6 \
	VPSRLVQ Y10, Y6, Y4 \
	VPAND   Y7, Y4, Y4 \
	VPOR    Y4, Y6, Y6 \
	VPSRLVQ Y9, Y6, Y6 \
	VPOR    Y6, Y3, Y3 \
	VEXTRACTI128 $1, Y3, X4 \
	VPOR    X4, X3, X3 \
	VPSHUFD $0x4E, X3, X4 \
	VPOR    X4, X3, X3 \
	VMOVQ   X3, BX

// MOVES_CANDIDATESZ is MOVES_CANDIDATES with AVX-512 VL: each "x |= m &
// y" of the fill is one VPTERNLOGQ (0xF8: A | B & C) instead of an AND
// and an OR, which shortens the fill's dependency chains. Same registers.
#define MOVES_CANDIDATESZ \
	VPAND   Y8, Y1, Y2 \
	VPSLLVQ Y9, Y0, Y3 \
	VPAND   Y2, Y3, Y3 \
	VPSLLVQ Y9, Y3, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y2, Y3 \
	VPSLLVQ Y9, Y2, Y5 \
	VPAND   Y2, Y5, Y5 \
	VPSLLVQ Y10, Y3, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y5, Y3 \
	VPSLLVQ Y10, Y3, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y5, Y3 \
	VPSLLVQ Y9, Y3, Y3 \
	VPSRLVQ Y9, Y0, Y6 \
	VPAND   Y2, Y6, Y6 \
	VPSRLVQ Y9, Y6, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y2, Y6 \
	VPSRLVQ Y9, Y5, Y7 \
	VPSRLVQ Y10, Y6, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y7, Y6 \
	VPSRLVQ Y10, Y6, Y4 \
	VPTERNLOGQ $0xF8, Y4, Y7, Y6 \
	VPSRLVQ Y9, Y6, Y6 \
	VPOR    Y6, Y3, Y3 \
	VEXTRACTI128 $1, Y3, X4 \
	VPOR    X4, X3, X3 \
	VPSHUFD $0x4E, X3, X4 \
	VPOR    X4, X3, X3 \
	VMOVQ   X3, BX

// FOLD_Y4 ORs Y4's four lanes into X4's low quadword (the flips of all
// directions into one mask); clobbers X5. FLIPS and FLIPSZ end with it.
#define FOLD_Y4 \
	VEXTRACTI128 $1, Y4, X5 \
	VPOR X5, X4, X4 \
	VPSHUFD $0x4E, X4, X5 \
	VPOR X5, X4, X4

// FOLD_Y4_ALL ORs Y4's four lanes into each of them, in as many steps as
// FOLD_Y4: for a caller that goes on with the flips broadcast (no
// broadcast after the fold). Clobbers Y5.
#define FOLD_Y4_ALL \
	VPERMQ $0x4E, Y4, Y5 \
	VPOR Y5, Y4, Y4 \
	VPSHUFD $0x4E, Y4, Y5 \
	VPOR Y5, Y4, Y4

// MOVES_MASKS loads the direction masks and shifts that
// MOVES_CANDIDATES(Z) reads into Y8-Y10.
#define MOVES_MASKS \
	VMOVDQU ·dirMask(SB), Y8 \
	VMOVDQU ·dirShift(SB), Y9 \
	VMOVDQU ·dirShift2(SB), Y10

// MOVES_SETUP loads what MOVES_CANDIDATES(Z) reads, from p in R8 and o in
// R9: the direction masks and shifts, and p and o broadcast to Y0, Y1.
#define MOVES_SETUP \
	MOVES_MASKS \
	VMOVQ R8, X0 \
	VPBROADCASTQ X0, Y0 \
	VMOVQ R9, X1 \
	VPBROADCASTQ X1, Y1

// FLIPS_LANES: the discs flipped by a move on square CX, one direction in
// each lane of Y4 (FLIPS folds them). Reads Y12 = p and Y13 = o broadcast, Y11 = o &
// ·dirMask, Y14 = Y11 & (Y11 >> ·dirShift), Y15 = 0, Y9 and Y10; leaves the
// move's bit broadcast in Y2; clobbers Y3-Y7, AX and R12.
//
// Towards higher bits (the four rays of ·rays[CX][0:4], one per lane) the
// first square of the ray that is not o is the lowest set bit of ^o & ray;
// the o discs below it flip if it holds a p disc. Towards lower bits there is
// no vector count of leading zeros in AVX2, so a Kogge-Stone fill over the o
// discs from the move runs instead, and flips if the square past it holds p.
#define FLIPS_LANES \
	MOVQ CX, AX \
	SHLQ $6, AX \
	LEAQ ·rays(SB), R12 \
	VMOVDQU (R12)(AX*1), Y3 \
	VPANDN Y3, Y13, Y4 \
	VPSUBQ Y4, Y15, Y5 \
	VPAND Y5, Y4, Y4 \
	VPAND Y12, Y4, Y5 \
	VPCMPEQQ Y15, Y5, Y5 \
	VPSUBQ ·laneOne(SB), Y4, Y4 \
	VPAND Y3, Y4, Y4 \
	VPANDN Y4, Y5, Y4 \
	MOVQ $1, AX \
	SHLXQ CX, AX, AX \
	VMOVQ AX, X2 \
	VPBROADCASTQ X2, Y2 \
	VPSRLVQ Y9, Y2, Y6 \
	VPAND Y11, Y6, Y6 \
	VPSRLVQ Y9, Y6, Y7 \
	VPAND Y11, Y7, Y7 \
	VPOR Y7, Y6, Y6 \
	VPSRLVQ Y10, Y6, Y7 \
	VPAND Y14, Y7, Y7 \
	VPOR Y7, Y6, Y6 \
	VPSRLVQ Y10, Y6, Y7 \
	VPAND Y14, Y7, Y7 \
	VPOR Y7, Y6, Y6 \
	VPSRLVQ Y9, Y6, Y7 \
	VPAND Y12, Y7, Y7 \
	VPCMPEQQ Y15, Y7, Y7 \
	VPANDN Y6, Y7, Y6 \
	VPOR Y6, Y4, Y4

// FLIPS: the discs flipped by a move on square CX, in the low quadword of
// X4 (and the high one); FLIPS_LANES says what it reads and clobbers.
#define FLIPS \
	FLIPS_LANES \
	FOLD_Y4

// FLIPS_SETUP loads what FLIPS reads, from p in R8 and o in R9.
#define FLIPS_SETUP \
	VMOVDQU ·dirMask(SB), Y8 \
	VMOVDQU ·dirShift(SB), Y9 \
	VMOVDQU ·dirShift2(SB), Y10 \
	VMOVQ R8, X12 \
	VPBROADCASTQ X12, Y12 \
	VMOVQ R9, X13 \
	VPBROADCASTQ X13, Y13 \
	VPAND Y8, Y13, Y11 \
	VPSRLVQ Y9, Y11, Y14 \
	VPAND Y11, Y14, Y14 \
	VPXOR Y15, Y15, Y15

// FLIPSZ_LANES is FLIPS_LANES with AVX-512 (VL, CD): towards lower bits the first
// square that is not o is the highest set bit of ray &^ o, which VPLZCNTQ
// finds at once, where AVX2 needs a Kogge-Stone fill. Reads Y12 = p, Y13
// = o broadcast, Y8 = ·topBit (moves_amd64.s) broadcast, Y15 = 0
// (FLIPSZ_SETUP); result in Y4; clobbers Y3-Y7, AX and R12. VPTERNLOGQ
// merges the last masks: 0x40 is A & B &^ C, 0xF8 is A | B & C.
#define FLIPSZ_LANES \
	MOVQ CX, AX \
	SHLQ $6, AX \
	LEAQ ·rays(SB), R12 \
	VMOVDQU (R12)(AX*1), Y3 \
	VMOVDQU 32(R12)(AX*1), Y6 \
	VPANDN Y3, Y13, Y4 \
	VPANDN Y6, Y13, Y7 \
	VPSUBQ Y4, Y15, Y5 \
	VPLZCNTQ Y7, Y7 \
	VPAND Y5, Y4, Y4 \
	VPSRLVQ Y7, Y8, Y7 \
	VPAND Y12, Y4, Y5 \
	VPAND Y12, Y7, Y7 \
	VPCMPEQQ Y15, Y5, Y5 \
	VPADDQ Y7, Y7, Y7 \
	VPSUBQ ·laneOne(SB), Y4, Y4 \
	VPSUBQ Y7, Y15, Y7 \
	VPTERNLOGQ $0x40, Y5, Y3, Y4 \
	VPTERNLOGQ $0xF8, Y7, Y6, Y4

// FLIPSZ is FLIPSZ_LANES folded into the low quadword of X4.
#define FLIPSZ \
	FLIPSZ_LANES \
	FOLD_Y4

// FLIPSZ_SETUP loads what FLIPSZ reads, from p in R8 and o in R9.
#define FLIPSZ_SETUP \
	VPBROADCASTQ ·topBit(SB), Y8 \
	VMOVQ R8, X12 \
	VPBROADCASTQ X12, Y12 \
	VMOVQ R9, X13 \
	VPBROADCASTQ X13, Y13 \
	VPXOR Y15, Y15, Y15
