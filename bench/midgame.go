package bench

import (
	_ "embed"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// midgameOBF is the midgame benchmark's position set: 24 tournament boards
// (WTHOR 2025), eight each at 48, 40 and 32 empties, written by
// gen_midgame.go from testdata/wthor/WTH_2025.wtb.
//
//go:embed midgame.obf
var midgameOBF string

// Midgame returns the midgame benchmark's positions (48, 40 and 32 empties
// in turn).
func Midgame() []bitboard.Position {
	es, err := bitboard.ReadOBF(strings.NewReader(midgameOBF))
	if err != nil || len(es) != 24 {
		panic("bench: embedded midgame file is damaged")
	}
	ps := make([]bitboard.Position, len(es))
	for i, e := range es {
		ps[i] = e.Position
	}
	return ps
}
