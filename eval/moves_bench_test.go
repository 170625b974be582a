package eval

import (
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

func movePairs() (mp, mo []uint64) {
	for _, pos := range randomPositions(13, 40) {
		mp = append(mp, bitboard.Moves(pos.Player, pos.Opponent))
		mo = append(mo, bitboard.Moves(pos.Opponent, pos.Player))
	}
	return mp, mo
}

func BenchmarkMoveScoreGo(b *testing.B) {
	mp, mo := movePairs()
	var e, c [moveTableSize]int16
	s := 0
	for i := 0; b.Loop(); i++ {
		k := i % len(mp)
		s += moveScoreGo(&e, &c, mp[k], mo[k])
	}
	_ = s
}

func BenchmarkMoveScoreBMI2(b *testing.B) {
	if !playKernel {
		b.Skip("no kernel")
	}
	mp, mo := movePairs()
	var e, c [moveTableSize]int16
	s := 0
	for i := 0; b.Loop(); i++ {
		k := i % len(mp)
		s += moveScoreBMI2(&e, &c, &revDigits, mp[k], mo[k])
	}
	_ = s
}

func BenchmarkEvaluateStateRandom(b *testing.B) {
	e := randomWeights(b, 3)
	var states []State
	for _, pos := range randomPositions(14, 40) {
		var s State
		e.Init(&s, pos.Player, pos.Opponent)
		states = append(states, s)
	}
	x := 0
	for i := 0; b.Loop(); i++ {
		x += e.EvaluateState(&states[i%len(states)])
	}
	_ = x
}
