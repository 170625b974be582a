package bitboard

// movesAVX2 and flipsAVX2 are Moves and Flips with AVX2: the four direction
// pairs in the four lanes of one register. Even with the cost of a call that
// the compiler cannot inline, they take about 40% (moves) and 60% (flips) of
// the time of the Go versions here; Moves and Flips use them when
// hasAVX2Kernel is set.
//
//go:noescape
func movesAVX2(p, o uint64) uint64

//go:noescape
func flipsAVX2(p, o uint64, sq Square) uint64

// movesCandidatesAVX2 is the vector core of movesAVX2, shared with the perft
// kernel. It takes and returns its values in registers (player broadcast in
// Y0, opponent in Y1, direction constants in Y8-Y10; the candidates, not yet
// masked with the empty squares, in BX), so only assembly calls it.
func movesCandidatesAVX2()
