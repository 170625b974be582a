package bitboard

import (
	"math/rand/v2"
	"testing"
)

// TestPerftLeavesPaths compares the path in use (the assembly kernel where
// the CPU has it) and the portable loop with a plain count on random positions, passes and
// finished children included.
func TestPerftLeavesPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 0
	for i := 0; i < 20000; i++ {
		p := randomPosition(rng)
		if p.Moves() == 0 {
			continue
		}
		n++
		var want uint64
		for m := p.Moves(); m != 0; m &= m - 1 {
			c := p.Play(FirstSquare(m))
			if k := Count(c.Moves()); k > 0 {
				want += uint64(k)
			} else {
				want++ // pass or game over
			}
		}
		if got := perftLeavesGo(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: portable %d, want %d", p, got, want)
		}
		// perftLeaves is the path perft uses: the kernel where the CPU has one.
		if got := perftLeaves(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: %s %d, want %d", p, AsmPath(), got, want)
		}
	}
	t.Logf("%d positions, fast path: %s", n, AsmPath())
}
