package bitboard

// movesAVX2 and flipsAVX2 are Moves and Flips with AVX2: the four direction
// pairs in the four lanes of one register (the code is in the macros of
// moves_amd64.h, which the perft kernel shares). Even with the cost of a call
// that the compiler cannot inline, they are faster than the Go versions;
// Moves and Flips use them when hasAVX2Kernel is set.
//
//go:noescape
func movesAVX2(p, o uint64) uint64

//go:noescape
func flipsAVX2(p, o uint64, sq Square) uint64

// last2AVX2 is Last2 in assembly, with the flips of moves_amd64.h.
//
//go:noescape
func last2AVX2(p, o uint64, alpha int, x1, x2 int) (score, nodes int)

// last3AVX2 is Last3 in assembly, calling last2AVX2 for the children.
//
//go:noescape
func last3AVX2(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)

// last4AVX2 is Last4 in assembly, calling last3AVX2 for the children.
//
//go:noescape
func last4AVX2(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)
