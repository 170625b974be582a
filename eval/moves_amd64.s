#include "textflag.h"

// ROWS(b, t, dst): dst = lines 1, 2, 7 and 8 of b, bit k of each spread to
// bit 2k of its 16-bit field (outerLines): one PDEP of the four lines
// gathered into 32 bits. R15 holds 0x5555555555555555. Clobbers t.
#define ROWS(b, t, dst) \
	MOVWQZX b, dst \
	MOVQ    b, t \
	SHRQ    $48, t \
	SHLQ    $16, t \
	ORQ     t, dst \
	PDEPQ   R15, dst, dst

// COLS(b, dst): the same for columns a, b, g and h (outerLines of the
// transpose), each gathered by a PEXT (mask in R12, which ends as the
// column h mask). Clobbers R10 and R12.
#define COLS(b, dst) \
	MOVQ    $0x0101010101010101, R12 \
	PEXTQ   R12, b, dst \
	SHLQ    $1, R12 \
	PEXTQ   R12, b, R10 \
	SHLQ    $8, R10 \
	ORQ     R10, dst \
	SHLQ    $5, R12 \
	PEXTQ   R12, b, R10 \
	SHLQ    $16, R10 \
	ORQ     R10, dst \
	SHLQ    $1, R12 \
	PEXTQ   R12, b, R10 \
	SHLQ    $24, R10 \
	ORQ     R10, dst \
	PDEPQ   R15, dst, dst

// EDGES(X): AX += the edge table (DI) at X's first and last fields.
#define EDGES(X) \
	MOVWQZX X, R10 \
	MOVWQSX (DI)(R10*2), R11 \
	ADDQ    R11, AX \
	MOVQ    X, R10 \
	SHRQ    $48, R10 \
	MOVWQSX (DI)(R10*2), R11 \
	ADDQ    R11, AX

// BLOCKS(X): AX += the corner table (SI) at X's four corner blocks, each
// index in cornerFull's order (the inner line's half low): the low halves
// of fields 1 and 0, the reversed (table at DX) high halves of fields 1
// and 0, the low halves of fields 2 and 3, the reversed high halves of
// fields 2 and 3 (moveScoreGo, in the same order).
#define BLOCKS(X) \
	MOVQ    X, R10 \
	SHRQ    $16, R10 \
	ANDQ    $0xFF, R10 \
	MOVQ    X, R11 \
	SHLQ    $8, R11 \
	ANDQ    $0xFF00, R11 \
	ORQ     R11, R10 \
	MOVWQSX (SI)(R10*2), R11 \
	ADDQ    R11, AX \
	MOVQ    X, R10 \
	SHRQ    $24, R10 \
	MOVBQZX R10, R10 \
	MOVBQZX (DX)(R10*1), R10 \
	MOVQ    X, R11 \
	SHRQ    $8, R11 \
	MOVBQZX R11, R11 \
	MOVBQZX (DX)(R11*1), R11 \
	SHLQ    $8, R11 \
	ORQ     R11, R10 \
	MOVWQSX (SI)(R10*2), R11 \
	ADDQ    R11, AX \
	MOVQ    X, R10 \
	SHRQ    $32, R10 \
	MOVBQZX R10, R10 \
	MOVQ    X, R11 \
	SHRQ    $40, R11 \
	ANDQ    $0xFF00, R11 \
	ORQ     R11, R10 \
	MOVWQSX (SI)(R10*2), R11 \
	ADDQ    R11, AX \
	MOVQ    X, R10 \
	SHRQ    $40, R10 \
	MOVBQZX R10, R10 \
	MOVBQZX (DX)(R10*1), R10 \
	MOVQ    X, R11 \
	SHRQ    $56, R11 \
	MOVBQZX (DX)(R11*1), R11 \
	SHLQ    $8, R11 \
	ORQ     R11, R10 \
	MOVWQSX (SI)(R10*2), R11 \
	ADDQ    R11, AX

// func moveScoreBMI2(e, c *[moveTableSize]int16, rev *[256]uint8, mp, mo uint64) int
TEXT ·moveScoreBMI2(SB), NOSPLIT, $0-48
	MOVQ e+0(FP), DI
	MOVQ c+8(FP), SI
	MOVQ rev+16(FP), DX
	MOVQ mp+24(FP), AX
	MOVQ mo+32(FP), BX
	MOVQ $0x5555555555555555, R15
	ROWS(AX, R10, R8)
	ROWS(BX, R10, R11)
	SHLQ $1, R11
	ORQ  R11, R8
	COLS(AX, R9)
	COLS(BX, R13)
	SHLQ $1, R13
	ORQ  R13, R9
	XORQ AX, AX
	EDGES(R8)
	EDGES(R9)
	BLOCKS(R8)
	BLOCKS(R9)
	MOVQ AX, ret+40(FP)
	RET
