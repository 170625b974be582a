package search

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
)

// The evaluation cache returns exactly what the evaluation does: along
// random games, every child is scored twice through the cache (the second
// time mostly a hit) and each position once more from its State, and all
// equal the board's evaluation, while the games' positions share the
// cache's entries.
func TestEvalCacheExact(t *testing.T) {
	s := &searcher{ev: eval.Default()}
	s.initEval()
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for range 40 {
		pos := bitboard.Start()
		st := &s.states[0]
		s.ie.Init(st, pos.Player, pos.Opponent)
		for !pos.GameOver() {
			p, o := pos.Player, pos.Opponent
			if got, want := s.evaluate(st), s.ev.Evaluate(p, o); got != want {
				t.Fatalf("%v: evaluate %d, board %d", pos, got, want)
			}
			m := pos.Moves()
			if m == 0 {
				pos = pos.Pass()
				s.ie.Pass(st, st)
				continue
			}
			for rep := range 2 {
				for mm := m; mm != 0; mm &= mm - 1 {
					x := bits.TrailingZeros64(mm)
					f := flips(p, o, x)
					if rep == 1 && s.evals.entry(o&^f, p|f|sqBit(x)).p == o&^f {
						hits++
					}
					if got, want := s.playEvaluate(st, x, f), s.ev.Evaluate(o&^f, p|f|sqBit(x)); got != want {
						t.Fatalf("%v, move %d: playEvaluate %d, board %d", pos, x, got, want)
					}
				}
			}
			for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			x := bitboard.FirstSquare(m)
			s.ie.Play(st, st, int(x), flips(p, o, int(x)))
			pos = pos.Play(x)
		}
	}
	if hits == 0 {
		t.Fatal("no second scoring found its first in the cache")
	}
	t.Logf("%d hits", hits)
}

// Positions that share a cache entry and one side's discs never take each
// other's evaluation: for random boards, another board with the same
// player's (then the same opponent's) discs and the same entry is found,
// and both are scored in turn through the cache.
func TestEvalCacheCollisions(t *testing.T) {
	s := &searcher{ev: eval.Default()}
	s.initEval()
	rng := rand.New(rand.NewPCG(7, 8))
	board := func() (p, o uint64) {
		occ := rng.Uint64() | 0x0000001818000000
		p = occ & rng.Uint64()
		return p, occ &^ p
	}
	score := func(p, o uint64) {
		t.Helper()
		st := &s.states[0]
		s.ie.Init(st, p, o)
		if got, want := s.evaluate(st), s.ev.Evaluate(p, o); got != want {
			t.Fatalf("%x %x: evaluate %d, board %d", p, o, got, want)
		}
	}
	for range 20 {
		p, o := board()
		e := s.evals.entry(p, o)
		for k := 0; k < 2; k++ {
			for {
				p2, o2 := board()
				if k == 0 {
					p2, o2 = p, o2&^p
				} else {
					p2, o2 = p2&^o, o
				}
				if (p2 != p || o2 != o) && s.evals.entry(p2, o2) == e {
					score(p, o)
					score(p2, o2)
					score(p, o)
					break
				}
			}
		}
	}
}
