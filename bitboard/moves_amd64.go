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

// movesAVX512 is movesAVX2 with VPTERNLOGQ (moves_amd64.h), where
// hasAVX512Kernel is set.
//
//go:noescape
func movesAVX512(p, o uint64) uint64

// movesBothAVX2 and movesBothAVX512 are MovesBoth: the two sides' moves in
// one call.
//
//go:noescape
func movesBothAVX2(p, o uint64) (pm, om uint64)

//go:noescape
func movesBothAVX512(p, o uint64) (pm, om uint64)

// flipsAVX512 is flipsAVX2 with the VPLZCNTQ flips of moves_amd64.h, where
// hasAVX512Kernel is set.
//
//go:noescape
func flipsAVX512(p, o uint64, sq Square) uint64

// flipsRepliesAVX2 and flipsRepliesAVX512 are FlipsReplies: the flips of
// flipsAVX2 (flipsAVX512), then the moves of movesAVX2 (movesAVX512) in the
// position after the move, in one call.
//
//go:noescape
func flipsRepliesAVX2(p, o uint64, sq Square) (f, r uint64)

//go:noescape
func flipsRepliesAVX512(p, o uint64, sq Square) (f, r uint64)

// last2AVX2 to last5AVX2 are Last2 to Last5 in assembly (last_amd64.s,
// generated), each calling the one below for its children, with the flips
// of moves_amd64.h inline; the AVX512 twins use the VPLZCNTQ flips instead
// (hasAVX512Kernel).

//go:noescape
func last2AVX2(p, o uint64, alpha int, x1, x2 int) (score, nodes int)

//go:noescape
func last3AVX2(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)

//go:noescape
func last4AVX2(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)

//go:noescape
func last5AVX2(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int)

//go:noescape
func last2AVX512(p, o uint64, alpha int, x1, x2 int) (score, nodes int)

//go:noescape
func last3AVX512(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)

//go:noescape
func last4AVX512(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)

//go:noescape
func last5AVX512(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int)
