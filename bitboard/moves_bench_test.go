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

func BenchmarkMoves(b *testing.B) {
	ps := benchPositions()
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += Moves(p.Player, p.Opponent)
		i++
	}
	_ = sink
}

func BenchmarkFlips(b *testing.B) {
	ps := benchPositions()
	sqs := make([]Square, len(ps))
	for i, p := range ps {
		sqs[i] = FirstSquare(p.Moves())
	}
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += Flips(p.Player, p.Opponent, sqs[i&1023])
		i++
	}
	_ = sink
}

func BenchmarkPlay(b *testing.B) {
	ps := benchPositions()
	sqs := make([]Square, len(ps))
	for i, p := range ps {
		sqs[i] = FirstSquare(p.Moves())
	}
	var sink uint64
	i := 0
	for b.Loop() {
		q := ps[i&1023].Play(sqs[i&1023])
		sink += q.Player
		i++
	}
	_ = sink
}

func BenchmarkMovesPortable(b *testing.B) {
	ps := benchPositions()
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += movesGo(p.Player, p.Opponent)
		i++
	}
	_ = sink
}

func BenchmarkFlipsPortable(b *testing.B) {
	ps := benchPositions()
	sqs := make([]Square, len(ps))
	for i, p := range ps {
		sqs[i] = FirstSquare(p.Moves())
	}
	var sink uint64
	i := 0
	for b.Loop() {
		p := &ps[i&1023]
		sink += flipsGo(p.Player, p.Opponent, sqs[i&1023])
		i++
	}
	_ = sink
}
