package bench

import (
	_ "embed"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// ffo4059 is the FFO endgame suite #40-#59 (the standard benchmark of exact
// solvers), embedded so that "outflank bench" runs from anywhere. It is a
// copy of testdata/ffo/fforum-40-59.obf.
//
//go:embed fforum-40-59.obf
var ffo4059 string

// FFO40to59 returns the positions FFO #40 to #59 with their known move
// scores; element i is #40+i.
func FFO40to59() []bitboard.OBFEntry {
	es, err := bitboard.ReadOBF(strings.NewReader(ffo4059))
	if err != nil || len(es) != 20 {
		panic("bench: embedded FFO file is damaged")
	}
	return es
}
