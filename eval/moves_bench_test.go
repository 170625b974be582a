package eval

import (
	"math/bits"
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

// searchStates returns the States of every child of the positions at 31
// empties of randomPositions(12, 200), as BenchmarkPlayEvaluateStateSearch
// plays them: one stage's tables serve them all, as at a search's leaves.
func searchStates(e *Pattern) []State {
	var out []State
	for _, p := range randomPositions(12, 200) {
		if p.Empties() != 31 {
			continue
		}
		var s State
		e.Init(&s, p.Player, p.Opponent)
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			var c State
			e.Play(&c, &s, int(sq), bitboard.Flips(p.Player, p.Opponent, sq))
			out = append(out, c)
		}
	}
	return out
}

// BenchmarkPatternSum times the 46 pattern weights' sum of an evaluation
// in each kernel the CPU runs, on searchStates.
func BenchmarkPatternSum(b *testing.B) {
	e := Default()
	st := searchStates(e)
	t := e.stage(64 - bits.OnesCount64(st[0].P|st[0].O))
	kernels := []struct {
		name string
		k    int
		f    func(*[stageSize]int16, *[idxLen]uint32) int
	}{{"Go", kernelGo, patternSumGo}, {"AVX2", kernelAVX2, patternSumAVX2}, {"AVX512", kernelAVX512, patternSumAVX512}}
	for _, k := range kernels {
		b.Run(k.name, func(b *testing.B) {
			if k.k > sumKernel {
				b.Skip("not on this CPU")
			}
			x := 0
			for i := 0; b.Loop(); i++ {
				s := &st[i%len(st)]
				x += k.f(t, &s.idx[s.mover&1])
			}
			_ = x
		})
	}
}

// BenchmarkPlayKernel times Play's index update in each kernel the CPU
// runs, on the moves of random positions at 31 empties.
func BenchmarkPlayKernel(b *testing.B) {
	e := Default()
	type move struct {
		parent State
		sq     int
		flips  uint64
	}
	var moves []move
	for _, p := range randomPositions(12, 200) {
		if p.Empties() != 31 {
			continue
		}
		var s State
		e.Init(&s, p.Player, p.Opponent)
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			moves = append(moves, move{s, int(sq), bitboard.Flips(p.Player, p.Opponent, sq)})
		}
	}
	kernels := []struct {
		name string
		k    int
		f    func(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32)
	}{{"AVX2", kernelAVX2, playAVX2}, {"AVX512", kernelAVX512, playAVX512}}
	b.Run("Go", func(b *testing.B) {
		var child State
		for i := 0; b.Loop(); i++ {
			m := &moves[i%len(moves)]
			playGo(&child.idx, &m.parent.idx, m.sq, m.flips, m.parent.mover)
		}
	})
	for _, k := range kernels {
		b.Run(k.name, func(b *testing.B) {
			if k.k > sumKernel {
				b.Skip("not on this CPU")
			}
			var child State
			for i := 0; b.Loop(); i++ {
				m := &moves[i%len(moves)]
				k.f(&child.idx, &m.parent.idx, &sqDelta, m.sq, m.flips, uint32(m.parent.mover))
			}
		})
	}
}

// searchMoves returns every move of the positions at 31 empties of
// randomPositions(12, 200) with its parent's State, as a search's last
// plies meet them: one stage's tables serve them all.
func searchMoves(e *Pattern) (parents []*State, sqs []int, flips []uint64) {
	for _, p := range randomPositions(12, 200) {
		if p.Empties() != 31 {
			continue
		}
		s := new(State)
		e.Init(s, p.Player, p.Opponent)
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			parents, sqs, flips = append(parents, s), append(sqs, int(sq)), append(flips, bitboard.Flips(p.Player, p.Opponent, sq))
		}
	}
	return parents, sqs, flips
}

// BenchmarkPlay times Play (the incremental update) on searchMoves.
func BenchmarkPlay(b *testing.B) {
	e := Default()
	parents, sqs, flips := searchMoves(e)
	var child State
	for i := 0; b.Loop(); i++ {
		k := i % len(sqs)
		e.Play(&child, parents[k], sqs[k], flips[k])
	}
}

// BenchmarkPlayEvaluate times PlayEvaluate on searchMoves: a child scored
// without its State, as the search scores its leaves
// (BenchmarkPlayEvaluateStateSearch: the same children played, then
// evaluated).
func BenchmarkPlayEvaluate(b *testing.B) {
	e := Default()
	parents, sqs, flips := searchMoves(e)
	x := 0
	for i := 0; b.Loop(); i++ {
		k := i % len(sqs)
		x += e.PlayEvaluate(parents[k], sqs[k], flips[k])
	}
	_ = x
}
