// Last2 in assembly (lastflip.go says what it computes; last2Go is the
// reference it must match, nodes included). The flips of the two moves use
// the FLIPS macro of moves_amd64.h and the last move only counts its flips
// with the lastFlips table, so the whole two-empties solve is one call.

#include "textflag.h"
#include "moves_amd64.h"

// LASTCOUNT(B): DX = the number of discs the owner of B flips by playing
// CX, the only empty square (CountLastFlips). Clobbers AX, SI, DI, R11, R12.
#define LASTCOUNT(B) \
	MOVQ CX, R11 \
	ANDQ $7, R11 \
	SHLQ $8, R11 \
	LEAQ ·lastFlips(SB), R12 \
	ADDQ R12, R11 \
	MOVQ CX, SI \
	ANDQ $56, SI \
	SHRXQ SI, B, DI \
	MOVBQZX DI, DI \
	MOVBQZX (R11)(DI*1), DX \
	MOVQ CX, DI \
	ANDQ $7, DI \
	SHRXQ DI, B, DI \
	MOVQ $0x0101010101010101, AX \
	ANDQ AX, DI \
	MOVQ $0x0102040810204080, AX \
	IMULQ AX, DI \
	SHRQ $56, DI \
	SHLQ $5, SI \
	ADDQ R12, SI \
	MOVBQZX (SI)(DI*1), DI \
	ADDQ DI, DX \
	MOVQ $0x0101010101010101, AX \
	LEAQ ·diagMask(SB), SI \
	MOVQ (SI)(CX*8), DI \
	ANDQ B, DI \
	IMULQ AX, DI \
	SHRQ $56, DI \
	MOVBQZX (R11)(DI*1), DI \
	ADDQ DI, DX \
	LEAQ ·antiMask(SB), SI \
	MOVQ (SI)(CX*8), DI \
	ANDQ B, DI \
	IMULQ AX, DI \
	SHRQ $56, DI \
	MOVBQZX (R11)(DI*1), DI \
	ADDQ DI, DX

// LAST1: AX = Last1(R10, ^(R10 | 1<<CX), CX), the score for the owner of
// R10 with CX the only empty square; then jumps to done. lo and lend are
// the macro's own labels (each use names its own). Clobbers BX, DX, SI,
// DI, R10-R12.
#define LAST1(lo, lend, done) \
	POPCNTQ R10, BX \
	LASTCOUNT(R10) \
	TESTQ DX, DX \
	JZ lo \
	ADDQ BX, DX \
	LEAQ -31(DX), AX \
	ADDQ AX, AX \
	JMP done \
lo: \
	BTSQ CX, R10 \
	NOTQ R10 \
	LASTCOUNT(R10) \
	TESTQ DX, DX \
	JZ lend \
	SUBQ DX, BX \
	LEAQ -32(BX), AX \
	ADDQ AX, AX \
	JMP done \
lend: \
	LEAQ -32(BX), AX \
	ADDQ AX, AX \
	CMPQ BX, $31 \
	JLE done \
	ADDQ $2, AX \
	JMP done

// TRY3(xi, xa, xb, skip): in last3AVX2, the move of p+0(FP) at xi and the
// two-empties solve of the child at xa, xb by a call to last2AVX2; a score
// above alpha returns at once, otherwise it may raise the best in
// score+48(FP). Jumps to skip when xi is not a legal move.
#define TRY3(xi, xa, xb, skip) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	MOVQ xi, CX \
	LEAQ ·neighbourMask(SB), AX \
	MOVQ (AX)(CX*8), AX \
	TESTQ R9, AX \
	JZ   skip \
	FLIPS_SETUP \
	FLIPS \
	VMOVQ X4, BX \
	TESTQ BX, BX \
	JZ   skip \
	ANDNQ R9, BX, R10 \
	MOVQ R10, 0(SP) \
	ORQ  R8, BX \
	BTSQ CX, BX \
	MOVQ BX, 8(SP) \
	MOVQ alpha+16(FP), AX \
	NOTQ AX \
	MOVQ AX, 16(SP) \
	MOVQ xa, AX \
	MOVQ AX, 24(SP) \
	MOVQ xb, AX \
	MOVQ AX, 32(SP) \
	CALL ·last2AVX2(SB) \
	MOVQ 48(SP), BX \
	ADDQ BX, nodes+56(FP) \
	MOVQ 40(SP), AX \
	NEGQ AX \
	CMPQ AX, alpha+16(FP) \
	JGT  l3win \
	MOVQ score+48(FP), BX \
	CMPQ AX, BX \
	CMOVQLT BX, AX \
	MOVQ AX, score+48(FP)

// TRY4(xi, xa, xb, xc, skip): TRY3 for last4AVX2, the child solved by a
// call to last3AVX2.
#define TRY4(xi, xa, xb, xc, skip) \
	MOVQ p+0(FP), R8 \
	MOVQ o+8(FP), R9 \
	MOVQ xi, CX \
	LEAQ ·neighbourMask(SB), AX \
	MOVQ (AX)(CX*8), AX \
	TESTQ R9, AX \
	JZ   skip \
	FLIPS_SETUP \
	FLIPS \
	VMOVQ X4, BX \
	TESTQ BX, BX \
	JZ   skip \
	ANDNQ R9, BX, R10 \
	MOVQ R10, 0(SP) \
	ORQ  R8, BX \
	BTSQ CX, BX \
	MOVQ BX, 8(SP) \
	MOVQ alpha+16(FP), AX \
	NOTQ AX \
	MOVQ AX, 16(SP) \
	MOVQ xa, AX \
	MOVQ AX, 24(SP) \
	MOVQ xb, AX \
	MOVQ AX, 32(SP) \
	MOVQ xc, AX \
	MOVQ AX, 40(SP) \
	CALL ·last3AVX2(SB) \
	MOVQ 56(SP), BX \
	ADDQ BX, nodes+64(FP) \
	MOVQ 48(SP), AX \
	NEGQ AX \
	CMPQ AX, alpha+16(FP) \
	JGT  l4win \
	MOVQ score+56(FP), BX \
	CMPQ AX, BX \
	CMOVQLT BX, AX \
	MOVQ AX, score+56(FP)

// func last2AVX2(p, o uint64, alpha int, x1, x2 int) (score, nodes int)
//
// R8, R9 hold the mover's and the opponent's discs (swapped for a pass),
// R13 the nodes; the best score so far lives in score+40(FP).
TEXT ·last2AVX2(SB), NOSPLIT, $0-56
	MOVQ p+0(FP), R8
	MOVQ o+8(FP), R9
	MOVQ $1, R13
	MOVQ $-100, score+40(FP)
	FLIPS_SETUP

	// p at x1, then o's last move at x2.
	MOVQ x1+24(FP), CX
	LEAQ ·neighbourMask(SB), AX
	MOVQ (AX)(CX*8), AX
	TESTQ R9, AX
	JZ   px2
	FLIPS
	VMOVQ X4, BX
	TESTQ BX, BX
	JZ   px2
	INCQ R13
	ANDNQ R9, BX, R10
	MOVQ x2+32(FP), CX
	LAST1(a_o, a_end, a_done)
a_done:
	NEGQ AX
	MOVQ AX, score+40(FP)
	CMPQ AX, alpha+16(FP)
	JGT  ret

px2:
	// p at x2, then o's last move at x1.
	MOVQ x2+32(FP), CX
	LEAQ ·neighbourMask(SB), AX
	MOVQ (AX)(CX*8), AX
	TESTQ R9, AX
	JZ   pnone
	FLIPS
	VMOVQ X4, BX
	TESTQ BX, BX
	JZ   pnone
	INCQ R13
	ANDNQ R9, BX, R10
	MOVQ x1+24(FP), CX
	LAST1(b_o, b_end, b_done)
b_done:
	NEGQ AX
	MOVQ score+40(FP), BX
	CMPQ AX, BX
	CMOVQLT BX, AX
	MOVQ AX, score+40(FP)
	JMP  ret

pnone:
	CMPQ score+40(FP), $-100
	JNE  ret

	// p cannot move: o moves, p has the last move. From here R8 = o,
	// R9 = p, and the scores (for p) are not negated.
	MOVQ R8, R10
	MOVQ R9, R8
	MOVQ R10, R9
	MOVQ $100, score+40(FP)
	FLIPS_SETUP

	MOVQ x1+24(FP), CX
	LEAQ ·neighbourMask(SB), AX
	MOVQ (AX)(CX*8), AX
	TESTQ R9, AX
	JZ   ox2
	FLIPS
	VMOVQ X4, BX
	TESTQ BX, BX
	JZ   ox2
	INCQ R13
	ANDNQ R9, BX, R10
	MOVQ x2+32(FP), CX
	LAST1(c_o, c_end, c_done)
c_done:
	MOVQ AX, score+40(FP)
	CMPQ AX, alpha+16(FP)
	JLE  ret

ox2:
	MOVQ x2+32(FP), CX
	LEAQ ·neighbourMask(SB), AX
	MOVQ (AX)(CX*8), AX
	TESTQ R9, AX
	JZ   onone
	FLIPS
	VMOVQ X4, BX
	TESTQ BX, BX
	JZ   onone
	INCQ R13
	ANDNQ R9, BX, R10
	MOVQ x1+24(FP), CX
	LAST1(d_o, d_end, d_done)
d_done:
	MOVQ score+40(FP), BX
	CMPQ AX, BX
	CMOVQGT BX, AX
	MOVQ AX, score+40(FP)
	JMP  ret

onone:
	CMPQ score+40(FP), $100
	JNE  ret

	// Nobody can move: the final score for p (R9), o in R8.
	POPCNTQ R9, BX
	POPCNTQ R8, DX
	XORQ AX, AX
	CMPQ BX, DX
	JEQ  final
	JGT  pwins
	LEAQ -32(BX), AX
	ADDQ AX, AX
	JMP  final
pwins:
	MOVQ $32, AX
	SUBQ DX, AX
	ADDQ AX, AX
final:
	MOVQ AX, score+40(FP)

ret:
	VZEROUPPER
	MOVQ R13, nodes+48(FP)
	RET

// func last3AVX2(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)
//
// Last3 with the moves' flips inline and the children solved by
// last2AVX2. A pass swaps p+0(FP) and o+8(FP) in place and starts again
// with the score negated (the flag at 56(SP)), as the recursive Go form
// does.
TEXT ·last3AVX2(SB), NOSPLIT, $64-64
	MOVQ $1, nodes+56(FP)
	MOVQ $0, 56(SP)

l3start:
	MOVQ $-100, score+48(FP)
	TRY3(x1+24(FP), x2+32(FP), x3+40(FP), l3m2)
l3m2:
	TRY3(x2+32(FP), x1+24(FP), x3+40(FP), l3m3)
l3m3:
	TRY3(x3+40(FP), x1+24(FP), x2+32(FP), l3none)
l3none:
	MOVQ score+48(FP), AX
	CMPQ AX, $-100
	JNE  l3ret

	// No move: can the opponent move? Then it is a pass.
	MOVQ o+8(FP), R8
	MOVQ p+0(FP), R9
	FLIPS_SETUP
	MOVQ x1+24(FP), CX
	FLIPS
	VMOVQ X4, R10
	MOVQ x2+32(FP), CX
	FLIPS
	VMOVQ X4, BX
	ORQ  BX, R10
	MOVQ x3+40(FP), CX
	FLIPS
	VMOVQ X4, BX
	ORQ  BX, R10
	TESTQ R10, R10
	JZ   l3final
	CMPQ 56(SP), $0
	JNE  l3final // cannot happen: the opponent, having moves, does not pass back
	MOVQ R8, p+0(FP)
	MOVQ R9, o+8(FP)
	MOVQ alpha+16(FP), AX
	NOTQ AX
	MOVQ AX, alpha+16(FP)
	MOVQ $1, 56(SP)
	ADDQ $1, nodes+56(FP)
	JMP  l3start

l3final:
	// Nobody can move: the final score for p+0(FP), whose discs are R9.
	POPCNTQ R9, BX
	POPCNTQ R8, DX
	XORQ AX, AX
	CMPQ BX, DX
	JEQ  l3fin
	JGT  l3pwins
	LEAQ -32(BX), AX
	ADDQ AX, AX
	JMP  l3fin
l3pwins:
	MOVQ $32, AX
	SUBQ DX, AX
	ADDQ AX, AX
l3fin:
	MOVQ AX, score+48(FP)
	JMP  l3ret

l3win:
	MOVQ AX, score+48(FP)

l3ret:
	CMPQ 56(SP), $0
	JEQ  l3done
	NEGQ score+48(FP)
l3done:
	VZEROUPPER
	RET

// func last4AVX2(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)
//
// Last4 as last3AVX2 is Last3, the children solved by last3AVX2; the pass
// flag is at 64(SP).
TEXT ·last4AVX2(SB), NOSPLIT, $72-72
	MOVQ $1, nodes+64(FP)
	MOVQ $0, 64(SP)

l4start:
	MOVQ $-100, score+56(FP)
	TRY4(x1+24(FP), x2+32(FP), x3+40(FP), x4+48(FP), l4m2)
l4m2:
	TRY4(x2+32(FP), x1+24(FP), x3+40(FP), x4+48(FP), l4m3)
l4m3:
	TRY4(x3+40(FP), x1+24(FP), x2+32(FP), x4+48(FP), l4m4)
l4m4:
	TRY4(x4+48(FP), x1+24(FP), x2+32(FP), x3+40(FP), l4none)
l4none:
	MOVQ score+56(FP), AX
	CMPQ AX, $-100
	JNE  l4ret

	// No move: can the opponent move? Then it is a pass.
	MOVQ o+8(FP), R8
	MOVQ p+0(FP), R9
	FLIPS_SETUP
	MOVQ x1+24(FP), CX
	FLIPS
	VMOVQ X4, R10
	MOVQ x2+32(FP), CX
	FLIPS
	VMOVQ X4, BX
	ORQ  BX, R10
	MOVQ x3+40(FP), CX
	FLIPS
	VMOVQ X4, BX
	ORQ  BX, R10
	MOVQ x4+48(FP), CX
	FLIPS
	VMOVQ X4, BX
	ORQ  BX, R10
	TESTQ R10, R10
	JZ   l4final
	CMPQ 64(SP), $0
	JNE  l4final // cannot happen: the opponent, having moves, does not pass back
	MOVQ R8, p+0(FP)
	MOVQ R9, o+8(FP)
	MOVQ alpha+16(FP), AX
	NOTQ AX
	MOVQ AX, alpha+16(FP)
	MOVQ $1, 64(SP)
	ADDQ $1, nodes+64(FP)
	JMP  l4start

l4final:
	// Nobody can move: the final score for p+0(FP), whose discs are R9.
	POPCNTQ R9, BX
	POPCNTQ R8, DX
	XORQ AX, AX
	CMPQ BX, DX
	JEQ  l4fin
	JGT  l4pwins
	LEAQ -32(BX), AX
	ADDQ AX, AX
	JMP  l4fin
l4pwins:
	MOVQ $32, AX
	SUBQ DX, AX
	ADDQ AX, AX
l4fin:
	MOVQ AX, score+56(FP)
	JMP  l4ret

l4win:
	MOVQ AX, score+56(FP)

l4ret:
	CMPQ 64(SP), $0
	JEQ  l4done
	NEGQ score+56(FP)
l4done:
	VZEROUPPER
	RET
