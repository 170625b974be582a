#include "textflag.h"

// func prefetchRows(base unsafe.Pointer, size uintptr, mul, off int, idx []int32)
TEXT ·prefetchRows(SB), NOSPLIT, $0-56
	MOVQ base+0(FP), AX
	MOVQ size+8(FP), BX
	MOVQ mul+16(FP), R8
	MOVQ off+24(FP), CX
	MOVQ idx_base+32(FP), SI
	MOVQ idx_len+40(FP), DI
	TESTQ DI, DI
	JEQ done
loop:
	MOVLQSX (SI), DX
	IMULQ R8, DX
	ADDQ CX, DX
	IMULQ BX, DX
	PREFETCHT0 (AX)(DX*1)
	ADDQ $4, SI
	DECQ DI
	JNE loop
done:
	RET
