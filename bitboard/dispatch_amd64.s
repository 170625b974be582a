// The kernels' entry points (dispatch_amd64.go): each tail-jumps to the
// AVX-512 or AVX2 kernel, or to the portable Go twin, by the flags
// cpu_amd64.go set at start. The kernels take their arguments in the same
// frame layout, so the jump passes them on untouched.

#include "textflag.h"

// DISPATCH(AVX512, AVX2, GO): the body of an entry point.
#define DISPATCH(AVX512, AVX2, GO) \
	CMPB ·hasAVX512Kernel(SB), $0 \
	JEQ  2(PC) \
	JMP  AVX512(SB) \
	CMPB ·hasAVX2Kernel(SB), $0 \
	JEQ  2(PC) \
	JMP  AVX2(SB) \
	JMP  GO(SB)

// func flipsKernel(p, o uint64, sq Square) uint64
TEXT ·flipsKernel(SB), NOSPLIT, $0-32
	DISPATCH(·flipsAVX512, ·flipsAVX2, ·flipsGo)

// func movesKernel(p, o uint64) uint64
TEXT ·movesKernel(SB), NOSPLIT, $0-24
	DISPATCH(·movesAVX512, ·movesAVX2, ·movesGo)

// func movesBothKernel(p, o uint64) (pm, om uint64)
TEXT ·movesBothKernel(SB), NOSPLIT, $0-32
	DISPATCH(·movesBothAVX512, ·movesBothAVX2, ·movesBothGo)

// func flipsRepliesKernel(p, o uint64, sq Square) (f, r uint64)
TEXT ·flipsRepliesKernel(SB), NOSPLIT, $0-40
	DISPATCH(·flipsRepliesAVX512, ·flipsRepliesAVX2, ·flipsRepliesGo)

// func last2Kernel(p, o uint64, alpha int, x1, x2 int) (score, nodes int)
TEXT ·last2Kernel(SB), NOSPLIT, $0-56
	DISPATCH(·last2AVX512, ·last2AVX2, ·last2Portable)

// func last3Kernel(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)
TEXT ·last3Kernel(SB), NOSPLIT, $0-64
	DISPATCH(·last3AVX512, ·last3AVX2, ·last3Portable)

// func last4Kernel(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)
TEXT ·last4Kernel(SB), NOSPLIT, $0-72
	DISPATCH(·last4AVX512, ·last4AVX2, ·last4Portable)

// func last5Kernel(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int)
TEXT ·last5Kernel(SB), NOSPLIT, $0-64
	DISPATCH(·last5AVX512, ·last5AVX2, ·last5Go)
