package eval

// moveScoreBMI2 is moveScoreGo in assembly (moves_amd64.s): PDEP spreads
// a side's outer rows into their move-index fields in one instruction, and
// four PEXTs and a PDEP its outer columns, where the Go code transposes the
// bitboard and spreads with shifts and masks. It runs where playKernel does
// (the AVX2 kernel's CPUs all have BMI2).
//
//go:noescape
func moveScoreBMI2(e, c *[moveTableSize]int16, rev *[256]uint8, mp, mo uint64) int
