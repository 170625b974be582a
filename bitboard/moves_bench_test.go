package bitboard

import (
	"math/rand/v2"
	"testing"
)

// benchPositions are random mid-game positions, so that the benchmarks see
// realistic boards and branch patterns.
func benchPositions() []Position {
	rng := rand.New(rand.NewPCG(7, 8))
	ps := make([]Position, 0, 1024)
	for len(ps) < cap(ps) {
		if p := randomPosition(rng); p.Moves() != 0 {
			ps = append(ps, p)
		}
	}
	return ps
}

func BenchmarkMoves(b *testing.B)         { benchMoves(b, Moves) }
func BenchmarkMovesPortable(b *testing.B) { benchMoves(b, movesGo) }
func BenchmarkFlips(b *testing.B)         { benchFlips(b, Flips) }
func BenchmarkFlipsPortable(b *testing.B) { benchFlips(b, flipsGo) }

func benchMoves(b *testing.B, moves func(p, o uint64) uint64) {
	ps := benchPositions()
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += moves(p.Player, p.Opponent)
		i++
	}
	_ = sink
}

// firstMoves returns a legal move of each position.
func firstMoves(ps []Position) []Square {
	sqs := make([]Square, len(ps))
	for i, p := range ps {
		sqs[i] = FirstSquare(p.Moves())
	}
	return sqs
}

func benchFlips(b *testing.B, flips func(p, o uint64, sq Square) uint64) {
	ps := benchPositions()
	sqs := firstMoves(ps)
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += flips(p.Player, p.Opponent, sqs[i&1023])
		i++
	}
	_ = sink
}

func BenchmarkPlay(b *testing.B) {
	ps := benchPositions()
	sqs := firstMoves(ps)
	var sink uint64
	i := 0
	for b.Loop() {
		q := ps[i&1023].Play(sqs[i&1023])
		sink += q.Player
		i++
	}
	_ = sink
}
